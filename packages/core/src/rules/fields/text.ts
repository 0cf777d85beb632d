import type { ParsedValue } from '../../domain/rules';
import { parsed, rawText } from './parsed';

/** Free text: trimmed; valid when not blank. */
export function parseString(raw: unknown): ParsedValue {
  const text = rawText(raw);
  return parsed('string', raw, text !== '', text);
}

const NUMBER_NOISE = /[$,\s]|USD/gi;

/** A number written as `1234`, `"1,234.50"` or `"$1,000"`; normal is the number or null. */
export function parseNumber(raw: unknown): ParsedValue {
  if (typeof raw === 'number') return parsed('number', raw, Number.isFinite(raw), Number.isFinite(raw) ? raw : null);
  const text = rawText(raw).replace(NUMBER_NOISE, '');
  const value = text === '' ? Number.NaN : Number(text);
  return Number.isFinite(value) ? parsed('number', raw, true, value) : parsed('number', raw, false, null);
}

const TRUE_WORDS = new Set(['y', 'yes', 'true', 't', '1']);
const FALSE_WORDS = new Set(['n', 'no', 'false', 'f', '0']);

/** Reads y/yes/true/t/1 and n/no/false/f/0 (any case) as a boolean; anything else is null. */
export function toBoolean(value: unknown): boolean | null {
  if (typeof value === 'boolean') return value;
  const text = rawText(value).toLowerCase();
  if (TRUE_WORDS.has(text)) return true;
  if (FALSE_WORDS.has(text)) return false;
  return null;
}

/** A yes/no answer; normal is true, false or null. */
export function parseBoolean(raw: unknown): ParsedValue {
  const value = toBoolean(raw);
  return parsed('boolean', raw, value !== null, value);
}

// USPS standard suffix and directional abbreviations, so "123 Main Street" and
// "123 main st." compare equal.
const STREET_WORDS: Record<string, string> = {
  street: 'ST',
  avenue: 'AVE',
  av: 'AVE',
  road: 'RD',
  drive: 'DR',
  boulevard: 'BLVD',
  lane: 'LN',
  court: 'CT',
  place: 'PL',
  terrace: 'TER',
  parkway: 'PKWY',
  highway: 'HWY',
  circle: 'CIR',
  square: 'SQ',
  trail: 'TRL',
  way: 'WAY',
  apartment: 'APT',
  suite: 'STE',
  north: 'N',
  south: 'S',
  east: 'E',
  west: 'W',
  northeast: 'NE',
  northwest: 'NW',
  southeast: 'SE',
  southwest: 'SW',
};

/** A street address line: normal is upper case with standard abbreviations and no punctuation. */
export function parseStreet(raw: unknown): ParsedValue {
  const text = rawText(raw);
  const words = text
    .replace(/[.,]/g, ' ')
    .split(/\s+/)
    .filter((word) => word !== '')
    .map((word) => STREET_WORDS[word.toLowerCase()] ?? word.toUpperCase());
  const number = /^\d+[A-Z]?$/.test(words[0] ?? '') ? (words[0] ?? null) : null;
  return parsed('street', raw, text !== '', words.join(' '), { number });
}

const GENDERS: Record<string, string> = {
  m: 'M',
  male: 'M',
  man: 'M',
  boy: 'M',
  f: 'F',
  female: 'F',
  woman: 'F',
  girl: 'F',
  x: 'X',
  'non-binary': 'X',
  nonbinary: 'X',
  nb: 'X',
  other: 'X',
};

/** Gender: normal is `M`, `F` or `X` when recognised. */
export function parseGender(raw: unknown): ParsedValue {
  const text = rawText(raw);
  const code = GENDERS[text.toLowerCase()];
  return code ? parsed('gender', raw, true, code) : parsed('gender', raw, false, text);
}

/**
 * A US Social Security number; valid per SSA's rules (no 000, 666 or 9xx area,
 * no 00 group, no 0000 serial). Normal is the nine digits.
 */
export function parseSsn(raw: unknown): ParsedValue {
  const text = rawText(raw);
  const digits = text.replace(/[\s-]/g, '');
  if (!/^\d{9}$/.test(digits))
    return parsed('ssn', raw, false, text, { area: null, group: null, serial: null, last4: null });
  const area = digits.slice(0, 3);
  const group = digits.slice(3, 5);
  const serial = digits.slice(5);
  const valid = area !== '000' && area !== '666' && !area.startsWith('9') && group !== '00' && serial !== '0000';
  return parsed('ssn', raw, valid, digits, { area, group, serial, last4: serial });
}
