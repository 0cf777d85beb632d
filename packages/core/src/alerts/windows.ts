import { startOfDay } from 'date-fns/startOfDay';
import { subWeeks } from 'date-fns/subWeeks';
import { formatInZone, WallDate, wallClockInstant, wallClockMs } from '../time';

/** One hour in milliseconds: the size of a rollup cell. */
export const HOUR_MS = 3_600_000;

/**
 * The share of an hourly cell inside [from, to). A cell holds events up to `now`
 * only, so the hour in progress counts as the part of it that has happened: a
 * 60-minute window at 10:20 is all of the 10:00 cell and two thirds of the 09:00 one.
 */
export function cellWeight(cellStart: number, now: number, from: number, to: number): number {
  const cellEnd = Math.min(cellStart + HOUR_MS, now);
  const length = cellEnd - cellStart;
  if (length <= 0) return 0;
  const overlap = Math.min(cellEnd, to) - Math.max(cellStart, from);
  return overlap <= 0 ? 0 : overlap / length;
}

// Zone arithmetic costs far more than the rest of an account's detection, and a pass
// asks the same few questions (this instant, in each of a handful of zones) for every
// account: answers are remembered. They are pure functions of their arguments.
const remembered = new Map<string, number | string>();
function remember<T extends number | string>(key: string, compute: () => T): T {
  const known = remembered.get(key);
  if (known !== undefined) return known as T;
  if (remembered.size >= 4096) remembered.clear();
  const value = compute();
  remembered.set(key, value);
  return value;
}

/** Midnight of `now`'s day in `timeZone`, as epoch milliseconds. */
export function localDayStart(now: number, timeZone: string): number {
  return remember(`midnight|${timeZone}|${now}`, () =>
    wallClockInstant(startOfDay(new WallDate(wallClockMs(now, timeZone))).getTime(), timeZone),
  );
}

/** `yyyy-MM-dd` of `now` in `timeZone`. */
export function localDay(now: number, timeZone: string): string {
  return remember(`day|${timeZone}|${now}`, () => formatInZone(now, timeZone, 'yyyy-MM-dd'));
}

/** The same wall-clock time `weeks` weeks earlier in `timeZone` (DST moves it by an hour in UTC). */
export function weeksEarlier(ms: number, weeks: number, timeZone: string): number {
  return remember(`weeks|${timeZone}|${ms}|${weeks}`, () =>
    wallClockInstant(subWeeks(new WallDate(wallClockMs(ms, timeZone)), weeks).getTime(), timeZone),
  );
}

/** Start of the UTC hour holding `ms`. */
export const floorHour = (ms: number): number => Math.floor(ms / HOUR_MS) * HOUR_MS;
