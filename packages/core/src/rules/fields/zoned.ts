import { canonicalTimeZone } from '../../time';

/** Calendar fields of a moment as a wall clock in some zone shows them. */
export interface WallClock {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
  /** ISO weekday: 1 = Monday ... 7 = Sunday. */
  readonly weekday: number;
}

const WEEKDAYS: Record<string, number> = { Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6, Sun: 7 };
const formats = new Map<string, Intl.DateTimeFormat>();

// Intl formatters are costly to build and cheap to use: one per zone, kept. Kept by
// canonical name only (a few hundred exist), so made-up or re-cased names grow nothing.
function formatFor(timeZone: string): Intl.DateTimeFormat | null {
  const name = canonicalTimeZone(timeZone);
  if (name === undefined) return null;
  let format = formats.get(name);
  if (format === undefined) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: name, hourCycle: 'h23', weekday: 'short', year: 'numeric', month: 'numeric', day: 'numeric',
      hour: 'numeric', minute: 'numeric', second: 'numeric',
    });
    formats.set(name, format);
  }
  return format;
}

/** Whether `timeZone` is an IANA zone this runtime knows. */
export function isKnownTimeZone(timeZone: string): boolean {
  return canonicalTimeZone(timeZone) !== undefined;
}

/** The wall clock at `epoch` in `timeZone` (UTC when the zone is unknown). */
export function wallClock(epoch: number, timeZone: string): WallClock {
  const format = formatFor(timeZone) ?? (formatFor('UTC') as Intl.DateTimeFormat);
  const fields: Record<string, string> = {};
  for (const part of format.formatToParts(epoch)) fields[part.type] = part.value;
  return {
    year: Number(fields.year),
    month: Number(fields.month),
    day: Number(fields.day),
    hour: Number(fields.hour),
    minute: Number(fields.minute),
    second: Number(fields.second),
    weekday: WEEKDAYS[fields.weekday ?? ''] ?? 0,
  };
}

/** Whole years from one calendar date to another (an age). */
export function yearsBetween(from: WallClock, to: WallClock): number {
  const beforeBirthday = to.month < from.month || (to.month === from.month && to.day < from.day);
  return to.year - from.year - (beforeBirthday ? 1 : 0);
}
