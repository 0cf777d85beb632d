import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileRuleSet } from './compile';
import { typeLead } from './lead';
import { BUILTIN_OPERATORS } from './operators/registry';
import { referenceEvaluate } from './reference';
import type { EvalEnv } from '../domain/rules';
import { validateRuleSet } from './validate';

const PATHS = [
  'lead.a',
  'lead.n',
  'lead.d',
  'lead.tags',
  'lead.state',
  'lead.phone_1',
  'lead.phone_1.area',
  'lead.missing',
  'source.x',
  '{{ lowercase lead.a }}',
];
// '*ap*' is a glob but no regular expression; '^ap' and 'a.p' are both.
const TEXT = [
  'Apple',
  'apple',
  'APPLE ',
  'banana',
  '',
  '5',
  '5.0',
  '05',
  '10',
  'TX',
  'Texas',
  'ca',
  '*ap*',
  '/^a/i',
  '^ap',
  'a.p',
  'yes',
  'no',
];

const scalarRhv = fc.oneof(
  fc.constantFrom(...TEXT),
  fc.integer({ min: -5, max: 30 }),
  fc.boolean(),
  fc.constantFrom(
    '2024-06-01',
    '2024-06-14',
    '2024-06-15T10:00:00Z',
    '06/14/2024',
    '1-10',
    '10 - 2',
    '3 days',
    '2 weeks',
    '1 year',
    'TX, CA',
  ),
  fc.constantFrom('{{ source.x }}', '{{ lead.n }}', '{{ source.list }}', 'x{{ source.x }}'),
);
const rhv = fc.oneof(
  scalarRhv,
  fc.array(fc.oneof(fc.constantFrom(...TEXT), fc.integer({ min: 0, max: 12 })), { minLength: 1, maxLength: 3 }),
);

// An rhv each operator accepts, used when the generated one is refused (a bad pattern,
// range or duration), so nearly every generated set is valid and none is wasted.
const FALLBACK: Record<string, string> = {
  'is between': '1-10',
  'is not between': '0-5',
  'is within the last': '3 days',
  'is not within the last': '1 year',
  'is before': '2024-06-15',
  'is after': '2024-06-01T00:00:00Z',
};

function usable(candidate: { lhv: string; op: string; rhv?: unknown; rule_set?: unknown }): unknown {
  const unary = BUILTIN_OPERATORS.find((operator) => operator.name === candidate.op)?.arity === 'unary';
  const { rhv: _rhv, ...rest } = candidate;
  const fixed = unary ? rest : candidate;
  if (validateRuleSet({ op: 'and', rules: [{ ...fixed, rule_set: undefined }] }).isOk()) return fixed;
  return { ...rest, rhv: FALLBACK[candidate.op] ?? 'apple' };
}

const opName = fc.constantFrom(...BUILTIN_OPERATORS.map((operator) => operator.name));
const rule = fc.record({ lhv: fc.constantFrom(...PATHS), op: opName, rhv }).map(usable);

// Rule sets nested a few levels, rules sometimes carrying their own rule set.
const { set } = fc.letrec<{ set: unknown; element: unknown; rule: unknown }>((tie) => ({
  set: fc.record(
    {
      op: fc.constantFrom('and', 'or'),
      rules: fc.array(tie('element'), { minLength: 1, maxLength: 4 }),
      reason: fc.constantFrom('Custom reason'),
    },
    { requiredKeys: ['op', 'rules'] },
  ),
  element: fc.oneof({ maxDepth: 3, depthIdentifier: 'tree', withCrossShrink: true }, tie('rule'), tie('set')),
  rule: fc.oneof(
    { maxDepth: 3, depthIdentifier: 'tree' },
    rule,
    fc.record({ lhv: fc.constantFrom(...PATHS), op: opName, rhv, rule_set: tie('set') }).map(usable),
  ),
}));

const lead = fc.record({
  a: fc.oneof(fc.constantFrom(...TEXT), fc.constant(undefined)),
  n: fc.oneof(fc.integer({ min: -5, max: 30 }), fc.constantFrom('7', '1,000', 'x', '')),
  d: fc.constantFrom('2024-06-14', '2024-06-15T03:00:00Z', '2024-05-01', '06/01/2024 10:00', 'bad', ''),
  tags: fc.array(fc.constantFrom('apple', 'TX', '5', 'b'), { maxLength: 3 }),
  state: fc.constantFrom('TX', 'Texas', 'ca', 'Narnia', ''),
  phone_1: fc.constantFrom('(212) 555-0123', '2125550123', '555-1234', ''),
});

const env = fc.record({
  now: fc.constantFrom(Date.UTC(2024, 5, 15, 12), Date.UTC(2024, 5, 20), Number.NaN),
  timeZone: fc.constantFrom('UTC', 'America/New_York', 'Asia/Tokyo'),
});

describe('compiled evaluation', () => {
  it('agrees with the reference interpreter on generated rule sets and data', () => {
    fc.assert(
      fc.property(
        set,
        fc.array(fc.tuple(lead, fc.constantFrom('apple', 'TX', '12', ''), env), { minLength: 1, maxLength: 6 }),
        (input, runs) => {
          const validated = validateRuleSet(input);
          // Generated rules whose static rhv the operator refuses are not rule sets at all.
          fc.pre(validated.isOk());
          if (!validated.isOk()) return;
          const compiled = compileRuleSet(validated.value);
          // Several evaluations of one compiled set: operand caches must not leak between them.
          for (const [raw, x, evalEnv] of runs) {
            const ctx = {
              lead: typeLead(
                raw,
                [
                  { id: 'lead.n', type: 'number' },
                  { id: 'lead.d', type: 'date' },
                ],
                evalEnv as EvalEnv,
              ),
              source: { x, list: ['apple', 'TX'] },
            };
            expect(compiled(ctx, evalEnv)).toEqual(referenceEvaluate(validated.value, ctx, evalEnv));
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
