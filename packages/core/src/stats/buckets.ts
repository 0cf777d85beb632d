import { formatInZone, wallTime, zonedInstant, zoneOffset } from '../time';

/** The time intervals statistics can be grouped by. */
export const INTERVALS = ['minutely', 'hourly', 'daily', 'weekly', 'monthly', 'yearly'] as const;
export type StatsInterval = (typeof INTERVALS)[number];

const MINUTE = 60_000;
const HOUR = 3_600_000;

/**
 * Start of the interval holding `ms`, in `zone`, as epoch ms. Minutes and hours
 * are cut on the instant (so the repeated hour of a fall-back change stays two
 * hours); days and longer on the zone's wall clock (a DST day is 23 or 25
 * hours). Weeks start on Monday (ISO 8601). Nothing here reads the process `TZ`.
 */
export function bucketStart(ms: number, interval: StatsInterval, zone: string): number {
  if (interval === 'minutely' || interval === 'hourly') {
    const unit = interval === 'minutely' ? MINUTE : HOUR;
    const offset = zoneOffset(zone, ms);
    const start = Math.floor((ms + offset) / unit) * unit - offset;
    // The offset changed between that wall-clock start and `ms` (Lord Howe moves its clocks by half an hour): the
    // interval begins at the change. Else 02:45 after a 02:00 -> 02:30 change began at 02:00 in the new offset, an
    // instant the interval before (01:30 in the old) already holds.
    return zoneOffset(zone, start) === offset ? start : offsetChange(zone, start, ms);
  }
  const w = wallTime(ms, zone);
  if (interval === 'daily') return zonedInstant(zone, w.year, w.month, w.day);
  if (interval === 'weekly') return zonedInstant(zone, w.year, w.month, w.day - (w.weekday - 1));
  return interval === 'monthly' ? zonedInstant(zone, w.year, w.month, 1) : zonedInstant(zone, w.year, 1, 1);
}

/**
 * The first whole minute after `before` at which `zone` has the offset it has at `after`: its one offset change
 * between them (clocks change on whole minutes, and at most once within an hour).
 */
function offsetChange(zone: string, before: number, after: number): number {
  const target = zoneOffset(zone, after);
  let lo = Math.floor(before / MINUTE);
  let hi = Math.floor(after / MINUTE);
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (zoneOffset(zone, mid * MINUTE) === target) hi = mid;
    else lo = mid;
  }
  return hi * MINUTE;
}

/** ISO 8601 text of an instant with the zone's offset (`2026-03-08T00:00:00-05:00`). */
export function zonedIso(ms: number, zone: string): string {
  return formatInZone(ms, zone, "yyyy-MM-dd'T'HH:mm:ssXXX");
}

/** Today in `zone`: [midnight, next midnight). */
export function today(now: number, zone: string): { start: number; end: number } {
  const w = wallTime(now, zone);
  return { start: zonedInstant(zone, w.year, w.month, w.day), end: zonedInstant(zone, w.year, w.month, w.day + 1) };
}

/**
 * The start of the one interval in `zone` holding the whole UTC hour that starts at
 * `hour`, so an hourly rollup cell of that hour belongs to it; undefined when an
 * interval boundary falls inside the hour (a zone off a whole-hour offset, such as
 * Asia/Kolkata, at its midnight). Asked once per stored hour, never per hour of a range.
 */
export function hourBucket(hour: number, interval: StatsInterval, zone: string): number | undefined {
  const start = bucketStart(hour, interval, zone);
  return bucketStart(hour + HOUR - 1, interval, zone) === start ? start : undefined;
}

const DAY = 86_400_000;
/** A step from an interval's start that lands in the next interval: past the longest, short of two shortest. */
const NEXT: Record<Exclude<StatsInterval, 'minutely' | 'hourly'>, number> = {
  daily: 1.5 * DAY,
  weekly: 10.5 * DAY,
  monthly: 45 * DAY,
  yearly: 500 * DAY,
};

/**
 * The runs of whole UTC days inside [start, end) each of which lies in one interval of `interval` in `zone` (every
 * whole day without an interval; none for hourly or minutely ones): the days a field rollup store may answer from
 * cells per UTC day (`FieldRollupQuery.days`). A day is left out when an interval starts inside it (not at its UTC
 * midnight): America/New_York by weeks or months loses the days holding a boundary (04:00 or 05:00 UTC), by days every
 * day; UTC keeps every day. The intervals of the range are walked one by one (each checked to follow the last, so
 * none is skipped), so the cost follows the intervals, not the days; by days, only a zone on UTC at an end of the range
 * is walked (elsewhere no midnight is a UTC one, or too few to be worth it).
 */
export function wholeUtcDays(
  start: number,
  end: number,
  interval: StatsInterval | undefined,
  zone: string,
): { from: number; to: number }[] {
  if (interval === 'minutely' || interval === 'hourly') return [];
  const first = Math.ceil(start / DAY) * DAY;
  const last = Math.floor(end / DAY) * DAY;
  if (last <= first) return [];
  const cut = new Set<number>();
  if (interval) {
    if (interval === 'daily' && zoneOffset(zone, first) !== 0 && zoneOffset(zone, last) !== 0) return [];
    let at = bucketStart(first, interval, zone);
    while (at < last) {
      const next = bucketStart(at + NEXT[interval], interval, zone);
      // [at, next) must be one interval; were it not, no day is known to be whole.
      if (next <= at || bucketStart(next - 1, interval, zone) !== at) return [];
      if (next < last && next % DAY !== 0) cut.add(Math.floor(next / DAY) * DAY);
      at = next;
    }
  }
  const runs: { from: number; to: number }[] = [];
  for (let day = first; day < last; day += DAY) {
    if (cut.has(day)) continue;
    const prior = runs[runs.length - 1];
    if (prior && prior.to === day) prior.to = day + DAY;
    else runs.push({ from: day, to: day + DAY });
  }
  return runs;
}
