import type { Result } from 'neverthrow';
import { ok } from 'neverthrow';
import type { EvalEnv } from '../../domain/rules';

/** What docs/operators.md says about an operator; the table is generated from the registry. */
export interface OperatorDoc {
  /** Lead values it reads, e.g. `text, number, list`. */
  readonly types: string;
  /** What the rhv must be; unary operators take none. */
  readonly rhv?: string;
  /** What passes, in a sentence or two. */
  readonly semantics: string;
  /** How letter case is treated. */
  readonly caseRule: string;
  /** Rules as written, e.g. `lead.state is equal to TX`. */
  readonly examples: readonly string[];
}

/**
 * An operator: how `lhv op rhv` is decided. `prepare` turns the rhv into whatever
 * `test` needs (a Set, a RegExp, bounds) once per rule when the rhv is static, or
 * once per evaluation when it is a template. `test` gets the resolved lhv (a
 * ParsedValue for typed lead fields, else a plain value) and must not throw.
 * @example
 * defineOperator({ name: 'is even', arity: 'unary', test: (v) => Number(normalOf(v)) % 2 === 0 })
 */
export interface Operator<Operand = unknown> {
  /** Lower-case name used in rules, e.g. `is equal to`. */
  readonly name: string;
  /** Binary operators require `rhv`; unary ones reject it. */
  readonly arity: 'unary' | 'binary';
  /** Phrase for failure reasons (`lead.state is not included in TX, CA`). @default `not <name>` */
  readonly failText?: string;
  /** Its entry in the operator table. @default none (built-ins take theirs from `BUILTIN_DOCS`) */
  readonly doc?: OperatorDoc;
  /** Checks and pre-normalizes the rhv; an Err message becomes a validation issue. */
  prepare?(rhv: unknown): Result<Operand, string>;
  test(value: unknown, operand: Operand, env: EvalEnv): boolean;
}

/** Operators by lower-case name. */
export type OperatorRegistry = ReadonlyMap<string, Operator>;

/** Whether an operator takes an rhv. */
export type OperatorArity = Operator['arity'];

/**
 * An operator whose name and arity the type system knows: what every built-in is, so that
 * the registry yields the union of their names (`BuiltinOperatorName`) and typed flows
 * refuse a misspelled operator at compile time.
 */
export type NamedOperator<Name extends string, Arity extends OperatorArity = OperatorArity> = Operator & {
  readonly name: Name;
  readonly arity: Arity;
};

/**
 * Identity helper that infers the operand type and erases it for the registry. Called
 * without type arguments it keeps the literal name and arity ({@link NamedOperator});
 * called with the operand type alone (`defineOperator<Bounds>({...})`) it returns a plain `Operator`.
 */
export function defineOperator<const Name extends string, const Arity extends OperatorArity, Operand = unknown>(
  operator: Operator<Operand> & { readonly name: Name; readonly arity: Arity },
): NamedOperator<Name, Arity>;
export function defineOperator<Operand>(operator: Operator<Operand>): Operator;
export function defineOperator<Operand>(operator: Operator<Operand>): Operator {
  return operator as Operator;
}

/** Prepares an rhv with the operator's own `prepare`, or passes it through. */
export function prepareOperand(operator: Operator, rhv: unknown): Result<unknown, string> {
  return operator.prepare ? operator.prepare(rhv) : ok(rhv);
}

/** The exact complement of an operator, sharing its operand preparation. */
export function negate<Operand, const Name extends string, const Arity extends OperatorArity>(
  base: Operator<Operand> & { readonly arity: Arity },
  name: Name,
  failText: string,
): NamedOperator<Name, Arity> {
  const test = base.test;
  const operator: Operator<Operand> = {
    name,
    arity: base.arity,
    failText,
    test: (value, operand, env) => !test(value, operand, env),
  };
  return (base.prepare ? { ...operator, prepare: base.prepare } : operator) as NamedOperator<Name, Arity>;
}
