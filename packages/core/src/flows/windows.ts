import { addDays, addHours, addMinutes, addMonths, addWeeks, differenceInCalendarDays, startOfDay, startOfHour, startOfMinute, startOfMonth, startOfWeek } from 'date-fns';
import { fromZonedTime, toZonedTime } from 'date-fns-tz';
import type { DurationUnit } from './types';

/** A window of a cap or ping limit: the counter key's time part and when the counter may go. */
export interface LimitWindow {
  readonly start: string;
  readonly end: string;
}

const EPOCH_MONDAY = new Date(1970, 0, 5);

/**
 * The calendar window of `duration` `units` that holds `now` in `timeZone`:
 * windows start at calendar boundaries (midnight, the hour, the first of the
 * month) in that zone, and longer durations are counted in blocks from there,
 * so every process computes the same window for the same instant.
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
const RECENT_LIMIT = 1000;
const recent = new Map<string, { readonly window: LimitWindow; readonly minute: number }>();

function computeWindow(now: number, duration: number, units: DurationUnit, timeZone: string): LimitWindow {
  const local = toZonedTime(now, timeZone);
  let start: Date;
  let end: Date;
  switch (units) {
    case 'minutes': {
      const day = startOfDay(local);
      const minutes = Math.floor((local.getHours() * 60 + local.getMinutes()) / duration) * duration;
      start = startOfMinute(addMinutes(day, minutes));
      end = addMinutes(start, duration);
      break;
    }
    case 'hours': {
      const hours = Math.floor(local.getHours() / duration) * duration;
      start = startOfHour(addHours(startOfDay(local), hours));
      end = addHours(start, duration);
      break;
    }
    case 'days': {
      const day = startOfDay(local);
      const offset = differenceInCalendarDays(day, new Date(1970, 0, 1)) % duration;
      start = addDays(day, -offset);
      end = addDays(start, duration);
      break;
    }
    case 'weeks': {
      const week = startOfWeek(local, { weekStartsOn: 1 });
      const offset = Math.floor(differenceInCalendarDays(week, EPOCH_MONDAY) / 7) % duration;
      start = addWeeks(week, -offset);
      end = addWeeks(start, duration);
      break;
    }
    case 'months': {
      const month = startOfMonth(local);
      const offset = (month.getFullYear() * 12 + month.getMonth()) % duration;
      start = addMonths(month, -offset);
      end = addMonths(start, duration);
      break;
    }
  }
  const from = fromZonedTime(start, timeZone).getTime();
  let to = fromZonedTime(end, timeZone).getTime();
  // A window ending at a local time the clocks skip (02:00 on a spring-forward night)
  // would end where it starts; it ends one real length later instead.
  if (to <= from) to = from + duration * (units === 'minutes' ? MINUTE : 60 * MINUTE);
  return { start: new Date(from).toISOString(), end: new Date(to).toISOString() };
}
