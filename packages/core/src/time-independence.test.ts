import { afterEach, describe, expect, it } from 'vitest';
import { parseActivityQuery, validateActivity } from './alerts/activity';
import { localDayStart, weeksEarlier } from './alerts/windows';
import { formatInstant } from './exports/columns';
import { compileRules, type RuleElement } from './rules';
import { parseDate, parseDateText, parseTime } from './rules/fields/dates';
import { parseInstant } from './events/query';
import { parseOccurredAt } from './feedback/input';
import { bucketStart, today, zonedIso } from './stats/buckets';

// Process zones with daylight saving (one of them by half an hour), and UTC. Node applies a TZ
// set at run time to Date's local methods, so each case really runs in that zone.
const PROCESS_ZONES = ['America/New_York', 'Europe/London', 'Australia/Lord_Howe', 'UTC'];
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

describe('#18.14 date computations whatever the process time zone', () => {
  const saved = process.env.TZ;
  afterEach(() => {
    if (saved === undefined) delete process.env.TZ;
    else process.env.TZ = saved;
  });

  it.each(PROCESS_ZONES)(
    '#18.14 lead dates, times and recency windows are read the same with process.env.TZ=%s',
    (processZone) => {
      process.env.TZ = processZone;
      // 02:30 on 2026-03-08 does not exist in New York; in London it is 02:30 GMT.
      expect(iso(parseDateText('03/08/2026 02:30', 'Europe/London'))).toBe('2026-03-08T02:30:00.000Z');
      expect(iso(parseDateText('2026-03-08T02:30:00', 'Europe/London'))).toBe('2026-03-08T02:30:00.000Z');
      expect(iso(parseDateText('2026-03-29 01:30', 'UTC'))).toBe('2026-03-29T01:30:00.000Z');
      expect(iso(parseDateText('10/04/2026 02:15', 'UTC'))).toBe('2026-10-04T02:15:00.000Z');
      expect(iso(parseDateText('03/08/2026', 'America/New_York'))).toBe('2026-03-08T05:00:00.000Z');
      expect(parseDate('2026-03-08T02:30:00Z', { timeZone: 'Europe/London' })).toMatchObject({
        date: '2026-03-08',
        time: '02:30:00',
        hour: 2,
      });
      expect(parseTime('02:30').normal).toBe('02:30:00');
      expect(parseTime('2:15 am').normal).toBe('02:15:00');
      // "within the last 1 month" on the London wall clock: from 2026-03-08 02:30 GMT.
      const now = Date.parse('2026-04-08T01:30:00Z'); // 02:30 BST
      const within = compileRules([{ lhv: 'at', op: 'is within the last', rhv: '1 month' } as RuleElement], 'and');
      const env = { now, timeZone: 'Europe/London' };
      expect(within({ at: '2026-03-08T02:30:00Z' }, env).pass).toBe(true);
      expect(within({ at: '2026-03-08T02:29:00Z' }, env).pass).toBe(false);
    },
  );

  it.each(PROCESS_ZONES)(
    '#18.14 alert days, statistics buckets and export dates are the same with process.env.TZ=%s',
    (processZone) => {
      process.env.TZ = processZone;
      // A week before 02:30 GMT on 2026-03-15 in London is 02:30 GMT on 2026-03-08 (skipped in New York).
      expect(iso(weeksEarlier(Date.parse('2026-03-15T02:30:00Z'), 1, 'Europe/London'))).toBe(
        '2026-03-08T02:30:00.000Z',
      );
      expect(iso(localDayStart(Date.parse('2026-03-29T12:00:00Z'), 'Europe/London'))).toBe('2026-03-29T00:00:00.000Z');
      expect(iso(bucketStart(Date.parse('2026-03-08T02:30:00Z'), 'daily', 'Europe/London'))).toBe(
        '2026-03-08T00:00:00.000Z',
      );
      expect(iso(bucketStart(Date.parse('2026-03-11T12:00:00Z'), 'weekly', 'America/New_York'))).toBe(
        '2026-03-09T04:00:00.000Z',
      );
      expect(iso(bucketStart(Date.parse('2026-03-11T12:00:00Z'), 'monthly', 'America/New_York'))).toBe(
        '2026-03-01T05:00:00.000Z',
      );
      expect(zonedIso(Date.parse('2026-03-08T02:30:00Z'), 'Europe/London')).toBe('2026-03-08T02:30:00Z');
      const day = today(Date.parse('2026-11-01T12:00:00Z'), 'America/New_York');
      expect([iso(day.start), iso(day.end)]).toEqual(['2026-11-01T04:00:00.000Z', '2026-11-02T05:00:00.000Z']);
      expect(formatInstant(Date.parse('2026-03-08T02:30:00Z'), { format: 'legacy', timeZone: 'Europe/London' })).toBe(
        '2026-03-08 02:30:00',
      );
    },
  );

  it.each(PROCESS_ZONES)('#18.14 date parameters without an offset are UTC with process.env.TZ=%s', (processZone) => {
    process.env.TZ = processZone;
    // 02:30 on 2026-03-08 is skipped in New York: a parse in the process zone moves it.
    expect(iso(parseInstant('2026-03-08T02:30:00') ?? null)).toBe('2026-03-08T02:30:00.000Z');
    expect(iso(parseOccurredAt('2026-03-08T02:30:00') ?? null)).toBe('2026-03-08T02:30:00.000Z');
    expect(parseActivityQuery(new URLSearchParams({ before: '2026-03-08T02:30:00' }))._unsafeUnwrap().before).toEqual({
      at: '2026-03-08T02:30:00.000Z',
    });
    const entry = { kind: 'comment', actor: { type: 'user', id: 'u1', name: 'Ann' }, source: 'ui' };
    expect(validateActivity({ ...entry, at: '2026-03-08T02:30:00' })).toEqual([]);
    expect(validateActivity({ ...entry, at: 'March 8, 2026' }).map((i) => i.path)).toEqual(['/at']);
  });
});
