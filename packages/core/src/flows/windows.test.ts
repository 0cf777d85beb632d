import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DurationUnit } from './types';
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
    expect(limitWindow(Date.parse('2026-03-08T07:00:00Z'), 1, 'hours', 'America/New_York')).toEqual({ start: '2026-03-08T07:00:00.000Z', end: '2026-03-08T08:00:00.000Z' });
    expect(limitWindow(Date.parse('2026-03-08T12:00:00Z'), 1, 'days', 'America/New_York')).toEqual({ start: '2026-03-08T05:00:00.000Z', end: '2026-03-09T04:00:00.000Z' });
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
          const inOrder = [...instants].sort((a, b) => a - b).map((now) => [now, limitWindow(now, duration, units, zone)] as const);
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
