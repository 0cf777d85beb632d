import { err, ok } from 'neverthrow';
import { isParsedValue, normalOf } from '../fields/parsed';
import type { EvalEnv } from '../../domain/rules';
import { isBlank, keyOf, listOf, splitList, toText } from '../values';
import type { TypedKeys } from './keys';
import { leadKey, typedKeys } from './keys';
import { defineOperator, negate } from './operator';

interface SetOperand {
  readonly keys: ReadonlySet<string>;
  readonly typed: TypedKeys;
  readonly typedSets: Map<readonly string[], ReadonlySet<string>>;
  /** The set last used, by type and zone: a flow's leads keep asking for the same one. */
  readonly last: { type: string; zone: string; set: ReadonlySet<string> };
}

function typedSet(operand: SetOperand, type: Parameters<TypedKeys>[0], env: EvalEnv): ReadonlySet<string> {
  const last = operand.last;
  if (last.type === type && last.zone === env.timeZone) return last.set;
  const keys = operand.typed(type, env);
  let set = operand.typedSets.get(keys);
  if (!set) {
    set = new Set(keys);
    operand.typedSets.set(keys, set);
  }
  last.type = type;
  last.zone = env.timeZone;
  last.set = set;
  return set;
}

/**
 * `is included in`: the lead value is one of the rhv's values (an array, or
 * comma-separated text). A list lead value must be non-empty and wholly included.
 * Typed lead values read the rhv with their own parser (`Texas, California`).
 */
export const isIncludedIn = defineOperator({
  name: 'is included in',
  arity: 'binary',
  failText: 'is not included in',
  prepare: (rhv) => {
    const values = splitList(rhv);
    if (values.length === 0) return err('needs at least one value (an array or comma-separated text)');
    const keys = new Set(values.map(keyOf));
    return ok({ keys, typed: typedKeys(values), typedSets: new Map(), last: { type: '', zone: '', set: keys } });
  },
  test: (value, operand: SetOperand, env) => {
    if (isParsedValue(value)) {
      const normal = value.normal;
      if (Array.isArray(normal)) return normal.length > 0 && normal.every((item) => operand.keys.has(keyOf(item)));
      if (isBlank(value)) return false;
      if (value.type !== 'string') return typedSet(operand, value.type, env).has(leadKey(value));
      return operand.keys.has(keyOf(normal));
    }
    if (Array.isArray(value)) return value.length > 0 && value.every((item) => operand.keys.has(keyOf(item)));
    return !isBlank(value) && operand.keys.has(keyOf(value));
  },
});

/** `is not included in`: the exact complement of `is included in`. */
export const isNotIncludedIn = negate(isIncludedIn, 'is not included in', 'is included in');

interface IncludesOperand {
  readonly keys: readonly string[];
  readonly texts: readonly string[];
}

/**
 * `includes`: a list lead value has one of the rhv values as a member; a text lead
 * value contains one of them, case-insensitively. An array rhv means "any of".
 */
export const includes = defineOperator({
  name: 'includes',
  arity: 'binary',
  failText: 'does not include',
  prepare: (rhv) => {
    const list = listOf(rhv);
    const values = list ?? [normalOf(rhv)];
    const texts = values.map((item) => toText(item).toLowerCase()).filter((text) => text !== '');
    if (texts.length === 0) return err('needs a value to look for');
    return ok({ keys: values.map(keyOf), texts });
  },
  test: (value, operand: IncludesOperand) => {
    const list = listOf(value);
    if (list) return list.some((item) => operand.keys.includes(keyOf(item)));
    const text = toText(value).toLowerCase();
    if (text === '') return false;
    for (const needle of operand.texts) if (text.includes(needle)) return true;
    return false;
  },
});

/** `does not include`: the exact complement of `includes`. */
export const doesNotInclude = negate(includes, 'does not include', 'includes');
