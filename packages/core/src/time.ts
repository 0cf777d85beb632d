import { TZDate, tzOffset } from '@date-fns/tz';
import { format } from 'date-fns/format';
import { isValid } from 'date-fns/isValid';
import { parseISO } from 'date-fns/parseISO';

/*
 * Every calendar computation goes through this module, and none of it consults the
 * process time zone (`TZ`): instants are read on a zone's wall clock with `TZDate`'s
 * getters (which read UTC fields shifted by the zone's offset from Intl), and wall
 * times become instants through the zone's offsets (`tzOffset`, also Intl). Calendar
 * arithmetic on wall times is done on `Date.UTC` fields, which no zone affects.
 * `TZDate`'s setters and multi-field constructor are not used: they pass through the
 * process zone and, measured under `TZ=Australia/Lord_Howe` and `TZ=Europe/London`,
 * place some wall times differently depending on it.
 */

/** Most zone names remembered (valid or not): an attacker's stream of bogus names cannot grow memory. */
export const ZONE_CACHE_LIMIT = 1000;

/**
 * Zone name as given → its canonical IANA spelling, or null when the runtime does not know it. Least recently used
 * first.
 */
const zones = new Map<string, string | null>();

/**
 * Areas (the part before the first `/`) of IANA names: the runtime's canonical zones'
 * plus those of the tz database's backward-compatible links (`US/Eastern`, `Etc/GMT+5`).
 * A name in any other area is refused without asking Intl, which costs about 0.1 ms a
 * name: a flood of made-up names is refused cheaply and remembered nowhere.
 */
const LINK_AREAS = ['Etc', 'US', 'Canada', 'Brazil', 'Chile', 'Mexico'];
const AREAS = new Set(
  [...Intl.supportedValuesOf('timeZone').map((zone) => zone.split('/')[0] ?? ''), ...LINK_AREAS].map((area) =>
    area.toLowerCase(),
  ),
);
const ZONE_TEXT = /^[A-Za-z0-9_+\-:/]+$/;

/**
 * The canonical spelling of an IANA zone name (`america/new_york` → `America/New_York`),
 * or undefined when the runtime does not know it. Answers are kept in a bounded LRU
 * ({@link ZONE_CACHE_LIMIT}); only canonical names reach the Intl-backed caches below
 * them, and there are a few hundred of those.
 */
export function canonicalTimeZone(zone: unknown): string | undefined {
  if (typeof zone !== 'string' || zone.length === 0 || zone.length > 64 || !ZONE_TEXT.test(zone)) return undefined;
  const slash = zone.indexOf('/');
  if (slash >= 0 && !AREAS.has(zone.slice(0, slash).toLowerCase())) return undefined;
  let name = zones.get(zone);
  if (name !== undefined) {
    // Most recently used goes last, so the first key is the one to drop.
    zones.delete(zone);
  } else {
    try {
      name = new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
    } catch {
      name = null;
    }
    if (zones.size >= ZONE_CACHE_LIMIT) zones.delete(zones.keys().next().value as string);
  }
  zones.set(zone, name);
  return name ?? undefined;
}

/** How many zone names are remembered now (for tests of the bound). */
export function timeZoneCacheSize(): number {
  return zones.size;
}

/** Whether `zone` is an IANA time zone this runtime knows. */
export function isTimeZone(zone: unknown): zone is string {
  return canonicalTimeZone(zone) !== undefined;
}

/** The canonical zone, UTC for an unknown one (callers validate zones where they are given). */
const known = (zone: string): string => canonicalTimeZone(zone) ?? 'UTC';

/** Calendar fields of an instant as a zone's wall clock shows them. */
export interface WallTime {
  readonly year: number;
  /** 1 = January. */
  readonly month: number;
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
  readonly millisecond: number;
  /** ISO weekday: 1 = Monday ... 7 = Sunday. */
  readonly weekday: number;
}

/** The wall clock of `zone` at `ms` (UTC for an unknown zone). */
export function wallTime(ms: number, zone: string): WallTime {
  const d = new TZDate(ms, known(zone));
  return {
    year: d.getFullYear(),
    month: d.getMonth() + 1,
    day: d.getDate(),
    hour: d.getHours(),
    minute: d.getMinutes(),
    second: d.getSeconds(),
    millisecond: d.getMilliseconds(),
    weekday: d.getDay() === 0 ? 7 : d.getDay(),
  };
}

/** The zone's offset from UTC at `ms`, in milliseconds (whole seconds: old local mean times have seconds). */
export function zoneOffset(zone: string, ms: number): number {
  return Math.round(tzOffset(known(zone), new Date(ms)) * 60) * 1000;
}

const DAY = 86_400_000;

/**
 * The wall clock of `zone` at `ms`, encoded as the instant whose UTC fields are those
 * wall fields. Calendar arithmetic on it (`Date.UTC`, `getUTC*`) knows no zone.
 */
export function wallClockMs(ms: number, zone: string): number {
  return ms + zoneOffset(zone, ms);
}

/**
 * The instant at which `zone`'s wall clock shows `wall` (wall fields encoded as UTC, as
 * {@link wallClockMs} gives them). A wall time the clocks repeat (fall back) is its first
 * occurrence; one they skip (spring forward) is read with the offset before the change,
 * so 02:30 on a New York spring-forward night is 03:30 EDT. The same answer in every
 * process, whatever its `TZ`. NaN for an unknown zone or a time beyond the Date range.
 */
export function wallClockInstant(wall: number, zone: string): number {
  const name = canonicalTimeZone(zone);
  if (name === undefined || Number.isNaN(wall)) return Number.NaN;
  // Offsets change at most once within a day either side: the instant is the wall time
  // less the offset before or the offset after, whichever holds at the instant it gives.
  const before = zoneOffset(name, wall - DAY);
  const after = zoneOffset(name, wall + DAY);
  // No change within a day either side (nearly always): one answer.
  if (before === after) return wall - before;
  const larger = Math.max(before, after);
  const smaller = Math.min(before, after);
  if (zoneOffset(name, wall - larger) === larger) return wall - larger;
  if (zoneOffset(name, wall - smaller) === smaller) return wall - smaller;
  return wall - before;
}

/**
 * The instant at which `zone`'s wall clock shows the given fields (month 1-12; fields
 * out of range carry over as in `Date.UTC`: day 0 is the month's eve, month 13 next
 * January). Repeated and skipped wall times as in {@link wallClockInstant}.
 */
export function zonedInstant(
  zone: string,
  year: number,
  month: number,
  day = 1,
  hour = 0,
  minute = 0,
  second = 0,
  millisecond = 0,
): number {
  let wall = Date.UTC(year, month - 1, day, hour, minute, second, millisecond);
  // Date.UTC reads years 0-99 as 1900-1999.
  if (year >= 0 && year < 100) wall = new Date(wall).setUTCFullYear(new Date(wall).getUTCFullYear() - 1900);
  return wallClockInstant(wall, zone);
}

/**
 * A Date whose local fields are its UTC fields (as `@date-fns/utc`'s `UTCDate`), for
 * calendar arithmetic on a wall time held as UTC fields ({@link wallClockMs}): date-fns
 * functions given one (`startOfDay`, `subMonths`, `parse` with it as the reference date)
 * read and write UTC fields only, so no zone, the process's included, moves them.
 */
export class WallDate extends Date {
  override getTimezoneOffset(): number {
    return 0;
  }

  [Symbol.for('constructDateFrom')](value: Date | number | string): WallDate {
    return new WallDate(+new Date(value));
  }
}
for (const name of Object.getOwnPropertyNames(Date.prototype)) {
  const utc = name.replace(/^(get|set)/, '$1UTC');
  if (utc === name || name.includes('UTC') || !(utc in Date.prototype)) continue;
  Object.defineProperty(WallDate.prototype, name, {
    value: Object.getOwnPropertyDescriptor(Date.prototype, utc)?.value,
    writable: true,
    configurable: true,
  });
}

/**
 * ISO 8601 text (any form `parseISO` reads) as an instant: text with an offset says
 * where it stands; text without one (a date, or a date-time) is wall time in `zone`
 * (`2026-03-08` is that day's midnight there). Undefined when it is not such a date or
 * the zone is unknown.
 */
export function parseIsoInZone(text: string, zone: string): number | undefined {
  const dateOnly = !/[T ]/i.test(text);
  const offset = dateOnly ? null : ISO_OFFSET.exec(text);
  if (offset) {
    // parseISO takes any offset hour (+25:00); no zone is a day or more from UTC.
    if (Number(offset[1] ?? 0) > 23) return undefined;
    const instant = parseISO(text);
    return isValid(instant) ? instant.getTime() : undefined;
  }
  // Read as UTC fields, then placed on the zone's wall clock: a plain parse of text
  // without an offset uses the process zone.
  const wall = parseISO(dateOnly ? `${text}T00:00:00Z` : `${text}Z`);
  if (!isValid(wall)) return undefined;
  const instant = wallClockInstant(wall.getTime(), zone);
  return Number.isNaN(instant) ? undefined : instant;
}

/** An ISO 8601 offset ending a date-time: `Z`, `±hh`, `±hhmm`, `±hh:mm`. */
const ISO_OFFSET = /(?:Z|[+-](\d{2})(?::?\d{2})?)$/i;

/** `date-fns` `format` of an instant on `zone`'s wall clock (`XXX` is the zone's offset there). */
export function formatInZone(ms: number, zone: string, pattern: string): string {
  return format(new TZDate(ms, known(zone)), pattern);
}

let lastMs = Number.NaN;
let lastIso = '';

/** ISO 8601 UTC text of a clock reading. */
export function isoTime(ms: number): string {
  // One request formats the same clock reading several times, and formatting is slow.
  if (ms !== lastMs) {
    lastIso = new Date(ms).toISOString();
    lastMs = ms;
  }
  return lastIso;
}
