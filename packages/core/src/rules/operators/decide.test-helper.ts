import { expect } from 'vitest';
import { compileRuleSet } from '../compile';
import { parseValue } from '../fields/parse';
import { referenceEvaluate } from '../reference';
import type { EvalEnv, FieldType, Rhv } from '../../domain/rules';
import { validateRuleSet } from '../validate';

/** 2024-06-15T12:00:00Z, a Saturday. */
export const NOW = Date.UTC(2024, 5, 15, 12);
export const ENV: EvalEnv = { now: NOW, timeZone: 'America/New_York' };

/** A lead value typed as `type`, parsed the way typeLead would at NOW in New York. */
export function typed(type: FieldType, raw: unknown) {
  return parseValue(type, raw, { now: NOW, timeZone: ENV.timeZone });
}

/**
 * Decides `lead.x op rhv` for one value through validation, compilation and the
 * reference interpreter, checking the last two agree.
 */
export function decide(value: unknown, op: string, rhv?: Rhv, env: EvalEnv = ENV): boolean {
  const input = { op: 'and', rules: [rhv === undefined ? { lhv: 'lead.x', op } : { lhv: 'lead.x', op, rhv }] };
  const ruleSet = validateRuleSet(input);
  if (ruleSet.isErr()) throw new Error(JSON.stringify(ruleSet.error));
  const ctx = { lead: { x: value } };
  const compiled = compileRuleSet(ruleSet.value)(ctx, env);
  expect(compiled).toEqual(referenceEvaluate(ruleSet.value, ctx, env));
  return compiled.pass;
}
