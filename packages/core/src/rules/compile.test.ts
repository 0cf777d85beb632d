import { describe, expect, it } from 'vitest';
import { compileRules, compileRuleSet, evaluateLastMatch } from './compile';
import { normalOf } from './fields/parsed';
import { typeLead } from './lead';
import { defineOperator } from './operators/operator';
import { createOperatorRegistry } from './operators/registry';
import { referenceEvaluate } from './reference';
import type { RuleSet } from '../domain/rules';
import { validateRules, validateRuleSet } from './validate';

const ENV = { now: Date.UTC(2024, 5, 15, 12), timeZone: 'America/Chicago' };

function ruleSet(input: unknown): RuleSet {
  return validateRuleSet(input)._unsafeUnwrap();
}

const lead = typeLead(
  { state: 'Florida', email: 'bob@gmail.com', phone_1: '(212) 555-0123', loan_amount: '25,000', first_name: 'Bob' },
  [{ id: 'lead.loan_amount', type: 'number' }],
  ENV,
);
const ctx = { lead, source: { name: 'Acme', max_amount: 30000, states: ['FL', 'GA'] }, flow: { name: 'Loans' } };

function both(set: RuleSet, context: Record<string, unknown> = ctx) {
  const outcome = compileRuleSet(set)(context, ENV);
  expect(outcome).toEqual(referenceEvaluate(set, context, ENV));
  return outcome;
}

describe('compileRuleSet', () => {
  it('passes, sharing one frozen outcome so a pass allocates nothing', () => {
    const set = ruleSet({ op: 'and', rules: [{ lhv: 'lead.state', op: 'is equal to', rhv: 'FL' }] });
    const fn = compileRuleSet(set);
    expect(fn(ctx, ENV)).toEqual({ pass: true });
    expect(fn(ctx, ENV)).toBe(fn(ctx, ENV));
    expect(compileRuleSet(set)).toBe(fn);
  });

  it('AND stops at and reports the first failure', () => {
    const set = ruleSet({
      op: 'and',
      rules: [
        { lhv: 'lead.email', op: 'format is valid' },
        { lhv: 'lead.state', op: 'is included in', rhv: ['TX', 'CA'] },
        { lhv: 'lead.loan_amount', op: 'is less than', rhv: 1000 },
      ],
    });
    expect(both(set)).toEqual({ pass: false, reason: 'lead.state is not included in TX, CA' });
  });

  it('OR reports every reason, unary ones without an rhv', () => {
    const set = ruleSet({
      op: 'or',
      rules: [
        { lhv: 'lead.city', op: 'is not blank' },
        { lhv: 'lead.loan_amount', op: 'is between', rhv: '1000-5000' },
      ],
    });
    expect(both(set)).toEqual({ pass: false, reason: 'lead.city is blank; lead.loan_amount is not between 1000-5000' });
  });

  it('uses a rule set’s own reason instead of its rules’', () => {
    const set = ruleSet({
      op: 'and',
      rules: [
        { op: 'or', reason: 'Outside the service area', rules: [{ lhv: 'lead.state', op: 'is equal to', rhv: 'TX' }] },
      ],
    });
    expect(both(set)).toEqual({ pass: false, reason: 'Outside the service area' });
  });

  it('ANDs a rule with its own rule set, at any depth', () => {
    const set = ruleSet({
      op: 'or',
      rules: [
        {
          lhv: 'lead.state',
          op: 'is equal to',
          rhv: 'Florida',
          rule_set: { op: 'and', rules: [{ lhv: 'lead.phone_1.area', op: 'is equal to', rhv: '305' }] },
        },
      ],
    });
    expect(both(set)).toEqual({ pass: false, reason: 'lead.phone_1.area is not equal to 305' });
    const passing = ruleSet({
      op: 'and',
      rules: [
        { ...set.rules[0], rule_set: { op: 'or', rules: [{ lhv: 'lead.phone_1.area', op: 'is equal to', rhv: 212 }] } },
      ],
    });
    expect(both(passing)).toEqual({ pass: true });
  });

  it('resolves templates in lhv and rhv against the context, typed', () => {
    const set = ruleSet({
      op: 'and',
      rules: [
        { lhv: 'lead.loan_amount', op: 'is less than or equal to', rhv: '{{ source.max_amount }}' },
        { lhv: 'lead.state', op: 'is included in', rhv: '{{ source.states }}' },
        { lhv: '{{ lowercase lead.first_name }}', op: 'is equal to', rhv: 'BOB' },
        { lhv: 'lead.email', op: 'matches glob', rhv: '*@{{ lowercase "GMAIL" }}.com' },
      ],
    });
    expect(both(set)).toEqual({ pass: true });
    const lower = { ...ctx, source: { ...ctx.source, max_amount: 100 } };
    expect(both(set, lower)).toEqual({ pass: false, reason: 'lead.loan_amount is greater than 100' });
  });

  it('fails a rule whose templated rhv becomes unusable, without throwing', () => {
    const set = ruleSet({
      op: 'and',
      rules: [{ lhv: 'lead.loan_amount', op: 'is between', rhv: '{{ source.name }}' }],
    });
    expect(both(set)).toEqual({ pass: false, reason: 'lead.loan_amount is not between Acme' });
  });

  it('re-reads a static date rhv per time zone, and recency per clock', () => {
    const set = ruleSet({
      op: 'and',
      rules: [
        { lhv: 'lead.at', op: 'is before', rhv: '2024-06-14' },
        { lhv: 'lead.at', op: 'is within the last', rhv: '1 day' },
      ],
    });
    const fn = compileRuleSet(set);
    const at = { lead: { at: '2024-06-14T02:00:00Z' } };
    const now = Date.UTC(2024, 5, 14, 12);
    // Midnight of June 14 is 04:00Z in New York but 00:00Z in UTC.
    expect(fn(at, { now, timeZone: 'America/New_York' })).toEqual({ pass: true });
    expect(fn(at, { now, timeZone: 'UTC' })).toEqual({ pass: false, reason: 'lead.at is not before 2024-06-14' });
    expect(fn(at, { now: now + 2 * 86_400_000, timeZone: 'America/New_York' })).toEqual({
      pass: false,
      reason: 'lead.at is not within the last 1 day',
    });
  });

  it('works on an untyped context too', () => {
    const set = ruleSet({ op: 'and', rules: [{ lhv: 'source.name', op: 'is equal to', rhv: 'acme' }] });
    expect(both(set)).toEqual({ pass: true });
    expect(compileRuleSet(set)({})).toEqual({ pass: false, reason: 'source.name is not equal to acme' });
  });

  it('takes an embedding service’s operators', () => {
    const isEven = defineOperator({
      name: 'is even',
      arity: 'unary',
      failText: 'is odd',
      test: (v) => Number(normalOf(v)) % 2 === 0,
    });
    const operators = createOperatorRegistry([isEven]);
    const set = validateRuleSet(
      { op: 'and', rules: [{ lhv: 'lead.loan_amount', op: 'is even' }] },
      { operators },
    )._unsafeUnwrap();
    expect(compileRuleSet(set, { operators })(ctx, ENV)).toEqual({ pass: true });
    expect(compileRuleSet(set, { operators })({ lead: { loan_amount: 3 } })).toEqual({
      pass: false,
      reason: 'lead.loan_amount is odd',
    });
    expect(() => compileRuleSet(set)).toThrow(/Unknown operator "is even"/);
  });
});

describe('compileRules', () => {
  it('combines a bare list; an empty list passes', () => {
    const rules = validateRules([
      { lhv: 'lead.state', op: 'is equal to', rhv: 'TX' },
      { lhv: 'flow.name', op: 'is equal to', rhv: 'loans' },
    ])._unsafeUnwrap();
    expect(compileRules(rules, 'and')(ctx).pass).toBe(false);
    expect(compileRules(rules, 'or')(ctx).pass).toBe(true);
    expect(compileRules([], 'or')(ctx).pass).toBe(true);
  });
});

describe('evaluateLastMatch', () => {
  it('picks the last matching item; items without rules always match', () => {
    const prices = [
      { price: 5 },
      { price: 10, rule_set: ruleSet({ op: 'and', rules: [{ lhv: 'lead.state', op: 'is equal to', rhv: 'FL' }] }) },
      { price: 20, rule_set: ruleSet({ op: 'and', rules: [{ lhv: 'lead.state', op: 'is equal to', rhv: 'TX' }] }) },
    ];
    expect(evaluateLastMatch(prices, ctx, ENV)).toEqual({ item: prices[1], index: 1 });
    expect(evaluateLastMatch(prices.slice(2), ctx, ENV)).toBeUndefined();
    expect(evaluateLastMatch([], ctx, ENV)).toBeUndefined();
  });
});
