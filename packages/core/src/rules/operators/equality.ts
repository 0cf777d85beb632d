import { ok } from 'neverthrow';
import { normalOf } from '../fields/parsed';
import { keyOf, listOf, splitList } from '../values';
import type { TypedKeys } from './keys';
import { coerces, leadKey, typedKeys } from './keys';
import { defineOperator, negate } from './operator';

interface EqualityOperand {
  readonly key: string;
  /** Sorted keys of the rhv read as a list, for unordered list comparison. */
  readonly list: readonly string[];
  readonly isList: boolean;
  readonly typed: TypedKeys;
}

function sortedKeys(values: readonly unknown[]): string[] {
  return values.map(keyOf).sort();
}

function sameList(left: readonly string[], right: readonly string[]): boolean {
  if (left.length !== right.length) return false;
  for (let i = 0; i < left.length; i++) if (left[i] !== right[i]) return false;
  return true;
}

/**
 * `is equal to`: case-insensitive text, numeric text equals numbers, lists compare
 * unordered (a list against text splits the text on commas), and a typed lead value
 * reads the rhv with its own parser (`Texas` equals a state of `TX`).
 */
export const isEqualTo = defineOperator({
  name: 'is equal to',
  arity: 'binary',
  failText: 'is not equal to',
  prepare: (rhv) => {
    const isList = listOf(rhv) !== null;
    return ok({ key: keyOf(normalOf(rhv)), list: sortedKeys(splitList(rhv)), isList, typed: typedKeys([rhv]) });
  },
  test: (value, operand: EqualityOperand, env) => {
    const list = listOf(value);
    if (list || operand.isList) return sameList(sortedKeys(list ?? splitList(value)), operand.list);
    if (coerces(value)) {
      const key = operand.typed(value.type, env)[0] ?? '';
      return leadKey(value, key.startsWith('@')) === key;
    }
    return keyOf(normalOf(value)) === operand.key;
  },
});

/** `is not equal to`: the exact complement of `is equal to`. */
export const isNotEqualTo = negate(isEqualTo, 'is not equal to', 'is equal to');
