import type { OperatorRegistry } from './operators/operator';
import { prepareOperand } from './operators/operator';
import { DEFAULT_OPERATORS, operatorKey } from './operators/registry';
import { compileRhv, mustCompile, rhvDisplay, ruleReason } from './operand';
import { resolvePath } from './path';
import { isTemplate } from './template';
import type { EvalEnv, Rule, RuleContext, RuleElement, RuleOutcome, RuleSet } from '../domain/rules';
import { isRuleSet } from '../domain/rules';

const NO_ENV: EvalEnv = { now: Number.NaN, timeZone: 'UTC' };

function ruleOutcome(rule: Rule, ctx: RuleContext, env: EvalEnv, operators: OperatorRegistry): RuleOutcome {
  const operator = operators.get(operatorKey(rule.op));
  if (!operator) throw new Error(`[leadroute] [rules] Unknown operator "${rule.op}".`);
  const value = isTemplate(rule.lhv) ? mustCompile(rule.lhv)(ctx, env) : resolvePath(ctx, rule.lhv);
  let passed: boolean;
  let rhvText = '';
  if (operator.arity === 'unary' || rule.rhv === undefined) {
    passed = operator.test(value, undefined, env);
  } else {
    const rhv = compileRhv(rule.rhv)(ctx, env);
    rhvText = rhvDisplay(rhv);
    const operand = prepareOperand(operator, rhv);
    passed = operand.isOk() && operator.test(value, operand.value, env);
  }
  if (!passed) return { pass: false, reason: ruleReason(rule, operator, rhvText) };
  return rule.rule_set ? setOutcome(rule.rule_set, ctx, env, operators) : { pass: true };
}

function elementOutcome(
  element: RuleElement,
  ctx: RuleContext,
  env: EvalEnv,
  operators: OperatorRegistry,
): RuleOutcome {
  return isRuleSet(element) ? setOutcome(element, ctx, env, operators) : ruleOutcome(element, ctx, env, operators);
}

function setOutcome(set: RuleSet, ctx: RuleContext, env: EvalEnv, operators: OperatorRegistry): RuleOutcome {
  const reasons: string[] = [];
  for (const element of set.rules) {
    const outcome = elementOutcome(element, ctx, env, operators);
    if (set.op === 'and' && !outcome.pass) return { pass: false, reason: set.reason ?? outcome.reason ?? '' };
    if (set.op === 'or' && outcome.pass) return { pass: true };
    if (!outcome.pass) reasons.push(outcome.reason ?? '');
  }
  return set.op === 'and' ? { pass: true } : { pass: false, reason: set.reason ?? reasons.join('; ') };
}

/**
 * The straightforward interpreter: walks the rule set on every call, resolving
 * paths and preparing operands each time. It defines what compiled evaluation must
 * answer (the property tests hold {@link compileRuleSet} to it); use the compiled
 * form in production.
 */
export function referenceEvaluate(
  ruleSet: RuleSet,
  ctx: RuleContext,
  env: EvalEnv = NO_ENV,
  options: { readonly operators?: OperatorRegistry } = {},
): RuleOutcome {
  return setOutcome(ruleSet, ctx, env, options.operators ?? DEFAULT_OPERATORS);
}
