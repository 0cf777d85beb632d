import type { Result } from 'neverthrow';
import { err, ok } from 'neverthrow';
import { normalOf } from '../fields/parsed';
import type { Pattern } from '../regex';
import { compileGlob, compilePattern } from '../regex';
import { listOf, toText } from '../values';
import { defineOperator, negate } from './operator';

function preparePatterns(
  rhv: unknown,
  compile: (text: string) => Result<Pattern, string>,
  needs: string,
): Result<readonly Pattern[], string> {
  const sources = listOf(rhv) ?? [normalOf(rhv)];
  const patterns: Pattern[] = [];
  for (const source of sources) {
    if (typeof source !== 'string' || source === '') return err(needs);
    const pattern = compile(source);
    if (pattern.isErr()) return err(`has an invalid pattern ${source}: ${pattern.error}`);
    patterns.push(pattern.value);
  }
  return ok(patterns);
}

function matchesAny(text: string, patterns: readonly Pattern[]): boolean {
  for (const pattern of patterns) if (pattern.test(text)) return true;
  return false;
}

// A list lead value matches when any element does.
function testPatterns(value: unknown, patterns: readonly Pattern[]): boolean {
  const list = listOf(value);
  if (list) return list.some((item) => matchesAny(toText(item), patterns));
  return matchesAny(toText(value), patterns);
}

/**
 * `matches pattern`: a regular expression, as LeadConduit's operator of that name
 * takes it: `^AB-\d{3}$` as written, or `/…/flags` with flags i, m, s. It searches
 * the text (anchor with `^…$` for the whole of it), case-sensitively unless flagged.
 * Runs on RE2 (linear time); several patterns mean "any of".
 */
export const matchesPattern = defineOperator({
  name: 'matches pattern',
  arity: 'binary',
  failText: 'does not match pattern',
  prepare: (rhv) =>
    preparePatterns(rhv, (text) => compilePattern(text), 'needs a regular expression, like ^AB-\\d{3}$ or /ab/i'),
  test: testPatterns,
});

/** `does not match pattern`: the exact complement of `matches pattern`. */
export const doesNotMatchPattern = negate(matchesPattern, 'does not match pattern', 'matches pattern');

/**
 * `matches glob`: a wildcard pattern over the whole text, any case: `*` any run of
 * characters, `?` one character, everything else literal. A Leadroute operator: before
 * `matches pattern` took regular expressions, unslashed patterns were globs.
 */
export const matchesGlob = defineOperator({
  name: 'matches glob',
  arity: 'binary',
  failText: 'does not match glob',
  prepare: (rhv) => preparePatterns(rhv, compileGlob, 'needs a glob, like *@gmail.com'),
  test: testPatterns,
});

/** `does not match glob`: the exact complement of `matches glob`. */
export const doesNotMatchGlob = negate(matchesGlob, 'does not match glob', 'matches glob');
