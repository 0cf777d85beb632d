import { DUPLICATE_REASON, scriptedRecipient } from '@leadroute/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Call } from '../support/call';
import type { Fixture } from '../support/fixture';
import { type Stack, stackCases, startStack } from '../support/stack';

// #24.1 duplicate checking, through the HTTP API on both bindings, on memory and on PostgreSQL.
const CASES = await stackCases('test/http/duplicates.test.ts');

describe.each(CASES)('#24.1 duplicate checking through %s on %s', (bindingName, storageName) => {
  let stack: Stack;
  let f: Fixture;
  let clock = Date.UTC(2026, 2, 10, 15);
  const scripted = scriptedRecipient();
  scripted.respondWith({ outcome: 'success', price: 5 });
  let vendor: string;
  let otherVendor: string;
  let buyer: string;
  const req = (c: Call) => stack.req(c);
  const entity = async (key: string, body: Record<string, unknown>) =>
    (await req({ path: '/entities', key, json: { module_ids: [], source: null, recipient: null, ...body } })).body
      .id as string;
  const flow = async (body: Record<string, unknown>, key = f.keys.demo) => {
    const res = await req({ path: '/flows', key, json: { name: 'Dedupe', ...body } });
    expect(res.status, res.text).toBe(201);
    return res.body as { id: string; duplicate_check?: unknown };
  };
  const recipientStep = () => ({ type: 'recipient', entity_id: buyer, module_id: scripted.id });
  const submit = (flowId: string, lead: Record<string, unknown>, source = vendor) =>
    req({ path: `/flows/${flowId}/sources/${source}/submit`, json: lead });
  let n = 0;
  const email = () => `nora${++n}.${storageName}.${bindingName}@example.com`;

  beforeAll(async () => {
    stack = await startStack(bindingName, storageName, {
      integrations: [scripted],
      clock: { now: () => clock },
    });
    f = stack.f;
    vendor = await entity(f.keys.demo, { name: 'Vendor', source: 'seller' });
    otherVendor = await entity(f.keys.demo, { name: 'Second vendor', source: 'seller' });
    buyer = await entity(f.keys.demo, { name: 'Buyer', recipient: 'buyer' });
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('refuses a lead whose e-mail the account accepted within the window, in its normal form, from any flow or source', async () => {
    const check = { fields: ['lead.email'], duration: 1, duration_units: 'days' };
    const a = await flow({
      duplicate_check: check,
      sources: [{ entity_id: vendor }, { entity_id: otherVendor }],
      steps: [recipientStep()],
    });
    const b = await flow({ duplicate_check: check, sources: [{ entity_id: vendor }], steps: [recipientStep()] });
    expect(a.duplicate_check).toEqual({
      fields: ['email'],
      match: 'all',
      duration: 1,
      duration_units: 'days',
      action: 'reject',
    });
    const address = email();
    expect((await submit(a.id, { email: address })).body).toMatchObject({ outcome: 'success' });
    const again = await submit(a.id, { email: `  ${address.toUpperCase()} ` }, otherVendor);
    expect(again.body).toMatchObject({ outcome: 'failure', reason: DUPLICATE_REASON });
    expect((await submit(b.id, { email: address })).body).toMatchObject({
      outcome: 'failure',
      reason: DUPLICATE_REASON,
    });
    // The refused lead's source event says why, and no recipient saw it.
    const rules = encodeURIComponent(JSON.stringify([{ lhv: 'lead_id', op: 'is equal to', rhv: again.body.lead.id }]));
    const events = await req({ path: `/events?rules=${rules}`, key: f.keys.demo });
    expect(events.body).toEqual([
      expect.objectContaining({ type: 'source', outcome: 'failure', reason: DUPLICATE_REASON }),
    ]);
    expect(events.body[0].vars.duplicate).toBe(true);
    // Past the window it is a new lead again.
    clock += 24 * 3600_000;
    expect((await submit(a.id, { email: address })).body).toMatchObject({ outcome: 'success' });
    // Another account is another list.
    const otherSource = await entity(f.keys.other, { name: 'Their vendor', source: 'seller' });
    const theirs = await flow({ duplicate_check: check, sources: [{ entity_id: otherSource }] }, f.keys.other);
    expect((await submit(theirs.id, { email: address }, otherSource)).body).toMatchObject({ outcome: 'success' });
  });

  it('of two identical leads posted at once, accepts exactly one', async () => {
    const { id } = await flow({
      duplicate_check: { fields: ['email', 'phone_1'], duration: 30, duration_units: 'minutes' },
      sources: [{ entity_id: vendor }],
      steps: [recipientStep()],
    });
    const lead = { email: email(), phone_1: '(512) 555-0142' };
    for (let round = 0; round < 3; round++) {
      const answers = await Promise.all(
        Array.from({ length: 6 }, (_, i) => submit(id, { ...lead, phone_1: i % 2 ? '512.555.0142' : lead.phone_1 })),
      );
      const outcomes = answers.map((a) => a.body.outcome);
      expect(outcomes.filter((o) => o === 'success')).toHaveLength(round === 0 ? 1 : 0);
      expect(outcomes.filter((o) => o === 'failure')).toHaveLength(round === 0 ? 5 : 6);
    }
    // The combination: the same e-mail with another phone is not a duplicate.
    expect((await submit(id, { ...lead, phone_1: '512-555-0199' })).body.outcome).toBe('success');
  });

  it('flags instead of refusing when asked, for rules to read as duplicate', async () => {
    const { id } = await flow({
      duplicate_check: {
        fields: ['email', 'phone_1'],
        match: 'any',
        duration: 1,
        duration_units: 'hours',
        action: 'flag',
      },
      sources: [{ entity_id: vendor }],
      steps: [
        {
          type: 'filter',
          entity_id: buyer,
          rule_set: { op: 'and', rules: [{ lhv: 'duplicate', op: 'is true' }], reason: 'Seen before' },
        },
        recipientStep(),
      ],
    });
    const address = email();
    expect((await submit(id, { email: address })).body.outcome).toBe('success');
    // `any`: the phone is new but the e-mail matches.
    const flagged = await submit(id, { email: address, phone_1: '5125550177' });
    expect(flagged.body).toMatchObject({ outcome: 'failure', reason: 'Seen before' });
  });

  it('does not count a lead that was not accepted', async () => {
    const { id } = await flow({
      duplicate_check: { fields: ['email'], duration: 1, duration_units: 'days' },
      sources: [{ entity_id: vendor }],
      steps: [
        {
          type: 'filter',
          entity_id: buyer,
          rule_set: { op: 'and', rules: [{ lhv: 'lead.state', op: 'is equal to', rhv: 'ZZ' }], reason: 'No ZZ' },
        },
        recipientStep(),
      ],
    });
    const address = email();
    expect((await submit(id, { email: address, state: 'ZZ' })).body).toMatchObject({
      outcome: 'failure',
      reason: 'No ZZ',
    });
    expect((await submit(id, { email: address, state: 'TX' })).body.outcome).toBe('success');
    expect((await submit(id, { email: address, state: 'TX' })).body.reason).toBe(DUPLICATE_REASON);
    // A lead without the field is not checked.
    expect((await submit(id, { state: 'TX' })).body.outcome).toBe('success');
    expect((await submit(id, { state: 'TX' })).body.outcome).toBe('success');
  });

  it('refuses a malformed check with 422 at its path', async () => {
    const res = await req({
      path: '/flows',
      key: f.keys.demo,
      json: { name: 'x', duplicate_check: { fields: [], duration: 0, duration_units: 'days', action: 'drop' } },
    });
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: { path: string }) => e.path).sort()).toEqual([
      '/duplicate_check/action',
      '/duplicate_check/duration',
      '/duplicate_check/fields',
    ]);
  });
});
