import type { Result } from 'neverthrow';
import { err, ok } from 'neverthrow';
import type { Issue } from '../errors';
import { isRuleId, newRuleId } from '../ids';
import type { OperatorRegistry } from './operators/operator';
import { prepareOperand } from './operators/operator';
import { DEFAULT_OPERATORS, operatorKey } from './operators/registry';
import { isTemplate, tryCompileTemplate } from './template';
import type { Rhv, Rule, RuleElement, RuleSet, RuleSetOp } from '../domain/rules';

/** Options of {@link validateRuleSet} and {@link validateRules}. */
export interface ValidateOptions {
  /** Path prefix for issues, e.g. `/steps/2/rule_set`. @default '' */
  readonly path?: string;
  /** Operators rules may use. @default the built-ins */
  readonly operators?: OperatorRegistry;
}

// Deep enough for any real configuration; guards the stack against generated input.
const MAX_DEPTH = 200;

interface Walk {
  readonly issues: Issue[];
  readonly operators: OperatorRegistry;
  readonly seen: Set<object>;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return typeof value === 'string' ? `"${value}"` : `a ${typeof value}`;
}

function checkId(input: Record<string, unknown>, path: string, walk: Walk): string {
  if (input.id === undefined) return newRuleId();
  if (isRuleId(input.id)) return input.id;
  walk.issues.push({ path: `${path}/id`, message: `id must be 6 letters or digits, got ${describe(input.id)}.` });
  return '';
}

function checkTemplates(value: unknown, path: string, walk: Walk): boolean {
  const texts = Array.isArray(value) ? value : [value];
  let fine = true;
  texts.forEach((text: unknown, index) => {
    if (typeof text !== 'string' || !isTemplate(text)) return;
    const compiled = tryCompileTemplate(text);
    if (compiled.isErr()) {
      walk.issues.push({ path: Array.isArray(value) ? `${path}/${index}` : path, message: `${compiled.error}.` });
      fine = false;
    }
  });
  return fine;
}

function isRhv(value: unknown): value is Rhv {
  if (typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  return Array.isArray(value) && value.every((item) => ['string', 'number', 'boolean'].includes(typeof item));
}

function checkRule(input: Record<string, unknown>, path: string, depth: number, walk: Walk): Rule | undefined {
  const before = walk.issues.length;
  const id = checkId(input, path, walk);
  const { lhv, op, rhv } = input;
  if (typeof lhv !== 'string' || lhv.trim() === '') {
    walk.issues.push({
      path: `${path}/lhv`,
      message: `lhv must be a non-empty string (a path like lead.state or a template), got ${describe(lhv)}.`,
    });
  } else checkTemplates(lhv, `${path}/lhv`, walk);
  const operator = typeof op === 'string' ? walk.operators.get(operatorKey(op)) : undefined;
  if (typeof op !== 'string')
    walk.issues.push({ path: `${path}/op`, message: `op must be an operator name, got ${describe(op)}.` });
  else if (!operator) walk.issues.push({ path: `${path}/op`, message: `Unknown operator "${op}".` });
  const hasRhv = rhv !== undefined && rhv !== null;
  if (operator?.arity === 'binary' && !hasRhv) {
    walk.issues.push({ path: `${path}/rhv`, message: `Operator "${operator.name}" needs an rhv.` });
  } else if (operator?.arity === 'unary' && hasRhv) {
    walk.issues.push({
      path: `${path}/rhv`,
      message: `Operator "${operator.name}" takes no rhv, got ${describe(rhv)}.`,
    });
  } else if (hasRhv && !isRhv(rhv)) {
    walk.issues.push({
      path: `${path}/rhv`,
      message: `rhv must be a string, number, boolean or array of those, got ${describe(rhv)}.`,
    });
  } else if (operator && hasRhv && checkTemplates(rhv, `${path}/rhv`, walk)) {
    // A static rhv is checked now (bad pattern, range or duration); a templated one at evaluation.
    const templated = Array.isArray(rhv)
      ? rhv.some((item) => typeof item === 'string' && isTemplate(item))
      : typeof rhv === 'string' && isTemplate(rhv);
    const prepared = templated ? undefined : prepareOperand(operator, rhv);
    if (prepared?.isErr())
      walk.issues.push({ path: `${path}/rhv`, message: `Operator "${operator.name}" ${prepared.error}.` });
  }
  let ruleSet: RuleSet | undefined;
  if (input.rule_set !== undefined) ruleSet = checkSet(input.rule_set, `${path}/rule_set`, depth + 1, walk);
  if (walk.issues.length > before || !operator || typeof lhv !== 'string') return undefined;
  const rule: Rule = { id, lhv: lhv.trim(), op: operator.name };
  return {
    ...rule,
    ...(hasRhv ? { rhv: rhv as Rhv } : {}),
    ...(ruleSet ? { rule_set: ruleSet } : {}),
  };
}

function checkElement(input: unknown, path: string, depth: number, walk: Walk): RuleElement | undefined {
  if (!isObject(input)) {
    walk.issues.push({
      path,
      message: `Each element must be a rule {lhv, op, rhv} or a rule set {op, rules}, got ${describe(input)}.`,
    });
    return undefined;
  }
  if ('rules' in input && 'lhv' in input) {
    walk.issues.push({ path, message: 'An element cannot be both a rule (lhv) and a rule set (rules).' });
    return undefined;
  }
  if ('rules' in input) return checkSet(input, path, depth, walk);
  if ('lhv' in input || 'op' in input) return checkRule(input, path, depth, walk);
  walk.issues.push({ path, message: 'Each element must be a rule {lhv, op, rhv} or a rule set {op, rules}.' });
  return undefined;
}

function checkList(input: unknown, path: string, depth: number, walk: Walk, allowEmpty: boolean): RuleElement[] {
  if (!Array.isArray(input)) {
    walk.issues.push({ path, message: `rules must be an array of rules and rule sets, got ${describe(input)}.` });
    return [];
  }
  if (input.length === 0 && !allowEmpty) walk.issues.push({ path, message: 'rules must not be empty.' });
  const elements: RuleElement[] = [];
  input.forEach((item: unknown, index) => {
    const element = checkElement(item, `${path}/${index}`, depth, walk);
    if (element) elements.push(element);
  });
  return elements;
}

function checkSet(input: unknown, path: string, depth: number, walk: Walk): RuleSet | undefined {
  if (!isObject(input)) {
    walk.issues.push({ path, message: `A rule set must be an object {op, rules}, got ${describe(input)}.` });
    return undefined;
  }
  if (depth > MAX_DEPTH) {
    walk.issues.push({ path, message: `Rule sets are nested more than ${MAX_DEPTH} deep.` });
    return undefined;
  }
  if (walk.seen.has(input)) {
    walk.issues.push({ path, message: 'A rule set contains itself.' });
    return undefined;
  }
  walk.seen.add(input);
  const before = walk.issues.length;
  const id = checkId(input, path, walk);
  const op = typeof input.op === 'string' ? input.op.trim().toLowerCase() : input.op;
  if (op !== 'and' && op !== 'or') {
    walk.issues.push({
      path: `${path}/op`,
      message: `A rule set's op must be "and" or "or", got ${describe(input.op)}.`,
    });
  }
  if (input.reason !== undefined && typeof input.reason !== 'string') {
    walk.issues.push({ path: `${path}/reason`, message: `reason must be a string, got ${describe(input.reason)}.` });
  }
  const rules = checkList(input.rules, `${path}/rules`, depth + 1, walk, false);
  walk.seen.delete(input);
  if (walk.issues.length > before) return undefined;
  const set: RuleSet = { id, op: op as RuleSetOp, rules };
  return typeof input.reason === 'string' && input.reason.trim() !== '' ? { ...set, reason: input.reason.trim() } : set;
}

function walker(options: ValidateOptions): Walk {
  return { issues: [], operators: options.operators ?? DEFAULT_OPERATORS, seen: new Set() };
}

/**
 * Validates a rule set from outside (JSON), assigning missing 6-character IDs and
 * canonical operator names. Every problem is reported, each with the path of the
 * offending element (`/rules/2/op`); nothing throws.
 */
export function validateRuleSet(input: unknown, options: ValidateOptions = {}): Result<RuleSet, Issue[]> {
  const walk = walker(options);
  const set = checkSet(input, options.path ?? '', 0, walk);
  return set && walk.issues.length === 0 ? ok(set) : err(walk.issues);
}

/**
 * Validates a bare list of rules (and nested rule sets), as event query bodies and
 * export `filter_rules` carry. An empty list is valid: it filters nothing.
 */
export function validateRules(input: unknown, options: ValidateOptions = {}): Result<RuleElement[], Issue[]> {
  const walk = walker(options);
  const rules = checkList(input, options.path ?? '', 0, walk, true);
  return walk.issues.length === 0 ? ok(rules) : err(walk.issues);
}
