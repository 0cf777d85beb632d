import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { zoneOffset } from '../time';
import { bucketStart, INTERVALS, wholeUtcDays, zonedIso } from './buckets';

const DAY = 86_400_000;
const HOUR = 3_600_000;
const ZONES = [
  'UTC',
  'America/New_York',
  'Europe/London',
  'Africa/Abidjan',
  'Asia/Kolkata',
  'Australia/Lord_Howe',
  'Pacific/Chatham',
  'Pacific/Apia',
];

/** Day by day: each UTC day inside the range whose first and last instants share an interval. */
function byDay(start: number, end: number, interval: (typeof INTERVALS)[number] | undefined, zone: string): number[] {
  if (interval === 'minutely' || interval === 'hourly') return [];
  const days: number[] = [];
  for (let day = Math.ceil(start / DAY) * DAY; day + DAY <= end; day += DAY)
    if (!interval || bucketStart(day, interval, zone) === bucketStart(day + DAY - 1, interval, zone)) days.push(day);
  return days;
}

const expand = (runs: { from: number; to: number }[]): number[] =>
  runs.flatMap((run) => Array.from({ length: (run.to - run.from) / DAY }, (_, i) => run.from + i * DAY));

describe('#22.6 whole UTC days of a statistics range', () => {
  it('names only days inside one interval and the range, and every one of them but by days off UTC', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ZONES),
        fc.constantFrom(undefined, ...INTERVALS),
        // 2011-06-01 onwards, Apia's skipped day (2011-12-30) included; up to 400 days.
        fc.integer({ min: 0, max: 15 * 365 * 24 }),
        fc.integer({ min: 1, max: 400 * 24 }),
        (zone, interval, startHour, hours) => {
          const start = Date.parse('2011-06-01T00:00:00Z') + startHour * HOUR;
          const end = start + hours * HOUR;
          const runs = wholeUtcDays(start, end, interval, zone);
          const days = expand(runs);
          const expected = byDay(start, end, interval, zone);
          // Never a day that is not whole; runs in order, apart, inside the range.
          expect(days.filter((d) => !expected.includes(d))).toEqual([]);
          for (const [i, run] of runs.entries()) {
            expect(run.from % DAY).toBe(0);
            expect(run.from).toBeGreaterThanOrEqual(start);
            expect(run.to).toBeLessThanOrEqual(end);
            if (i > 0) expect(run.from).toBeGreaterThan(runs[i - 1]?.to ?? 0);
          }
          // Every whole day, but by days in a zone off UTC at both ends of the range (not walked).
          if (interval !== 'daily' || days.length > 0 || expected.length === 0) expect(days).toEqual(expected);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('gives a month in New York without an interval every whole UTC day; by weeks, all but the Mondays', () => {
    const start = Date.parse('2026-03-01T05:00:00Z');
    const end = Date.parse('2026-03-31T04:00:00Z');
    expect(wholeUtcDays(start, end, undefined, 'America/New_York')).toEqual([
      { from: Date.parse('2026-03-02T00:00:00Z'), to: Date.parse('2026-03-31T00:00:00Z') },
    ]);
    expect(wholeUtcDays(start, end, 'daily', 'America/New_York')).toEqual([]);
    expect(wholeUtcDays(start, end, 'hourly', 'UTC')).toEqual([]);
    const weekly = expand(wholeUtcDays(start, end, 'weekly', 'America/New_York'));
    // Mondays 2, 9, 16, 23 and 30 hold a week's start (04:00 UTC).
    expect(weekly).toHaveLength(29 - 5);
    expect(weekly.every((d) => new Date(d).getUTCDay() !== 1)).toBe(true);
  });
});

describe('minutely and hourly buckets', () => {
  it('hold their own start in every zone, minute by minute around every offset change of a year', () => {
    // The changes of 2026, found hour by hour; then each minute two hours either side of one.
    const year = Date.UTC(2026, 0, 1);
    for (const zone of ZONES)
      for (let hour = year; hour < year + 365 * DAY; hour += HOUR) {
        if (zoneOffset(zone, hour) === zoneOffset(zone, hour + HOUR)) continue;
        for (let at = hour - 2 * HOUR; at < hour + 3 * HOUR; at += 60_000)
          for (const interval of ['minutely', 'hourly'] as const) {
            const start = bucketStart(at, interval, zone);
            expect(start).toBeLessThanOrEqual(at);
            // A bucket holds its own start: one that began inside the bucket before it did not (the old Lord Howe hour).
            expect(bucketStart(start, interval, zone), `${zone} ${interval} ${new Date(at).toISOString()}`).toBe(start);
            expect(bucketStart(start - 1, interval, zone)).toBeLessThan(start);
          }
      }
  });

  it('start Lord Howe’s hour after its half-hour spring-forward at the change, 02:30+11:00', () => {
    // 2026-10-04 02:00 +10:30 (15:30 UTC) became 02:30 +11:00.
    const change = Date.UTC(2026, 9, 3, 15, 30);
    expect(bucketStart(change + 15 * 60_000, 'hourly', 'Australia/Lord_Howe')).toBe(change);
    expect(zonedIso(bucketStart(change + 15 * 60_000, 'hourly', 'Australia/Lord_Howe'), 'Australia/Lord_Howe')).toBe(
      '2026-10-04T02:30:00+11:00',
    );
    // The hour before ends at the change: 01:00 +10:30 (14:30 UTC).
    expect(bucketStart(change - 1, 'hourly', 'Australia/Lord_Howe')).toBe(Date.UTC(2026, 9, 3, 14, 30));
    // And at its fall-back (2026-04-05 02:00 +11:00, 15:00 UTC, became 01:30 +10:30), the repeated half hour is its own.
    const back = Date.UTC(2026, 3, 4, 15, 0);
    expect(bucketStart(back + 10 * 60_000, 'hourly', 'Australia/Lord_Howe')).toBe(back);
    expect(bucketStart(back + 40 * 60_000, 'hourly', 'Australia/Lord_Howe')).toBe(back + 30 * 60_000);
  });
});
