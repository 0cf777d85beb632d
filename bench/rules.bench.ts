// The rules folder directly: core's index does not re-export it yet.
import type { ParsedValue, RuleContext } from '../packages/core/src/rules';
import { compileRuleSet, typeLead, validateRuleSet } from '../packages/core/src/rules';
import { Engine } from 'json-rules-engine';
import type { BenchRow } from './harness';
import { compare, measureInterleaved } from './harness';

// Compiled evaluation of a 20-rule nested set (text, numbers, dates, includes,
// patterns) against json-rules-engine on the same rules and against a hand-written
// predicate, all on the same leads. Targets: >= 20x json-rules-engine, within 3x
// of the hand-written predicate.

export const ENV = { now: Date.UTC(2024, 5, 15, 12), timeZone: 'America/New_York' };
export const FIELDS = [
  { id: 'lead.loan_amount', type: 'number' },
  { id: 'lead.credit_score', type: 'number' },
  { id: 'lead.income', type: 'number' },
  { id: 'lead.months_at_job', type: 'number' },
  { id: 'lead.created_at', type: 'date' },
] as const;

export const RULES = {
  op: 'and',
  rules: [
    { lhv: 'lead.state', op: 'is included in', rhv: ['TX', 'CA', 'FL', 'NY', 'GA'] },
    { lhv: 'lead.email', op: 'format is valid' },
    { lhv: 'lead.email', op: 'does not match glob', rhv: '*@mailinator.com' },
    { lhv: 'lead.first_name', op: 'is not blank' },
    { lhv: 'lead.last_name', op: 'is not blank' },
    { lhv: 'lead.loan_amount', op: 'is between', rhv: '1000-50000' },
    { lhv: 'lead.credit_score', op: 'is greater than or equal to', rhv: 600 },
    { lhv: 'lead.dob', op: 'is not within the last', rhv: '18 years' },
    { lhv: 'lead.created_at', op: 'is after', rhv: '2024-01-01' },
    { lhv: 'lead.phone_1', op: 'format is valid' },
    { lhv: 'lead.phone_1.area', op: 'is not included in', rhv: '900, 976' },
    { lhv: 'lead.postal_code', op: 'matches pattern', rhv: '/^\\d{5}$/' },
    {
      op: 'or',
      rules: [
        { lhv: 'lead.tags', op: 'includes', rhv: 'premium' },
        { lhv: 'lead.source_tag', op: 'includes', rhv: 'google' },
        { lhv: 'lead.income', op: 'is greater than', rhv: 5000 },
      ],
    },
    {
      op: 'and',
      rules: [
        { lhv: 'lead.employment', op: 'is equal to', rhv: 'Employed' },
        { lhv: 'lead.comments', op: 'does not include', rhv: 'test' },
        { lhv: 'lead.city', op: 'is not equal to', rhv: 'Nowhere' },
        { lhv: 'lead.months_at_job', op: 'is greater than', rhv: 6 },
        { lhv: 'lead.ip_address', op: 'format is valid' },
      ],
    },
  ],
};

const BASE = {
  first_name: 'Bob',
  last_name: 'Smith',
  email: 'Bob.Smith@Example.com',
  phone_1: '(212) 555-0123',
  state: 'Texas',
  postal_code: '75001',
  dob: '1985-04-12',
  loan_amount: '12,500',
  credit_score: '710',
  created_at: '2024-06-15T09:30:00-05:00',
  tags: ['new', 'premium'],
  source_tag: 'Google-Ads',
  income: '4200',
  employment: 'employed',
  comments: 'Call after 5pm',
  city: 'Dallas',
  months_at_job: '24',
  ip_address: '203.0.113.9',
};
export const RAW_LEADS = [
  BASE,
  { ...BASE, state: 'CA', tags: [], source_tag: 'bing', income: '$7,500' },
  { ...BASE, comments: 'this is a TEST lead' },
];

/** json-rules-engine sees flat facts (its fastest form: no JSONPath) with the same normal forms. */
function facts(lead: Record<string, unknown>): Record<string, unknown> {
  const v = (key: string) => lead[key] as ParsedValue;
  return {
    state: v('state').normal,
    email: v('email').normal,
    email_valid: v('email').valid,
    first_name: v('first_name').normal,
    last_name: v('last_name').normal,
    loan_amount: v('loan_amount').normal,
    credit_score: v('credit_score').normal,
    dob: v('dob').epoch,
    created_at: v('created_at').epoch,
    phone_valid: v('phone_1').valid,
    phone_area: v('phone_1').area,
    postal_code: v('postal_code').normal,
    tags: v('tags').normal,
    source_tag: String(v('source_tag').normal).toLowerCase(),
    income: v('income').normal,
    employment: String(v('employment').normal).toLowerCase(),
    comments: String(v('comments').normal).toLowerCase(),
    city: String(v('city').normal).toLowerCase(),
    months_at_job: v('months_at_job').normal,
    ip_valid: v('ip_address').valid,
  };
}

const ADULT_CUTOFF = Date.UTC(2006, 5, 15, 4); // now minus 18 years, at midnight in New York
const AFTER = Date.UTC(2024, 0, 1, 5);

function jsonRulesEngine(): Engine {
  const engine = new Engine([], { allowUndefinedFacts: true });
  engine.addOperator('matches', (fact: unknown, pattern: RegExp) => typeof fact === 'string' && pattern.test(fact));
  engine.addOperator(
    'notMatches',
    (fact: unknown, pattern: RegExp) => !(typeof fact === 'string' && pattern.test(fact)),
  );
  engine.addOperator('textIncludes', (fact: unknown, text: string) => typeof fact === 'string' && fact.includes(text));
  engine.addOperator(
    'textExcludes',
    (fact: unknown, text: string) => !(typeof fact === 'string' && fact.includes(text)),
  );
  engine.addRule({
    event: { type: 'accepted' },
    conditions: {
      all: [
        { fact: 'state', operator: 'in', value: ['TX', 'CA', 'FL', 'NY', 'GA'] },
        { fact: 'email_valid', operator: 'equal', value: true },
        { fact: 'email', operator: 'notMatches', value: /^.*@mailinator\.com$/i },
        { fact: 'first_name', operator: 'notEqual', value: '' },
        { fact: 'last_name', operator: 'notEqual', value: '' },
        { fact: 'loan_amount', operator: 'greaterThanInclusive', value: 1000 },
        { fact: 'loan_amount', operator: 'lessThanInclusive', value: 50000 },
        { fact: 'credit_score', operator: 'greaterThanInclusive', value: 600 },
        { fact: 'dob', operator: 'lessThan', value: ADULT_CUTOFF },
        { fact: 'created_at', operator: 'greaterThan', value: AFTER },
        { fact: 'phone_valid', operator: 'equal', value: true },
        { fact: 'phone_area', operator: 'notIn', value: ['900', '976'] },
        { fact: 'postal_code', operator: 'matches', value: /^\d{5}$/ },
        {
          any: [
            { fact: 'tags', operator: 'contains', value: 'premium' },
            { fact: 'source_tag', operator: 'textIncludes', value: 'google' },
            { fact: 'income', operator: 'greaterThan', value: 5000 },
          ],
        },
        {
          all: [
            { fact: 'employment', operator: 'equal', value: 'employed' },
            { fact: 'comments', operator: 'textExcludes', value: 'test' },
            { fact: 'city', operator: 'notEqual', value: 'nowhere' },
            { fact: 'months_at_job', operator: 'greaterThan', value: 6 },
            { fact: 'ip_valid', operator: 'equal', value: true },
          ],
        },
      ],
    },
  });
  return engine;
}

const STATES = new Set(['TX', 'CA', 'FL', 'NY', 'GA']);
const MAILINATOR = /^.*@mailinator\.com$/i;
const ZIP = /^\d{5}$/;

/** What a developer would write by hand over the same typed lead. */
function handWritten(ctx: RuleContext): boolean {
  const l = ctx.lead as Record<string, ParsedValue>;
  const n = (key: string) => l[key]?.normal as number;
  const s = (key: string) => String(l[key]?.normal ?? '');
  return (
    STATES.has(s('state')) &&
    l.email?.valid === true &&
    !MAILINATOR.test(s('email')) &&
    s('first_name') !== '' &&
    s('last_name') !== '' &&
    n('loan_amount') >= 1000 &&
    n('loan_amount') <= 50000 &&
    n('credit_score') >= 600 &&
    (l.dob?.epoch as number) < ADULT_CUTOFF &&
    (l.created_at?.epoch as number) > AFTER &&
    l.phone_1?.valid === true &&
    l.phone_1.area !== '900' &&
    l.phone_1.area !== '976' &&
    ZIP.test(s('postal_code')) &&
    ((l.tags?.normal as string[] | undefined)?.includes('premium') ||
      s('source_tag').toLowerCase().includes('google') ||
      n('income') > 5000) &&
    s('employment').toLowerCase() === 'employed' &&
    !s('comments').toLowerCase().includes('test') &&
    s('city').toLowerCase() !== 'nowhere' &&
    n('months_at_job') > 6 &&
    l.ip_address?.valid === true
  );
}

export default async function rulesBench(): Promise<BenchRow[]> {
  const ruleSet = validateRuleSet(RULES)._unsafeUnwrap();
  const evaluate = compileRuleSet(ruleSet);
  const leads = RAW_LEADS.map((raw) => typeLead(raw, FIELDS, ENV));
  const contexts: RuleContext[] = leads.map((lead) => ({ lead, source: {}, flow: {} }));
  const factSets = leads.map(facts);
  const engine = jsonRulesEngine();

  // The three must agree before their speed means anything.
  for (const [i, ctx] of contexts.entries()) {
    const ours = evaluate(ctx, ENV).pass;
    const theirs = (await engine.run(factSets[i] ?? {})).events.length > 0;
    if (ours !== handWritten(ctx) || ours !== theirs) throw new Error(`Lead ${i}: the three evaluations disagree.`);
  }

  let i = 0;
  const next = () => (i = (i + 1) % contexts.length);
  const ops = await measureInterleaved({
    compiled: { fn: () => evaluate(contexts[next()] as RuleContext, ENV), batch: 1000 },
    hand: { fn: () => handWritten(contexts[next()] as RuleContext), batch: 1000 },
    jre: { fn: () => engine.run(factSets[next()] ?? {}), batch: 20 },
    // Spread, so every field is parsed: typeLead parses a field on its first read.
    typing: { fn: () => ({ ...typeLead(RAW_LEADS[next()] ?? BASE, FIELDS, ENV) }), batch: 5 },
  });
  const typedAndCompiled = 1 / (1 / ops.compiled + 1 / ops.typing);

  return [
    compare('rules: compiled 20-rule set', ops.compiled, { name: 'json-rules-engine', value: ops.jre, minRatio: 20 }),
    // Within 3x of hand-written means at least a third of its speed.
    compare('rules: compiled 20-rule set vs hand-written', ops.compiled, {
      name: 'hand-written predicate',
      value: ops.hand,
      minRatio: 0.33,
    }),
    compare('rules: typeLead (parse 19 fields once per lead)', ops.typing),
    compare('rules: typeLead + compiled 20-rule set', typedAndCompiled, { name: 'json-rules-engine', value: ops.jre }),
  ];
}
