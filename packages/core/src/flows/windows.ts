import { wallClockInstant, wallTime } from '../time';
import type { DurationUnit } from '../domain/flows';

/** A window of a cap or ping limit: the counter key's time part and when the counter may go. */
export interface LimitWindow {
  readonly start: string;
  readonly end: string;
}

/**
 * The calendar window of `duration` `units` that holds `now` in `timeZone`:
 * windows start at calendar boundaries (midnight, the hour, the first of the
 * month) in that zone, and longer durations are counted in blocks from there,
 * so every process computes the same window for the same instant, whatever its `TZ`.
 */
export function limitWindow(now: number, duration: number, units: DurationUnit, timeZone: string): LimitWindow {
  // Every boundary is a whole local minute and zone offsets are whole minutes, so
  // the answer depends on the UTC minute only: the time-zone arithmetic runs once
  // a minute per kind of window, not once per lead.
  const minute = Math.floor(now / MINUTE);
  const key = `${duration}|${units}|${timeZone}`;
  const known = recent.get(key);
  if (known?.minute === minute) return known.window;
  const window = computeWindow(now, duration, units, timeZone);
  if (recent.size >= RECENT_LIMIT) recent.clear();
  recent.set(key, { window, minute });
  return window;
}

const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;
const WEEK = 7 * DAY;
/** Monday 1970-01-05, where blocks of weeks are counted from. */
const EPOCH_MONDAY = Date.UTC(1970, 0, 5);
const RECENT_LIMIT = 1000;
const recent = new Map<string, { readonly window: LimitWindow; readonly minute: number }>();

/** `n` mod `d`, never negative (blocks before 1970 count the same way). */
const mod = (n: number, d: number): number => ((n % d) + d) % d;

function computeWindow(now: number, duration: number, units: DurationUnit, timeZone: string): LimitWindow {
  // Boundaries are worked out on the zone's wall clock, held as UTC fields (no zone
  // touches that arithmetic), then placed back on the time line in the zone.
  const local = wallTime(now, timeZone);
  const today = Date.UTC(local.year, local.month - 1, local.day);
  let start: number;
  let end: number;
  switch (units) {
    case 'minutes': {
      start = today + Math.floor((local.hour * 60 + local.minute) / duration) * duration * MINUTE;
      end = start + duration * MINUTE;
      break;
    }
    case 'hours': {
      start = today + Math.floor(local.hour / duration) * duration * HOUR;
      end = start + duration * HOUR;
      break;
    }
    case 'days': {
      start = today - mod(Math.round(today / DAY), duration) * DAY;
      end = start + duration * DAY;
      break;
    }
    case 'weeks': {
      const week = today - (local.weekday - 1) * DAY;
      start = week - mod(Math.round((week - EPOCH_MONDAY) / WEEK), duration) * WEEK;
      end = start + duration * WEEK;
      break;
    }
    case 'months': {
      const first = mod(local.year * 12 + local.month - 1, duration);
      start = Date.UTC(local.year, local.month - 1 - first, 1);
      end = Date.UTC(local.year, local.month - 1 - first + duration, 1);
      break;
    }
  }
  const from = wallClockInstant(start, timeZone);
  let to = wallClockInstant(end, timeZone);
  // A window ending at a local time the clocks skip (02:00 on a spring-forward night)
  // would end where it starts; it ends one real length later instead.
  if (to <= from) to = from + duration * (units === 'minutes' ? MINUTE : HOUR);
  return { start: new Date(from).toISOString(), end: new Date(to).toISOString() };
}
