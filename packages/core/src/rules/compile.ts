import type { OperatorRegistry } from './operators/operator';
import { DEFAULT_OPERATORS, operatorKey } from './operators/registry';
import { compileParts, ruleReason } from './operand';
import { compilePath } from './path';
import type { EvalEnv, Rule, RuleContext, RuleElement, RuleOutcome, RuleSet } from '../domain/rules';
import { isRuleSet } from '../domain/rules';

/** A compiled rule set: context in, outcome out. */
export type CompiledRuleSet = (ctx: RuleContext, env?: EvalEnv) => RuleOutcome;

/** Options of {@link compileRuleSet}. */
export interface CompileOptions {
  /** Operators the rules use. @default the built-ins */
  readonly operators?: OperatorRegistry;
}

type Test = (ctx: unknown, env: EvalEnv) => boolean;
type Explain = (ctx: unknown, env: EvalEnv) => string;

/** A compiled element: a fast boolean test, and a reason built only after a failure. */
interface Node {
  readonly test: Test;
  readonly explain: Explain;
}

/** Used when the caller gives no environment: relative-date operators then match nothing. */
export const NO_ENV: EvalEnv = Object.freeze({ now: Number.NaN, timeZone: 'UTC' });
const PASS: RuleOutcome = Object.freeze({ pass: true });
const REASON_SEPARATOR = '; ';

function compileRule(rule: Rule, operators: OperatorRegistry): Node {
  const operator = operators.get(operatorKey(rule.op));
  if (!operator)
    throw new Error(
      `[leadroute] [rules] Unknown operator "${rule.op}" in rule ${rule.id}; validate rule sets before compiling them.`,
    );
  const { read, operand, fixed, rhvText } = compileParts(rule, operator, compilePath(rule.lhv));
  const check = operator.test;
  // A static operand is closed over directly: the hot path is one read and one test.
  const own: Test = fixed
    ? (ctx, env) => check(read(ctx, env), fixed.value, env)
    : (ctx, env) => {
        const prepared = operand(ctx, env);
        return prepared.ok && check(read(ctx, env), prepared.value, env);
      };
  const ownExplain: Explain = (ctx, env) => ruleReason(rule, operator, rhvText(ctx, env));
  if (!rule.rule_set) return { test: own, explain: ownExplain };
  const nested = compileSet(rule.rule_set, operators);
  const nestedTest = nested.test;
  return {
    test: (ctx, env) => own(ctx, env) && nestedTest(ctx, env),
    explain: (ctx, env) => (own(ctx, env) ? nested.explain(ctx, env) : ownExplain(ctx, env)),
  };
}

function compileElement(element: RuleElement, operators: OperatorRegistry): Node {
  return isRuleSet(element) ? compileSet(element, operators) : compileRule(element, operators);
}

function compileSet(set: RuleSet, operators: OperatorRegistry): Node {
  const nodes = set.rules.map((element) => compileElement(element, operators));
  const tests = nodes.map((node) => node.test);
  const count = tests.length;
  const test: Test =
    set.op === 'and'
      ? (ctx, env) => {
          for (let i = 0; i < count; i++) if (!(tests[i] as Test)(ctx, env)) return false;
          return true;
        }
      : (ctx, env) => {
          for (let i = 0; i < count; i++) if ((tests[i] as Test)(ctx, env)) return true;
          return false;
        };
  const reason = set.reason;
  if (reason !== undefined) return { test, explain: () => reason };
  // AND reports its first failure; OR failed everywhere, so it reports every reason.
  const explain: Explain =
    set.op === 'and'
      ? (ctx, env) => nodes.find((node) => !node.test(ctx, env))?.explain(ctx, env) ?? ''
      : (ctx, env) => nodes.map((node) => node.explain(ctx, env)).join(REASON_SEPARATOR);
  return { test, explain };
}

function toOutcome(node: Node): CompiledRuleSet {
  const { test, explain } = node;
  return (ctx, env = NO_ENV) => (test(ctx, env) ? PASS : { pass: false, reason: explain(ctx, env) });
}

// Compiled once per rule set object: flows keep their validated rule sets, so a
// flow version's rules compile on first use and never again.
const compiled = new WeakMap<OperatorRegistry, WeakMap<RuleSet, CompiledRuleSet>>();

/**
 * Compiles a validated rule set into a plain function, once: paths are pre-split,
 * static operands pre-normalized, patterns pre-compiled. A pass allocates nothing;
 * a failure's reason is built only then. AND stops at the first failure and reports
 * it; OR reports every reason; a set's own `reason` replaces its children's.
 * @throws Error for an unvalidated rule set (unknown operator, unusable rhv).
 */
export function compileRuleSet(ruleSet: RuleSet, options: CompileOptions = {}): CompiledRuleSet {
  const operators = options.operators ?? DEFAULT_OPERATORS;
  let byRuleSet = compiled.get(operators);
  if (!byRuleSet) {
    byRuleSet = new WeakMap();
    compiled.set(operators, byRuleSet);
  }
  let fn = byRuleSet.get(ruleSet);
  if (!fn) {
    fn = toOutcome(compileSet(ruleSet, operators));
    byRuleSet.set(ruleSet, fn);
  }
  return fn;
}

/**
 * Compiles a bare list of rules combined with `mode`. An empty list passes (it
 * filters nothing), in either mode.
 */
export function compileRules(
  rules: readonly RuleElement[],
  mode: 'and' | 'or',
  options: CompileOptions = {},
): CompiledRuleSet {
  if (rules.length === 0) return () => PASS;
  return toOutcome(compileSet({ id: 'inline', op: mode, rules }, options.operators ?? DEFAULT_OPERATORS));
}

/** The item that won a last-match evaluation, and where it stands in the list. */
export interface LastMatch<T> {
  readonly item: T;
  readonly index: number;
}

/**
 * Pricing and mapping evaluation: every item is a candidate, an item without a
 * rule set always matches, and the last matching item wins. Scanning from the end
 * and stopping at the first match gives the same winner with less work.
 */
export function evaluateLastMatch<T extends { readonly rule_set?: RuleSet }>(
  items: readonly T[],
  ctx: RuleContext,
  env: EvalEnv = NO_ENV,
  options: CompileOptions = {},
): LastMatch<T> | undefined {
  for (let index = items.length - 1; index >= 0; index--) {
    const item = items[index] as T;
    if (!item.rule_set || compileRuleSet(item.rule_set, options)(ctx, env).pass) return { item, index };
  }
  return undefined;
}
