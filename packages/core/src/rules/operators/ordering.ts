import type { Result } from 'neverthrow';
import { err, ok } from 'neverthrow';
import { parseDateText, parseTime } from '../fields/dates';
import { isParsedValue, normalOf } from '../fields/parsed';
import type { EvalEnv } from '../../domain/rules';
import { toNumber } from '../values';
import type { NamedOperator } from './operator';
import { defineOperator, negate } from './operator';

/** What an ordering rhv was read as; the lead value is read the same way. */
export type Bound =
  | { readonly kind: 'number'; readonly value: number }
  | { readonly kind: 'time'; readonly value: number }
  | { readonly kind: 'text'; readonly value: string }
  | { readonly kind: 'date'; readonly epoch: (env: EvalEnv) => number | null };

/** Numbers as people write them: `1,000`, `$25`, `-3.5`. */
export function looseNumber(value: unknown): number | null {
  return toNumber(typeof value === 'string' ? value.replace(/[$,\s]/g, '') : value);
}

// A date written without an offset depends on the evaluation's zone: parse once per zone.
function dateBound(text: unknown): Bound {
  let zone = '';
  let epoch: number | null = null;
  return {
    kind: 'date',
    epoch: (env) => {
      if (env.timeZone !== zone) {
        zone = env.timeZone;
        epoch = parseDateText(text, zone);
      }
      return epoch;
    },
  };
}

/** Reads an rhv as a bound: number, date, time of day or text, in that order of preference. */
export function toBound(rhv: unknown, prefer?: 'date'): Result<Bound, string> {
  if (isParsedValue(rhv)) {
    if (typeof rhv.epoch === 'number') {
      const epoch = rhv.epoch;
      return ok({ kind: 'date', epoch: () => epoch });
    }
    if (typeof rhv.avg === 'number') return ok({ kind: 'number', value: rhv.avg });
    if (typeof rhv.seconds === 'number') return ok({ kind: 'time', value: rhv.seconds });
    return toBound(rhv.normal, prefer);
  }
  if (typeof rhv !== 'string' && typeof rhv !== 'number') return err('needs a number, date or text value');
  if (prefer === 'date') {
    return parseDateText(rhv, 'UTC') === null ? err(`needs a date, got "${String(rhv)}"`) : ok(dateBound(rhv));
  }
  const number = looseNumber(rhv);
  if (number !== null) return ok({ kind: 'number', value: number });
  if (parseDateText(rhv, 'UTC') !== null) return ok(dateBound(rhv));
  const time = parseTime(rhv);
  if (time.valid) return ok({ kind: 'time', value: Number(time.seconds) });
  return ok({ kind: 'text', value: String(rhv).trim().toLowerCase() });
}

/** The lead value read as the bound's kind (ranges by their average), or null. */
function readAs(bound: Bound, value: unknown, env: EvalEnv): number | string | null {
  const parsed = isParsedValue(value) ? value : null;
  switch (bound.kind) {
    case 'number':
      if (parsed && typeof parsed.avg === 'number') return parsed.avg;
      // A date of birth against a plain number is an age: `lead.dob is less than 18`.
      if (parsed && parsed.type === 'dob' && typeof parsed.age === 'number') return parsed.age;
      if (parsed && typeof parsed.epoch === 'number') return parsed.epoch;
      if (parsed && typeof parsed.seconds === 'number') return parsed.seconds;
      return looseNumber(normalOf(value));
    case 'date':
      if (parsed) return typeof parsed.epoch === 'number' ? parsed.epoch : parseDateText(parsed.raw, env.timeZone);
      return parseDateText(value, env.timeZone);
    case 'time': {
      if (parsed && typeof parsed.seconds === 'number') return parsed.seconds;
      if (parsed && typeof parsed.hour === 'number' && typeof parsed.minute === 'number') {
        return parsed.hour * 3600 + parsed.minute * 60;
      }
      const time = parseTime(normalOf(value));
      return time.valid ? Number(time.seconds) : null;
    }
    case 'text': {
      const normal = normalOf(value);
      return typeof normal === 'string' || typeof normal === 'number' ? String(normal).trim().toLowerCase() : null;
    }
  }
}

function boundValue(bound: Bound, env: EvalEnv): number | string | null {
  return bound.kind === 'date' ? bound.epoch(env) : bound.value;
}

/** Compares the lead value with a bound: negative, zero, positive, or null when incomparable. */
export function compareTo(value: unknown, bound: Bound, env: EvalEnv): number | null {
  const left = readAs(bound, value, env);
  const right = boundValue(bound, env);
  if (left === null || right === null) return null;
  return left < right ? -1 : left > right ? 1 : 0;
}

function ordering<const Name extends string>(
  name: Name,
  failText: string,
  accept: (order: number) => boolean,
  prefer?: 'date',
): NamedOperator<Name, 'binary'> {
  return defineOperator({
    name,
    arity: 'binary',
    failText,
    prepare: (rhv) => toBound(rhv, prefer),
    test: (value, bound: Bound, env) => {
      const order = compareTo(value, bound, env);
      return order !== null && accept(order);
    },
  });
}

/**
 * Ordering operators: numbers, dates, times of day, a range's average, a date of
 * birth's age against a number, or text.
 */
export const isLessThan = ordering('is less than', 'is not less than', (order) => order < 0);
export const isLessThanOrEqualTo = ordering('is less than or equal to', 'is greater than', (order) => order <= 0);
export const isGreaterThan = ordering('is greater than', 'is not greater than', (order) => order > 0);
export const isGreaterThanOrEqualTo = ordering('is greater than or equal to', 'is less than', (order) => order >= 0);
/** Date operators: the rhv must be a date. */
export const isBefore = ordering('is before', 'is not before', (order) => order < 0, 'date');
export const isAfter = ordering('is after', 'is not after', (order) => order > 0, 'date');

const MIN_MAX = /^\s*(-?[$\d][\d,.]*)\s*(?:-|–|to)\s*(-?[$\d][\d,.]*)\s*$/i;

function toBounds(rhv: unknown): Result<readonly [Bound, Bound], string> {
  const list = normalOf(rhv);
  let pair: readonly unknown[] | null = null;
  if (Array.isArray(list)) pair = list.length === 2 ? list : null;
  else if (typeof list === 'string') {
    const match = MIN_MAX.exec(list);
    pair = match ? [match[1], match[2]] : null;
  }
  if (!pair) return err('needs "min-max" (like "18-65") or a list of two values');
  const low = toBound(pair[0]);
  const high = toBound(pair[1]);
  if (low.isErr()) return err(low.error);
  if (high.isErr()) return err(high.error);
  if (low.value.kind !== high.value.kind) return err('needs two values of the same kind');
  return ok([low.value, high.value]);
}

/** `is between`: inclusive, either bound first. */
export const isBetween = defineOperator({
  name: 'is between',
  arity: 'binary',
  failText: 'is not between',
  prepare: toBounds,
  test: (value, [low, high]: readonly [Bound, Bound], env) => {
    const a = compareTo(value, low, env);
    const b = compareTo(value, high, env);
    if (a === null || b === null) return false;
    return (a >= 0 && b <= 0) || (a <= 0 && b >= 0);
  },
});

/** `is not between`: the exact complement of `is between`. */
export const isNotBetween = negate(isBetween, 'is not between', 'is between');
