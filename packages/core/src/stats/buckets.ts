import { addDays, startOfDay, startOfMonth, startOfWeek, startOfYear } from 'date-fns';
import { formatInTimeZone, fromZonedTime, getTimezoneOffset, toZonedTime } from 'date-fns-tz';

/** The time intervals statistics can be grouped by. */
export const INTERVALS = ['minutely', 'hourly', 'daily', 'weekly', 'monthly', 'yearly'] as const;
export type StatsInterval = (typeof INTERVALS)[number];

const MINUTE = 60_000;
const HOUR = 3_600_000;

/**
 * Start of the interval holding `ms`, in `zone`, as epoch ms. Minutes and hours
 * are cut on the instant (so the repeated hour of a fall-back change stays two
 * hours); days and longer on the zone's wall clock (a DST day is 23 or 25
 * hours). Weeks start on Monday (ISO 8601).
 */
export function bucketStart(ms: number, interval: StatsInterval, zone: string): number {
  if (interval === 'minutely' || interval === 'hourly') {
    const unit = interval === 'minutely' ? MINUTE : HOUR;
    const offset = getTimezoneOffset(zone, ms);
    return Math.floor((ms + offset) / unit) * unit - offset;
  }
  const wall = toZonedTime(ms, zone);
  const start =
    interval === 'daily' ? startOfDay(wall) : interval === 'weekly' ? startOfWeek(wall, { weekStartsOn: 1 }) : interval === 'monthly' ? startOfMonth(wall) : startOfYear(wall);
  return fromZonedTime(start, zone).getTime();
}

/** ISO 8601 text of an instant with the zone's offset (`2026-03-08T00:00:00-05:00`). */
export function zonedIso(ms: number, zone: string): string {
  return formatInTimeZone(ms, zone, "yyyy-MM-dd'T'HH:mm:ssXXX");
}

/** Today in `zone`: [midnight, next midnight). */
export function today(now: number, zone: string): { start: number; end: number } {
  const midnight = startOfDay(toZonedTime(now, zone));
  return { start: fromZonedTime(midnight, zone).getTime(), end: fromZonedTime(addDays(midnight, 1), zone).getTime() };
}

/**
 * Whether hourly rollups can answer [from, to) in `zone`: both ends on a UTC hour
 * and the zone's offset a whole number of hours throughout (sampled every six
 * hours, finer than any zone changes offset). Otherwise statistics read events.
 */
export function hourAligned(from: number, to: number, zone: string): boolean {
  if (from % HOUR !== 0 || to % HOUR !== 0) return false;
  const step = 6 * HOUR;
  for (let t = from; t < to + step; t += step) if (getTimezoneOffset(zone, Math.min(t, to)) % HOUR !== 0) return false;
  return true;
}
