import { createHash } from 'node:crypto';
import { formatInZone, isTimeZone } from '../time';
import { parseDateText } from './fields/dates';
import { isParsedValue } from './fields/parsed';
import { compilePattern } from './regex';
import type { EvalEnv } from '../domain/rules';
import { toNumber, toText } from './values';

/** A template helper: evaluated arguments in, a value out. Never throws on bad data. */
export type TemplateHelper = (args: readonly unknown[], env: EvalEnv | undefined) => unknown;

function numberOf(value: unknown): number | null {
  if (isParsedValue(value)) {
    if (typeof value.avg === 'number') return value.avg;
    return toNumber(value.normal);
  }
  return toNumber(typeof value === 'string' ? value.replace(/[$,]/g, '') : value);
}

function epochOf(value: unknown, timeZone: string): number | null {
  if (isParsedValue(value)) return typeof value.epoch === 'number' ? value.epoch : parseDateText(value.raw, timeZone);
  return parseDateText(value, timeZone);
}

const NUMBER_FORMAT = /^[#,]*0*(?:\.(0+))?$/;

function format(args: readonly unknown[], env: EvalEnv | undefined): unknown {
  const [value, pattern = '', zone] = args;
  const spec = toText(pattern);
  const number = NUMBER_FORMAT.exec(spec);
  if (number && spec !== '') {
    const amount = numberOf(value);
    if (amount === null) return '';
    const digits = number[1]?.length ?? 0;
    return new Intl.NumberFormat('en-US', {
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
      useGrouping: spec.includes(','),
    }).format(amount);
  }
  const timeZone = zone === undefined ? (env?.timeZone ?? 'UTC') : toText(zone);
  const epoch = epochOf(value, timeZone);
  if (epoch === null) return '';
  // An unknown zone formats nothing (formatInZone would fall back to UTC).
  if (!isTimeZone(timeZone)) return '';
  try {
    return formatInZone(epoch, timeZone, spec || "yyyy-MM-dd'T'HH:mm:ssXXX");
  } catch {
    return '';
  }
}

const BINARY_MATH: Record<string, (a: number, b: number) => number> = {
  '+': (a, b) => a + b,
  '-': (a, b) => a - b,
  '*': (a, b) => a * b,
  '/': (a, b) => a / b,
  '%': (a, b) => a % b,
  '^': (a, b) => a ** b,
  min: Math.min,
  max: Math.max,
};

function math(args: readonly unknown[]): unknown {
  const [left, operator, right] = args;
  const a = numberOf(left);
  const op = toText(operator).toLowerCase();
  if (a === null) return null;
  if (op === 'round' || op === 'floor' || op === 'ceil') {
    const scale = 10 ** (numberOf(right) ?? 0);
    return Math[op](a * scale) / scale;
  }
  if (op === 'abs') return Math.abs(a);
  const b = numberOf(right);
  const fn = BINARY_MATH[op];
  if (!fn || b === null) return null;
  const result = fn(a, b);
  return Number.isFinite(result) ? result : null;
}

const HASHES = new Set(['md5', 'sha1', 'sha256', 'sha512']);

/**
 * The template helpers, called as `{{ name value arg... }}`:
 * - `lowercase v`, `uppercase v`
 * - `substring v start [end]`
 * - `replace v search replacement` (search `/re/flags` or literal text, all occurrences)
 * - `extract v pattern [group]` (first match's group, default 1, else the whole match)
 *
 * Patterns run on RE2 (linear time, see `compilePattern`); an invalid one leaves `replace`'s text as is and `extract`
 * empty.
 * - `format v pattern [timeZone]` (date-fns pattern for dates, `#,##0.00` style for numbers)
 * - `math a op [b]` (op `+ - * / % ^ min max`, or `round|floor|ceil [digits]`, `abs`)
 * - `hash v [algorithm]` (md5, sha1, sha256 (default), sha512; hex)
 */
export const TEMPLATE_HELPERS: Readonly<Record<string, TemplateHelper>> = {
  lowercase: ([value]) => toText(value).toLowerCase(),
  uppercase: ([value]) => toText(value).toUpperCase(),
  substring: ([value, start, end]) =>
    toText(value).substring(numberOf(start) ?? 0, end === undefined ? undefined : (numberOf(end) ?? undefined)),
  replace: ([value, search, replacement]) => {
    const text = toText(value);
    const pattern = toText(search);
    if (!pattern.startsWith('/')) return text.replaceAll(pattern, toText(replacement));
    const regex = compilePattern(pattern, 'g');
    return regex.isOk() ? regex.value.matcher(text).replaceAll(toText(replacement)) : text;
  },
  extract: ([value, pattern, group]) => {
    const regex = compilePattern(toText(pattern), 'g');
    if (regex.isErr()) return '';
    const match = regex.value.exec(toText(value));
    if (!match) return '';
    const index = group === undefined ? 1 : (numberOf(group) ?? 1);
    return match[index] ?? (group === undefined ? match[0] : '');
  },
  format,
  math,
  hash: ([value, algorithm]) => {
    const name = algorithm === undefined ? 'sha256' : toText(algorithm).toLowerCase();
    if (!HASHES.has(name)) return '';
    return createHash(name).update(toText(value)).digest('hex');
  },
};
