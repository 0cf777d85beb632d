import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import type { DurationUnit } from '../domain/flows';
import { limitWindow } from './windows';

const ZONES = ['UTC', 'America/New_York', 'Europe/Berlin', 'Australia/Lord_Howe', 'Asia/Kathmandu'];
const UNITS: readonly DurationUnit[] = ['minutes', 'hours', 'days', 'weeks', 'months'];
// 2026, both daylight-saving changes of every zone above included.
const FROM = Date.parse('2026-01-01T00:00:00Z');
const TO = Date.parse('2027-01-01T00:00:00Z');

describe('limitWindow', () => {
  it('holds the instant, and neighbouring instants get the window before or after', () => {
    const w = limitWindow(Date.parse('2026-03-08T06:59:59.999Z'), 1, 'hours', 'America/New_York');
    expect(w).toEqual({ start: '2026-03-08T06:00:00.000Z', end: '2026-03-08T07:00:00.000Z' });
    // Clocks jump from 02:00 to 03:00 local at 07:00Z: the next hour window is 03:00 local.
    expect(limitWindow(Date.parse('2026-03-08T07:00:00Z'), 1, 'hours', 'America/New_York')).toEqual({
      start: '2026-03-08T07:00:00.000Z',
      end: '2026-03-08T08:00:00.000Z',
    });
    expect(limitWindow(Date.parse('2026-03-08T12:00:00Z'), 1, 'days', 'America/New_York')).toEqual({
      start: '2026-03-08T05:00:00.000Z',
      end: '2026-03-09T04:00:00.000Z',
    });
  });

  // Windows are remembered per kind; the answer must not depend on what was asked before.
  it('answers the same whatever instants were asked before (remembered windows are never stale)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ZONES),
        fc.constantFrom(...UNITS),
        fc.integer({ min: 1, max: 7 }),
        fc.array(fc.integer({ min: FROM, max: TO }), { minLength: 2, maxLength: 30 }),
        (zone, units, duration, instants) => {
          const inOrder = [...instants]
            .sort((a, b) => a - b)
            .map((now) => [now, limitWindow(now, duration, units, zone)] as const);
          const answers = new Map(inOrder.map(([now, w]) => [now, w]));
          for (const now of instants) {
            const w = limitWindow(now, duration, units, zone);
            expect(w).toEqual(answers.get(now));
            expect(Date.parse(w.start)).toBeLessThanOrEqual(now);
            expect(Date.parse(w.end)).toBeGreaterThan(now);
          }
        },
      ),
      { seed: 12, numRuns: 300 },
    );
  });
});

// Windows around the daylight-saving changes of 2024 in London (31 March, 27 October)
// and New York (10 March, 3 November): [zone, instant, duration, units, start, end].
// Windows are cut on the wall clock: the hour the clocks repeat is one window of two real hours.
const AROUND_CHANGES: readonly [string, string, number, DurationUnit, string, string][] = [
  ['Europe/London', '2024-03-31T02:30:00Z', 1, 'hours', '2024-03-31T02:00:00.000Z', '2024-03-31T03:00:00.000Z'],
  ['Europe/London', '2024-03-31T00:30:00Z', 1, 'hours', '2024-03-31T00:00:00.000Z', '2024-03-31T01:00:00.000Z'],
  ['Europe/London', '2024-03-31T01:07:00Z', 15, 'minutes', '2024-03-31T01:00:00.000Z', '2024-03-31T01:15:00.000Z'],
  ['Europe/London', '2024-03-31T12:00:00Z', 1, 'days', '2024-03-31T00:00:00.000Z', '2024-03-31T23:00:00.000Z'],
  ['Europe/London', '2024-10-27T00:30:00Z', 1, 'hours', '2024-10-27T00:00:00.000Z', '2024-10-27T02:00:00.000Z'],
  ['Europe/London', '2024-10-27T01:30:00Z', 1, 'hours', '2024-10-27T00:00:00.000Z', '2024-10-27T02:00:00.000Z'],
  ['America/New_York', '2024-03-10T06:30:00Z', 1, 'hours', '2024-03-10T06:00:00.000Z', '2024-03-10T07:00:00.000Z'],
  ['America/New_York', '2024-03-10T07:30:00Z', 1, 'hours', '2024-03-10T07:00:00.000Z', '2024-03-10T08:00:00.000Z'],
  ['America/New_York', '2024-03-10T07:30:00Z', 4, 'hours', '2024-03-10T05:00:00.000Z', '2024-03-10T08:00:00.000Z'],
  ['America/New_York', '2024-11-03T05:30:00Z', 1, 'hours', '2024-11-03T05:00:00.000Z', '2024-11-03T07:00:00.000Z'],
  ['America/New_York', '2024-11-03T06:30:00Z', 1, 'hours', '2024-11-03T05:00:00.000Z', '2024-11-03T07:00:00.000Z'],
  ['America/New_York', '2024-11-03T12:00:00Z', 1, 'days', '2024-11-03T04:00:00.000Z', '2024-11-04T05:00:00.000Z'],
  ['America/New_York', '2024-03-15T12:00:00Z', 1, 'months', '2024-03-01T05:00:00.000Z', '2024-04-01T04:00:00.000Z'],
  ['America/New_York', '2024-03-13T12:00:00Z', 1, 'weeks', '2024-03-11T04:00:00.000Z', '2024-03-18T04:00:00.000Z'],
];

describe('#18.14 limitWindow whatever the process time zone', () => {
  const saved = process.env.TZ;
  afterEach(() => {
    if (saved === undefined) delete process.env.TZ;
    else process.env.TZ = saved;
  });

  it.each(['America/New_York', 'Europe/London', 'Australia/Lord_Howe', 'Asia/Kolkata', 'UTC'])(
    '#18.14 windows around daylight-saving changes in London and New York hold their instant with process.env.TZ=%s',
    (processZone) => {
      process.env.TZ = processZone;
      // Node applies a TZ set at run time to Date's local methods: the test really runs in that zone.
      const januaryOffset = {
        'America/New_York': 300,
        'Europe/London': 0,
        'Australia/Lord_Howe': -660,
        'Asia/Kolkata': -330,
        UTC: 0,
      }[processZone];
      expect(new Date('2024-01-15T12:00:00Z').getTimezoneOffset()).toBe(januaryOffset);
      for (const [zone, at, duration, units, start, end] of AROUND_CHANGES) {
        const now = Date.parse(at);
        expect(limitWindow(now, duration, units, zone), `${duration} ${units} in ${zone} at ${at}`).toEqual({
          start,
          end,
        });
      }
    },
  );
});
