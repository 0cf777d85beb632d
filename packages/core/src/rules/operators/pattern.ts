import { err, ok } from 'neverthrow';
import { normalOf } from '../fields/parsed';
import { toPattern } from '../regex';
import { listOf, toText } from '../values';
import type { Operator } from './operator';
import { defineOperator, negate } from './operator';

/**
 * `matches pattern`: `/regex/flags` (its own flags) or a glob (`*`, `?`; whole
 * text, case-insensitive), compiled once. Several patterns mean "any of"; a list
 * lead value matches when any element does.
 */
export const matchesPattern: Operator = defineOperator<readonly RegExp[]>({
  name: 'matches pattern',
  arity: 'binary',
  failText: 'does not match pattern',
  prepare: (rhv) => {
    const sources = listOf(rhv) ?? [normalOf(rhv)];
    const patterns: RegExp[] = [];
    for (const source of sources) {
      if (typeof source !== 'string' || source === '') return err('needs a pattern: /regex/flags or a glob like "*@gmail.com"');
      const pattern = toPattern(source);
      if (pattern.isErr()) return err(`has an invalid pattern ${source}: ${pattern.error}`);
      patterns.push(pattern.value);
    }
    return ok(patterns);
  },
  test: (value, patterns) => {
    const list = listOf(value);
    if (list) return list.some((item) => matchesAny(toText(item), patterns));
    return matchesAny(toText(value), patterns);
  },
});

function matchesAny(text: string, patterns: readonly RegExp[]): boolean {
  for (const pattern of patterns) if (pattern.test(text)) return true;
  return false;
}

/** `does not match pattern`: the exact complement of `matches pattern`. */
export const doesNotMatchPattern: Operator = negate(matchesPattern, 'does not match pattern', 'matches pattern');
