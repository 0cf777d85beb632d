import { isValid } from 'date-fns/isValid';
import { parse } from 'date-fns/parse';
import { parseIsoInZone, WallDate, wallClockInstant, wallTime } from '../../time';
import type { ParsedValue } from '../../domain/rules';
import type { ParseOptions } from './parsed';
import { parsed, rawText } from './parsed';
import { yearsBetween } from './zoned';

const US_DATE = /^\d{1,2}\/\d{1,2}\/\d{2,4}(?:\s|$)/;
const US_FORMATS = ['MM/dd/yyyy HH:mm:ss', 'MM/dd/yyyy HH:mm', 'MM/dd/yyyy h:mm a', 'MM/dd/yyyy', 'MM/dd/yy'];
const WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})$/i;
const HAS_TIME = /\d[T\s]+\d{1,2}:\d{2}|^\d{9,}$/;
// Epoch numbers below this are taken as seconds: 1e11 s is the year 5138, 1e11 ms is 1973.
const SECONDS_LIMIT = 1e11;

/**
 * Reads a moment from a Date, epoch number (ms, or seconds when small), ISO 8601
 * text (with or without offset) or US `MM/DD/YYYY [time]` text. Text without an
 * offset is wall time in `timeZone`. Returns epoch milliseconds or null.
 */
export function parseDateText(value: unknown, timeZone: string): number | null {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.getTime();
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return null;
    return Math.abs(value) < SECONDS_LIMIT ? value * 1000 : value;
  }
  const text = rawText(value);
  if (text === '') return null;
  if (/^\d{9,}$/.test(text)) return parseDateText(Number(text), timeZone);
  if (US_DATE.test(text)) {
    for (const format of US_FORMATS) {
      // Parsed into UTC fields (a plain Date would take the process zone's), then placed in the zone.
      const wall = parse(text, format, new WallDate(0));
      if (!isValid(wall)) continue;
      // An unknown zone gives NaN, which must read as "no date".
      const moment = wallClockInstant(wall.getTime(), timeZone);
      return Number.isNaN(moment) ? null : moment;
    }
    return null;
  }
  if (!/^\d{4}-?\d{2}/.test(text)) return null;
  // With an explicit offset the platform parser is exact and far cheaper.
  if (WITH_OFFSET.test(text)) {
    const moment = Date.parse(text);
    if (!Number.isNaN(moment)) return moment;
  }
  return parseIsoInZone(text, timeZone) ?? null;
}

const NO_DATE = {
  epoch: null,
  date: null,
  time: null,
  year: null,
  month: null,
  day: null,
  hour: null,
  minute: null,
  weekday: null,
  has_time: false,
};

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

function dateComponents(epoch: number, timeZone: string, hasTime: boolean): Record<string, unknown> {
  const { year, month, day, hour, minute, second, weekday } = wallTime(epoch, timeZone);
  const date = `${pad(year, 4)}-${pad(month)}-${pad(day)}`;
  const time = `${pad(hour)}:${pad(minute)}:${pad(second)}`;
  return { epoch, date, time, year, month, day, hour, minute, weekday, has_time: hasTime, time_zone: timeZone };
}

/**
 * A date or date-time. Normal is ISO 8601 UTC; components (date, time, year, month,
 * day, hour, minute, weekday 1=Monday) are calendar values in the time zone.
 */
export function parseDate(raw: unknown, options: ParseOptions = {}): ParsedValue {
  const timeZone = options.timeZone ?? 'UTC';
  const epoch = parseDateText(raw, timeZone);
  if (epoch === null) return parsed('date', raw, false, rawText(raw), NO_DATE);
  const hasTime = typeof raw !== 'string' || HAS_TIME.test(raw.trim());
  return parsed('date', raw, true, new Date(epoch).toISOString(), dateComponents(epoch, timeZone, hasTime));
}

/**
 * A date of birth: a calendar date (the zone only places text with a time), plus
 * `age` in whole years at `options.now` in the zone, or null without `now`.
 */
export function parseDob(raw: unknown, options: ParseOptions = {}): ParsedValue {
  const timeZone = options.timeZone ?? 'UTC';
  const epoch = parseDateText(raw, timeZone);
  if (epoch === null) return parsed('dob', raw, false, rawText(raw), { ...NO_DATE, age: null });
  const components = dateComponents(epoch, timeZone, false);
  const date = String(components.date);
  // Calendar dates on both sides, in the zone, so a birthday counts from its midnight there.
  let age: number | null = null;
  if (options.now !== undefined) age = yearsBetween(wallTime(epoch, timeZone), wallTime(options.now, timeZone));
  const valid = age === null ? epoch <= (options.now ?? Number.POSITIVE_INFINITY) : age >= 0 && age < 150;
  return parsed('dob', raw, valid, date, { ...components, age });
}

const CLOCK_FORMATS = ['HH:mm:ss', 'HH:mm'];
const MERIDIEM_FORMATS = ['h:mm:ss a', 'h:mm a', 'h:mma', 'h a', 'ha'];

/** A time of day: normal `HH:mm:ss`; components hour, minute, second, seconds since midnight. */
export function parseTime(raw: unknown): ParsedValue {
  const text = rawText(raw);
  // Only the formats the text could be in are tried: each parse attempt is costly.
  for (const format of /[ap]\.?m\.?$/i.test(text) ? MERIDIEM_FORMATS : CLOCK_FORMATS) {
    const wall = parse(text, format, new WallDate(0));
    if (!isValid(wall)) continue;
    const hour = wall.getHours();
    const minute = wall.getMinutes();
    const second = wall.getSeconds();
    const normal = [hour, minute, second].map((part) => String(part).padStart(2, '0')).join(':');
    return parsed('time', raw, true, normal, { hour, minute, second, seconds: hour * 3600 + minute * 60 + second });
  }
  return parsed('time', raw, false, text, { hour: null, minute: null, second: null, seconds: null });
}
