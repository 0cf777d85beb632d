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
    return Math.floor((ms + offset) / unit) * unit - offset;
  }
  const w = wallTime(ms, zone);
  if (interval === 'daily') return zonedInstant(zone, w.year, w.month, w.day);
  if (interval === 'weekly') return zonedInstant(zone, w.year, w.month, w.day - (w.weekday - 1));
  return interval === 'monthly' ? zonedInstant(zone, w.year, w.month, 1) : zonedInstant(zone, w.year, 1, 1);
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
