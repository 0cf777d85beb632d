import { isParsedValue } from '../fields/parsed';
import { parseValue } from '../fields/parse';
import type { EvalEnv, FieldType, ParsedValue } from '../../domain/rules';
import { keyOf } from '../values';

const DATE_TYPES = new Set<FieldType>(['date', 'dob']);

/** Whether a lead value's type lends its parser to the rhv (everything but free text). */
export function coerces(value: unknown): value is ParsedValue {
  return isParsedValue(value) && value.type !== 'string' && !Array.isArray(value.normal);
}

/** The key of a typed lead value; dates compare by calendar day, or by instant with `exact`. */
export function leadKey(value: ParsedValue, exact = false): string {
  if (DATE_TYPES.has(value.type) && value.valid) return exact ? `@${String(value.epoch)}` : String(value.date);
  return keyOf(value.normal);
}

/** rhv keys as a lead value's type reads them (see {@link typedKeys}). */
export type TypedKeys = (type: FieldType, env: EvalEnv) => readonly string[];

/**
 * Caches rhv keys computed with a lead value's own parser, so `lead.state is equal
 * to Texas` compares `TX` with `TX`. Invalid under that parser, an rhv keeps its
 * plain key. One cache per operand; dates cache per time zone.
 */
export function typedKeys(values: readonly unknown[]): TypedKeys {
  const cache = new Map<string, readonly string[]>();
  return (type, env) => {
    const isDate = DATE_TYPES.has(type);
    const cacheKey = isDate ? `${type}@${env.timeZone}` : type;
    let keys = cache.get(cacheKey);
    if (!keys) {
      keys = values.map((value) => {
        const typed = parseValue(type, value, { timeZone: env.timeZone });
        if (!typed.valid) return keyOf(value);
        return isDate && typed.has_time === true ? `@${String(typed.epoch)}` : leadKey(typed);
      });
      cache.set(cacheKey, keys);
    }
    return keys;
  };
}
