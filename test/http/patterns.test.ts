import { scriptedRecipient } from '@leadroute/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Answer, type Call, call } from '../support/call';
import { createFixture, type Fixture } from '../support/fixture';
import { BINDINGS, type Binding, startBinding } from '../support/servers';

// `^(a+)+$` against a run of a's ending in another character: exponential for a
// backtracking engine (21 s at 29 characters), linear for RE2.
const EVIL = '/^(a+)+$/';
const LONG = `${'a'.repeat(10_000)}!`;
// Generous bounds for a busy 2-core machine; a backtracking engine never finishes at all.
const ATTACK_MS = 2_000;
const UNRELATED_MS = 1_000;

async function timed(request: Promise<Answer>): Promise<Answer & { ms: number }> {
  const start = performance.now();
  const answer = await request;
  return { ...answer, ms: performance.now() - start };
}

describe.each(BINDINGS)('tenant patterns over HTTP through %s', (name) => {
  let binding: Binding;
  let f: Fixture;
  let vendor: string;
  let buyer: string;
  const scripted = scriptedRecipient();
  const req = (c: Call) => call(binding.url, c);
  const key = () => f.keys.demo;
  const entity = async (body: Record<string, unknown>) =>
    (await req({ path: '/entities', key: key(), json: { module_ids: [], source: null, recipient: null, ...body } }))
      .body.id as string;
  const unrelated = () => timed(req({ path: '/flows', key: key() }));

  beforeAll(async () => {
    f = await createFixture({ integrations: [scripted] });
    binding = await startBinding(name, f.service);
    vendor = await entity({ name: 'Vendor', source: 'seller' });
    buyer = await entity({ name: 'Buyer', recipient: 'buyer' });
  });
  afterAll(async () => {
    await binding.close();
  });

  it('#18.6 a vendor posting a 10,000-character value against /^(a+)+$/ in acceptance criteria is answered quickly, as is an unrelated request', async () => {
    const flow = await req({
      path: '/flows',
      key: key(),
      json: {
        name: 'Pattern criteria',
        acceptance_criteria: { op: 'and', rules: [{ lhv: 'lead.comments', op: 'does not match pattern', rhv: EVIL }] },
        sources: [{ entity_id: vendor }],
        steps: [{ type: 'recipient', entity_id: buyer, module_id: scripted.id }],
      },
    });
    expect(flow.status, flow.text).toBe(201);
    // The intake route takes no key: anyone who knows the IDs can send this.
    const attack = timed(
      req({ path: `/flows/${flow.body.id}/sources/${vendor}/submit`, json: { comments: LONG, state: 'TX' } }),
    );
    const other = await unrelated();
    const answered = await attack;
    expect(answered.status, answered.text).toBe(201);
    expect(answered.body.outcome).toBe('success');
    expect(answered.ms).toBeLessThan(ATTACK_MS);
    expect(other.status).toBe(200);
    expect(other.ms).toBeLessThan(UNRELATED_MS);
  });

  it('#18.6 POST /events with rule /^(a+)+$/ over an event holding a 10,000-character value is answered quickly, and so is an unrelated request', async () => {
    const rules = [
      { lhv: 'vars.lead.comments', op: 'matches pattern', rhv: EVIL },
      { lhv: 'type', op: 'is equal to', rhv: 'source' },
    ];
    const attack = timed(req({ path: '/events', key: key(), json: { rules, limit: 10 } }));
    const other = await unrelated();
    const answered = await attack;
    expect(answered.status, answered.text).toBe(200);
    expect(answered.body).toEqual([]);
    expect(answered.ms).toBeLessThan(ATTACK_MS);
    expect(other.status).toBe(200);
    expect(other.ms).toBeLessThan(UNRELATED_MS);
    // The same scan with a pattern that does match finds the event: the rule really ran over it.
    const found = await req({
      path: '/events',
      key: key(),
      json: { rules: [{ ...rules[0], rhv: '^a+!$' }, rules[1]], limit: 10 },
    });
    expect(found.body).toHaveLength(1);
  });

  it('#19.3 an unslashed pattern is a regular expression in an events query: ^AB-\\d{3}$ matches AB-123, not AB-1234', async () => {
    const flow = await req({
      path: '/flows',
      key: key(),
      json: { name: 'References', sources: [{ entity_id: vendor }] },
    });
    expect(flow.status, flow.text).toBe(201);
    for (const reference of ['AB-123', 'AB-1234', 'ab-123']) {
      expect((await req({ path: `/flows/${flow.body.id}/sources/${vendor}/submit`, json: { reference } })).status).toBe(
        201,
      );
    }
    const query = async (rhv: string) => {
      const rules = [
        { lhv: 'vars.lead.reference', op: 'matches pattern', rhv },
        { lhv: 'flow_id', op: 'is equal to', rhv: flow.body.id },
      ];
      const res = await req({ path: '/events', key: key(), json: { rules, limit: 10 } });
      expect(res.status, res.text).toBe(200);
      return res.body.map((e: { vars: { lead: { reference: string } } }) => e.vars.lead.reference).sort();
    };
    expect(await query('^AB-\\d{3}$')).toEqual(['AB-123']);
    expect(await query('/^ab-\\d{3}$/i')).toEqual(['AB-123', 'ab-123']);
  });

  it('#19.3 refuses an invalid pattern when the flow is saved (422) or the query made (400), naming the path', async () => {
    const saved = await req({
      path: '/flows',
      key: key(),
      json: {
        name: 'Bad pattern',
        acceptance_criteria: { op: 'and', rules: [{ lhv: 'lead.comments', op: 'matches pattern', rhv: '^(a+)\\1$' }] },
        sources: [{ entity_id: vendor }],
      },
    });
    expect(saved.status).toBe(422);
    expect(saved.body.errors).toContainEqual({
      path: '/acceptance_criteria/rules/0/rhv',
      message: expect.stringMatching(
        /^Operator "matches pattern" has an invalid pattern \^\(a\+\)\\1\$: error parsing regexp: invalid escape sequence/,
      ),
    });
    const queried = await req({
      path: '/events',
      key: key(),
      json: { rules: [{ lhv: 'vars.lead.email', op: 'matches pattern', rhv: '/x/g' }] },
    });
    expect(queried.status).toBe(400);
    expect(queried.body.errors).toContainEqual({
      path: '/rules/0/rhv',
      message: expect.stringContaining('has flag "g"; only i, m and s are supported'),
    });
  });
});
