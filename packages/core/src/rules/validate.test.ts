import { describe, expect, it } from 'vitest';
import { isRuleId } from '../ids';
import { createOperatorRegistry, defineOperator } from './index';
import type { Rule, RuleSet } from '../domain/rules';
import { validateRules, validateRuleSet } from './validate';

function issues(input: unknown) {
  const result = validateRuleSet(input);
  if (result.isOk()) throw new Error('expected validation to fail');
  return result.error;
}

describe('validateRuleSet', () => {
  it('assigns missing IDs at every depth, keeps given ones, canonicalizes operators', () => {
    const result = validateRuleSet({
      id: 'abc123',
      op: 'AND',
      reason: ' Out of area ',
      rules: [
        {
          lhv: ' lead.state ',
          op: 'Is  Equal To',
          rhv: 'TX',
          rule_set: { op: 'or', rules: [{ lhv: 'lead.city', op: 'is blank' }] },
        },
        { op: 'or', rules: [{ id: 'XYZ789', lhv: 'lead.x', op: 'is not blank', rhv: null }] },
      ],
    });
    const set = result._unsafeUnwrap();
    expect(set.id).toBe('abc123');
    expect(set.reason).toBe('Out of area');
    const rule = set.rules[0] as Rule;
    expect(rule).toMatchObject({ lhv: 'lead.state', op: 'is equal to', rhv: 'TX' });
    expect(isRuleId(rule.id)).toBe(true);
    expect(isRuleId(rule.rule_set?.id)).toBe(true);
    expect(isRuleId(rule.rule_set?.rules[0]?.id)).toBe(true);
    const nested = set.rules[1] as RuleSet;
    expect(nested.rules[0]).toEqual({ id: 'XYZ789', lhv: 'lead.x', op: 'is not blank' });
  });

  it.each([
    ['not an object', 'rules', '', 'A rule set must be an object {op, rules}, got "rules".'],
    ['null', null, '', 'A rule set must be an object {op, rules}, got null.'],
    [
      'missing op',
      { rules: [{ lhv: 'a', op: 'is blank' }] },
      '/op',
      `A rule set's op must be "and" or "or", got nothing.`,
    ],
    [
      'bad op',
      { op: 'xor', rules: [{ lhv: 'a', op: 'is blank' }] },
      '/op',
      `A rule set's op must be "and" or "or", got "xor".`,
    ],
    ['missing rules', { op: 'and' }, '/rules', 'rules must be an array of rules and rule sets, got nothing.'],
    [
      'rules not an array',
      { op: 'and', rules: {} },
      '/rules',
      'rules must be an array of rules and rule sets, got an object.',
    ],
    ['empty rules', { op: 'and', rules: [] }, '/rules', 'rules must not be empty.'],
    [
      'bad set id',
      { id: 'abc', op: 'and', rules: [{ lhv: 'a', op: 'is blank' }] },
      '/id',
      'id must be 6 letters or digits, got "abc".',
    ],
    [
      'bad rule id',
      { op: 'and', rules: [{ id: 'ab-123', lhv: 'a', op: 'is blank' }] },
      '/rules/0/id',
      'id must be 6 letters or digits, got "ab-123".',
    ],
    [
      'element not an object',
      { op: 'and', rules: [7] },
      '/rules/0',
      'Each element must be a rule {lhv, op, rhv} or a rule set {op, rules}, got a number.',
    ],
    [
      'element neither',
      { op: 'and', rules: [{ foo: 1 }] },
      '/rules/0',
      'Each element must be a rule {lhv, op, rhv} or a rule set {op, rules}.',
    ],
    [
      'element both',
      { op: 'and', rules: [{ lhv: 'a', op: 'and', rules: [] }] },
      '/rules/0',
      'An element cannot be both a rule (lhv) and a rule set (rules).',
    ],
    [
      'missing lhv',
      { op: 'and', rules: [{ op: 'is blank' }] },
      '/rules/0/lhv',
      'lhv must be a non-empty string (a path like lead.state or a template), got nothing.',
    ],
    [
      'blank lhv',
      { op: 'and', rules: [{ lhv: ' ', op: 'is blank' }] },
      '/rules/0/lhv',
      'lhv must be a non-empty string (a path like lead.state or a template), got " ".',
    ],
    [
      'missing rule op',
      { op: 'and', rules: [{ lhv: 'a' }] },
      '/rules/0/op',
      'op must be an operator name, got nothing.',
    ],
    [
      'unknown operator',
      { op: 'and', rules: [{ lhv: 'a', op: 'is kinda like', rhv: 'b' }] },
      '/rules/0/op',
      'Unknown operator "is kinda like".',
    ],
    [
      'binary without rhv',
      { op: 'and', rules: [{ lhv: 'a', op: 'is equal to' }] },
      '/rules/0/rhv',
      'Operator "is equal to" needs an rhv.',
    ],
    [
      'unary with rhv',
      { op: 'and', rules: [{ lhv: 'a', op: 'is blank', rhv: 'x' }] },
      '/rules/0/rhv',
      'Operator "is blank" takes no rhv, got "x".',
    ],
    [
      'rhv object',
      { op: 'and', rules: [{ lhv: 'a', op: 'is equal to', rhv: { a: 1 } }] },
      '/rules/0/rhv',
      'rhv must be a string, number, boolean or array of those, got an object.',
    ],
    [
      'rhv nested array',
      { op: 'and', rules: [{ lhv: 'a', op: 'is included in', rhv: [['x']] }] },
      '/rules/0/rhv',
      'rhv must be a string, number, boolean or array of those, got an array.',
    ],
    [
      'bad between',
      { op: 'and', rules: [{ lhv: 'a', op: 'is between', rhv: '18 to sixty' }] },
      '/rules/0/rhv',
      'Operator "is between" needs "min-max" (like "18-65") or a list of two values.',
    ],
    [
      'between three values',
      { op: 'and', rules: [{ lhv: 'a', op: 'is between', rhv: [1, 2, 3] }] },
      '/rules/0/rhv',
      'Operator "is between" needs "min-max" (like "18-65") or a list of two values.',
    ],
    [
      'bad duration',
      { op: 'and', rules: [{ lhv: 'a', op: 'is within the last', rhv: 'a while' }] },
      '/rules/0/rhv',
      'Operator "is within the last" needs "N unit" with unit minutes, hours, days, weeks, months or years (like "30 days").',
    ],
    [
      'bad date',
      { op: 'and', rules: [{ lhv: 'a', op: 'is before', rhv: 'tomorrow' }] },
      '/rules/0/rhv',
      'Operator "is before" needs a date, got "tomorrow".',
    ],
    [
      'bad regex',
      { op: 'and', rules: [{ lhv: 'a', op: 'matches pattern', rhv: '/(/' }] },
      '/rules/0/rhv',
      'Operator "matches pattern" has an invalid pattern /(/: error parsing regexp: missing closing ): `(`.',
    ],
    [
      '#18.6 a backreference (no linear-time engine runs one)',
      { op: 'and', rules: [{ lhv: 'a', op: 'matches pattern', rhv: '^(a+)\\1$' }] },
      '/rules/0/rhv',
      'Operator "matches pattern" has an invalid pattern ^(a+)\\1$: error parsing regexp: invalid escape sequence: `\\1`.',
    ],
    [
      '#18.6 lookahead',
      { op: 'and', rules: [{ lhv: 'a', op: 'matches pattern', rhv: ['x', '(?=a)b'] }] },
      '/rules/0/rhv',
      'Operator "matches pattern" has an invalid pattern (?=a)b: error parsing regexp: invalid or unsupported Perl syntax: `(?=`.',
    ],
    [
      '#19.3 a flag other than i, m, s',
      { op: 'and', rules: [{ lhv: 'a', op: 'does not match pattern', rhv: '/ab/g' }] },
      '/rules/0/rhv',
      'Operator "does not match pattern" has an invalid pattern /ab/g: has flag "g"; only i, m and s are supported.',
    ],
    [
      '#19.3 a glob is not a regular expression',
      { op: 'and', rules: [{ lhv: 'a', op: 'matches pattern', rhv: '*@gmail.com' }] },
      '/rules/0/rhv',
      'Operator "matches pattern" has an invalid pattern *@gmail.com: error parsing regexp: missing argument to repetition operator: `*`.',
    ],
    [
      '#18.6 a pattern over 2,000 characters',
      { op: 'and', rules: [{ lhv: 'a', op: 'matches pattern', rhv: 'a'.repeat(2001) }] },
      '/rules/0/rhv',
      `Operator "matches pattern" has an invalid pattern ${'a'.repeat(2001)}: is longer than 2000 characters.`,
    ],
    [
      'empty included list',
      { op: 'and', rules: [{ lhv: 'a', op: 'is included in', rhv: ' , ' }] },
      '/rules/0/rhv',
      'Operator "is included in" needs at least one value (an array or comma-separated text).',
    ],
    [
      'unclosed template',
      { op: 'and', rules: [{ lhv: '{{ lead.a', op: 'is blank' }] },
      '/rules/0/lhv',
      'unclosed "{{" in template "{{ lead.a".',
    ],
    [
      'empty template',
      { op: 'and', rules: [{ lhv: 'a', op: 'is equal to', rhv: ['x', '{{ }}'] }] },
      '/rules/0/rhv/1',
      'empty expression {{ }} in template "{{ }}".',
    ],
    [
      'bad reason',
      { op: 'and', reason: 5, rules: [{ lhv: 'a', op: 'is blank' }] },
      '/reason',
      'reason must be a string, got a number.',
    ],
    ['bad nested set', { op: 'and', rules: [{ op: 'or', rules: [] }] }, '/rules/0/rules', 'rules must not be empty.'],
    [
      'bad rule rule_set',
      { op: 'and', rules: [{ lhv: 'a', op: 'is blank', rule_set: [] }] },
      '/rules/0/rule_set',
      'A rule set must be an object {op, rules}, got an array.',
    ],
  ])('%s', (_label, input, path, message) => {
    expect(issues(input)).toContainEqual({ path, message });
  });

  it('reports every problem, prefixed with the caller path', () => {
    const result = validateRuleSet(
      {
        op: 'and',
        rules: [
          { lhv: 'a', op: 'nope' },
          { op: 'or', rules: [{ lhv: '', op: 'is blank' }] },
        ],
      },
      { path: '/steps/1/rule_set' },
    );
    expect(result._unsafeUnwrapErr().map((issue) => issue.path)).toEqual([
      '/steps/1/rule_set/rules/0/op',
      '/steps/1/rule_set/rules/1/rules/0/lhv',
    ]);
  });

  it('rejects cycles and absurd depth instead of overflowing', () => {
    const cyclic: { op: string; rules: unknown[] } = { op: 'and', rules: [] };
    cyclic.rules.push(cyclic);
    expect(issues(cyclic)).toContainEqual({ path: '/rules/0', message: 'A rule set contains itself.' });
    let deep: unknown = { op: 'and', rules: [{ lhv: 'a', op: 'is blank' }] };
    for (let i = 0; i < 300; i++) deep = { op: 'and', rules: [deep] };
    expect(issues(deep).at(0)?.message).toBe('Rule sets are nested more than 200 deep.');
  });

  it('accepts any nesting up to that depth and templated rhv without preparing it', () => {
    let deep: unknown = { op: 'and', rules: [{ lhv: 'a', op: 'is between', rhv: '{{ source.band }}' }] };
    for (let i = 0; i < 50; i++) deep = { op: i % 2 ? 'and' : 'or', rules: [deep] };
    expect(validateRuleSet(deep).isOk()).toBe(true);
  });

  it('uses a registry with an embedding service’s own operators', () => {
    const operators = createOperatorRegistry([
      defineOperator({ name: 'is even', arity: 'unary', test: (v) => Number(v) % 2 === 0 }),
    ]);
    expect(validateRuleSet({ op: 'and', rules: [{ lhv: 'a', op: 'is even' }] }, { operators }).isOk()).toBe(true);
    expect(validateRuleSet({ op: 'and', rules: [{ lhv: 'a', op: 'is even' }] }).isErr()).toBe(true);
  });
});

describe('validateRules', () => {
  it('validates a bare list; empty is fine', () => {
    expect(validateRules([])._unsafeUnwrap()).toEqual([]);
    const rules = validateRules([{ lhv: 'lead.state', op: 'is equal to', rhv: 'TX' }])._unsafeUnwrap();
    expect(rules[0]).toMatchObject({ lhv: 'lead.state', op: 'is equal to' });
    expect(validateRules({ lhv: 'a' })._unsafeUnwrapErr()).toEqual([
      { path: '', message: 'rules must be an array of rules and rule sets, got an object.' },
    ]);
    expect(
      validateRules([{ lhv: 'a', op: 'is blank', rhv: 1 }], { path: '/filter_rules' })._unsafeUnwrapErr()[0]?.path,
    ).toBe('/filter_rules/0/rhv');
  });
});
