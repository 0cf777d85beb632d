import { BUILTIN_DOCS } from './docs';
import { doesNotInclude, includes, isIncludedIn, isNotIncludedIn } from './membership';
import { isEqualTo, isNotEqualTo } from './equality';
import type { Operator, OperatorRegistry } from './operator';
import {
  isAfter,
  isBefore,
  isBetween,
  isGreaterThan,
  isGreaterThanOrEqualTo,
  isLessThan,
  isLessThanOrEqualTo,
  isNotBetween,
} from './ordering';
import { doesNotMatchGlob, doesNotMatchPattern, matchesGlob, matchesPattern } from './pattern';
import { isNotWithinTheLast, isWithinTheLast } from './recency';
import {
  formatIsInvalid,
  formatIsValid,
  isBlankOp,
  isFalse,
  isNotBlank,
  isNotFalse,
  isNotObscene,
  isNotTrue,
  isObscene,
  isTrue,
} from './unary';

const BUILTINS = [
  isEqualTo,
  isNotEqualTo,
  isLessThan,
  isLessThanOrEqualTo,
  isGreaterThan,
  isGreaterThanOrEqualTo,
  isBetween,
  isNotBetween,
  isIncludedIn,
  isNotIncludedIn,
  includes,
  doesNotInclude,
  matchesPattern,
  doesNotMatchPattern,
  matchesGlob,
  doesNotMatchGlob,
  isBlankOp,
  isNotBlank,
  isTrue,
  isFalse,
  isNotTrue,
  isNotFalse,
  formatIsValid,
  formatIsInvalid,
  isObscene,
  isNotObscene,
  isBefore,
  isAfter,
  isWithinTheLast,
  isNotWithinTheLast,
] as const satisfies readonly Operator[];

/** A built-in operator, with its literal name and arity. */
export type BuiltinOperator = (typeof BUILTINS)[number];

/**
 * The name of every built-in operator, derived from the registry itself: adding or renaming an
 * operator changes it, so typed flows and the operator table cannot drift from what rules accept.
 */
export type BuiltinOperatorName = BuiltinOperator['name'];

/** Built-in operators that take no rhv (`is blank`, `format is valid`...). */
export type UnaryOperatorName = Extract<BuiltinOperator, { readonly arity: 'unary' }>['name'];

/** Built-in operators that need an rhv (`is equal to`, `is between`...). */
export type BinaryOperatorName = Extract<BuiltinOperator, { readonly arity: 'binary' }>['name'];

// Compile-time guards: an operator annotated `: Operator` would widen its name to string, and the
// unions above with it; one whose arity is not literal would be in neither arity's union.
type Holds<T extends true> = T;
export type BuiltinOperatorNamesAreLiteral = Holds<string extends BuiltinOperatorName ? false : true>;
export type BuiltinOperatorAritiesAreKnown = Holds<
  [BuiltinOperatorName] extends [UnaryOperatorName | BinaryOperatorName] ? true : false
>;

/** The built-in operators' names, in registry order. */
export const BUILTIN_OPERATOR_NAMES: readonly BuiltinOperatorName[] = BUILTINS.map((operator) => operator.name);

/** Every built-in operator, each with its entry of the operator table. */
export const BUILTIN_OPERATORS: readonly Operator[] = BUILTINS.map((operator) => {
  const doc = BUILTIN_DOCS[operator.name];
  return doc ? { ...operator, doc } : operator;
});

/** Canonical form of an operator name: lower case, single spaces. */
export function operatorKey(name: string): string {
  return name.trim().toLowerCase().replace(/\s+/g, ' ');
}

/**
 * The built-in operators plus an embedding service's own; an extra operator with a
 * built-in's name replaces it.
 * @example createOperatorRegistry([defineOperator({ name: 'is even', arity: 'unary', test: ... })])
 */
export function createOperatorRegistry(extra: readonly Operator[] = []): OperatorRegistry {
  const registry = new Map<string, Operator>();
  for (const operator of [...BUILTIN_OPERATORS, ...extra]) registry.set(operatorKey(operator.name), operator);
  return registry;
}

/** The registry of built-ins, shared by callers that add nothing. */
export const DEFAULT_OPERATORS: OperatorRegistry = createOperatorRegistry();
