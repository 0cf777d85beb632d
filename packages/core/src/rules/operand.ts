import type { Operator } from './operators/operator';
import { prepareOperand } from './operators/operator';
import { isTemplate, tryCompileTemplate } from './template';
import type { CompiledTemplate } from './template';
import type { EvalEnv, Rhv, Rule } from '../domain/rules';
import { toText } from './values';

/** How a compiled rule reads its lhv, operand and rhv text. */
export interface RuleParts {
  readonly read: (ctx: unknown, env: EvalEnv) => unknown;
  /** The prepared operand, fixed for a static rhv. */
  readonly operand: (ctx: unknown, env: EvalEnv) => { ok: true; value: unknown } | { ok: false };
  /** The operand prepared at compile time, when the rhv is static (or absent). */
  readonly fixed?: { readonly value: unknown };
  /** The rhv as a reason shows it. */
  readonly rhvText: (ctx: unknown, env: EvalEnv) => string;
}

/** A template that must compile: rule sets reaching here have been validated. */
export function mustCompile(source: string): CompiledTemplate {
  const compiled = tryCompileTemplate(source);
  if (compiled.isErr())
    throw new Error(`[leadroute] [rules] ${compiled.error}; validate rule sets before compiling them.`);
  return compiled.value;
}

function hasTemplate(rhv: Rhv | undefined): boolean {
  if (typeof rhv === 'string') return isTemplate(rhv);
  return Array.isArray(rhv) && rhv.some((item) => typeof item === 'string' && isTemplate(item));
}

/** Shows an rhv in a reason: lists as `TX, CA`, text as written. */
export function rhvDisplay(rhv: unknown): string {
  return Array.isArray(rhv) ? rhv.map(toText).join(', ') : toText(rhv);
}

/** Resolves a templated rhv: a string template, or an array whose elements may be templates. */
export function compileRhv(rhv: Rhv): (ctx: unknown, env: EvalEnv) => unknown {
  if (typeof rhv === 'string') return mustCompile(rhv);
  if (!Array.isArray(rhv)) return () => rhv;
  const items = rhv.map((item) => (typeof item === 'string' ? mustCompile(item) : () => item));
  // An element that is one whole-list template contributes its list's members.
  return (ctx, env) => items.flatMap((item) => item(ctx, env) as unknown);
}

/**
 * Compiles what a rule reads: the lhv (path or template) and, for a static rhv,
 * the operand prepared once; a templated rhv is resolved and prepared per evaluation.
 * @throws Error when a static rhv cannot be prepared (an unvalidated rule).
 */
export function compileParts(rule: Rule, operator: Operator, readPath: (ctx: unknown) => unknown): RuleParts {
  const read = isTemplate(rule.lhv) ? mustCompile(rule.lhv) : readPath;
  const rhv = rule.rhv;
  if (operator.arity === 'unary' || rhv === undefined) {
    const none = { ok: true as const, value: undefined };
    return { read, operand: () => none, fixed: none, rhvText: () => '' };
  }
  if (!hasTemplate(rhv)) {
    const prepared = prepareOperand(operator, rhv);
    if (prepared.isErr()) {
      throw new Error(`[leadroute] [rules] Rule ${rule.id}: operator "${operator.name}" ${prepared.error}.`);
    }
    const fixed = { ok: true as const, value: prepared.value };
    const text = rhvDisplay(rhv);
    return { read, operand: () => fixed, fixed, rhvText: () => text };
  }
  const resolve = compileRhv(rhv);
  const failed = { ok: false as const };
  return {
    read,
    operand: (ctx, env) => {
      const prepared = prepareOperand(operator, resolve(ctx, env));
      return prepared.isOk() ? { ok: true, value: prepared.value } : failed;
    },
    rhvText: (ctx, env) => rhvDisplay(resolve(ctx, env)),
  };
}

/** A rule's failure reason: `lead.state is not included in TX, CA`. */
export function ruleReason(rule: Rule, operator: Operator, rhvText: string): string {
  const phrase = operator.failText ?? `not ${operator.name}`;
  return operator.arity === 'unary' ? `${rule.lhv} ${phrase}` : `${rule.lhv} ${phrase} ${rhvText}`;
}
