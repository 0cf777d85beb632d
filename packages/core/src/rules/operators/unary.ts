import { englishDataset, englishRecommendedTransformers, RegExpMatcher } from 'obscenity';
import { isParsedValue, normalOf } from '../fields/parsed';
import { toBoolean } from '../fields/text';
import { isBlank, toText } from '../values';
import { defineOperator, negate } from './operator';

/** `is blank`: missing, null, blank text or an empty list. */
export const isBlankOp = defineOperator({ name: 'is blank', arity: 'unary', failText: 'is not blank', test: isBlank });
export const isNotBlank = negate(isBlankOp, 'is not blank', 'is blank');

function truth(value: unknown): boolean | null {
  const normal = normalOf(value);
  return Array.isArray(normal) ? null : toBoolean(normal);
}

/** `is true` / `is false`: y/yes/true/t/1 and n/no/false/f/0, any case. Blanks are neither. */
export const isTrue = defineOperator({
  name: 'is true',
  arity: 'unary',
  failText: 'is not true',
  test: (v) => truth(v) === true,
});
export const isFalse = defineOperator({
  name: 'is false',
  arity: 'unary',
  failText: 'is not false',
  test: (v) => truth(v) === false,
});
export const isNotTrue = negate(isTrue, 'is not true', 'is true');
export const isNotFalse = negate(isFalse, 'is not false', 'is false');

/** `format is valid`: a typed value's `valid`; an untyped value is valid when not blank. */
export const formatIsValid = defineOperator({
  name: 'format is valid',
  arity: 'unary',
  failText: 'format is invalid',
  test: (value) => (isParsedValue(value) ? value.valid : !isBlank(value)),
});
export const formatIsInvalid = negate(formatIsValid, 'format is invalid', 'format is valid');

// Built on first use: the English dataset compiles a few hundred patterns.
let matcher: RegExpMatcher | undefined;

/** `is obscene`: English profanity, including obfuscated spellings (obscenity's recommended set). */
export const isObscene = defineOperator({
  name: 'is obscene',
  arity: 'unary',
  failText: 'is not obscene',
  test: (value) => {
    const text = toText(value);
    if (text === '') return false;
    matcher ??= new RegExpMatcher({ ...englishDataset.build(), ...englishRecommendedTransformers });
    return matcher.hasMatch(text);
  },
});
export const isNotObscene = negate(isObscene, 'is not obscene', 'is obscene');
