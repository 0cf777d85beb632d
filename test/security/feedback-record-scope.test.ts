import { scriptedRecipient } from '@leadroute/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Call, call } from '../support/call';
import { createFixture, type Fixture } from '../support/fixture';
import { BINDINGS, type Binding, startBinding } from '../support/servers';

/**
 * Issue #18.4: two accounts' buyers both answered record ID CRM-1. A return by
 * recipient_record_id must never land on the other account's lead: an ambiguous
 * record ID changes nothing, and `?recipient_id=` names the recipient entity.
 */
const enc = (value: unknown) => encodeURIComponent(JSON.stringify(value));
const byLead = (leadId: string) => enc([{ lhv: 'lead_id', op: 'is equal to', rhv: leadId }]);
const AMBIGUOUS = {
  outcome: 'failure',
  reason:
    'recipient_record_id CRM-1 matches more than one delivered lead; nothing was changed. Name the recipient with ?recipient_id=<recipient entity ID>.',
  price: 0,
};

describe.each(BINDINGS)('#18.4 feedback by recipient_record_id through %s', (name) => {
  let binding: Binding;
  let f: Fixture;
  const scripted = scriptedRecipient();
  let reference = 'CRM-1';
  const req = (c: Call) => call(binding.url, c);
  const accounts = { a: { key: '', buyer: '', lead: '' }, b: { key: '', buyer: '', lead: '' } };

  const entity = async (key: string, body: Record<string, unknown>) =>
    (await req({ path: '/entities', key, json: { module_ids: [], source: null, recipient: null, ...body } })).body
      .id as string;
  /** A flow with feedback on, in the account of `key`; answers its vendor and buyer. */
  const setUp = async (key: string) => {
    const vendor = await entity(key, { name: 'Vendor', source: 'seller' });
    const buyer = await entity(key, { name: 'Buyer', recipient: 'buyer' });
    const flow = await req({
      path: '/flows',
      key,
      json: {
        name: 'F',
        sources: [{ entity_id: vendor }],
        steps: [{ type: 'recipient', entity_id: buyer, module_id: scripted.id, feedback: { enabled: true } }],
      },
    });
    expect(flow.status, flow.text).toBe(201);
    return { vendor, buyer, flow: flow.body.id as string };
  };
  const submit = async (_key: string, s: { vendor: string; flow: string }, lead: Record<string, unknown>) => {
    const res = await req({ path: `/flows/${s.flow}/sources/${s.vendor}/submit`, json: lead });
    expect(res.status, res.text).toBe(201);
    return res.body.lead.id as string;
  };
  const feedbackOf = async (key: string, leadId: string) =>
    (await req({ path: `/events?type=feedback-received&rules=${byLead(leadId)}`, key })).body as unknown[];
  const returned = async (leadId: string) =>
    (await f.service.storage.leads.get(leadId))._unsafeUnwrap()?.returned_at ?? null;
  const feedback = (json: Record<string, unknown>, query = '') =>
    req({ path: `/feedback/standard${query}`, json: { recipient_record_id: 'CRM-1', ...json } });

  beforeAll(async () => {
    scripted.respondWith(() => ({ outcome: 'success', reference }));
    f = await createFixture({ integrations: [scripted] });
    binding = await startBinding(name, f.service);
    accounts.a.key = f.keys.demo;
    accounts.b.key = f.keys.other;
    const a = await setUp(accounts.a.key);
    const b = await setUp(accounts.b.key);
    accounts.a.buyer = a.buyer;
    accounts.b.buyer = b.buyer;
    accounts.a.lead = await submit(accounts.a.key, a, { first_name: 'Alice', email: 'alice@a.example' });
    // Account B's delivery is the newer: the old look-up applied every CRM-1 return to it.
    accounts.b.lead = await submit(accounts.b.key, b, { first_name: 'Bob', email: 'bob@b.example' });
    reference = 'OTHER';
  });
  afterAll(async () => {
    await binding.close();
  });

  it('#18.4 a record ID two accounts share changes nothing and answers 404 with a feedback result', async () => {
    const res = await feedback({ type: 'return', reason: 'Bad phone' });
    expect(res.status).toBe(404);
    expect(res.body).toEqual(AMBIGUOUS);
    expect(await feedbackOf(accounts.a.key, accounts.a.lead)).toEqual([]);
    expect(await feedbackOf(accounts.b.key, accounts.b.lead)).toEqual([]);
    expect(await returned(accounts.a.lead)).toBeNull();
    expect(await returned(accounts.b.lead)).toBeNull();
  });

  it('#18.4 ?recipient_id= names the recipient: the return lands on that account\u2019s lead only', async () => {
    const res = await feedback({ type: 'return', reason: 'Bad phone' }, `?recipient_id=${accounts.a.buyer}`);
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ outcome: 'success', lead: { id: accounts.a.lead, first_name: 'Alice' } });
    expect(await returned(accounts.a.lead)).not.toBeNull();
    expect(await returned(accounts.b.lead)).toBeNull();
    expect(await feedbackOf(accounts.b.key, accounts.b.lead)).toEqual([]);
    const other = await feedback(
      { type: 'conversion', reason: 'Sold' },
      `?recipient_id=${accounts.b.buyer.toUpperCase()}`,
    );
    expect(other.status).toBe(201);
    expect(other.body).toMatchObject({ outcome: 'success', lead: { id: accounts.b.lead } });
    expect(await returned(accounts.b.lead)).toBeNull();
  });

  it('#18.4 an unknown or wrong recipient_id is answered as no match; a malformed one is 422', async () => {
    const none = await feedback({ type: 'return', recipient_record_id: 'NOPE-9' });
    const unknown = await feedback({ type: 'return' }, '?recipient_id=0123456789abcdef01234567');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({
      outcome: 'failure',
      reason: 'No delivered lead has recipient_record_id CRM-1.',
      price: 0,
    });
    expect(none.body).toEqual({
      outcome: 'failure',
      reason: 'No delivered lead has recipient_record_id NOPE-9.',
      price: 0,
    });
    // Account B's vendor is an entity of the right account but not the recipient.
    const lead = (await f.service.storage.leads.get(accounts.b.lead))._unsafeUnwrap();
    const wrongKind = await feedback({ type: 'return' }, `?recipient_id=${lead?.source_id}`);
    expect([wrongKind.status, wrongKind.text]).toEqual([unknown.status, unknown.text]);
    const malformed = await feedback({ type: 'return' }, '?recipient_id=nope');
    expect(malformed.status).toBe(422);
    expect(malformed.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(await returned(accounts.b.lead)).toBeNull();
  });

  it('#18.4 one recipient that answered one record ID for two leads is ambiguous even when named', async () => {
    const flow = await setUp(accounts.a.key);
    reference = 'DUP-7';
    const first = await submit(accounts.a.key, flow, { first_name: 'One' });
    const second = await submit(accounts.a.key, flow, { first_name: 'Two' });
    const res = await req({
      path: `/feedback/standard?recipient_id=${flow.buyer}`,
      json: { type: 'return', recipient_record_id: 'DUP-7' },
    });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      outcome: 'failure',
      reason: 'recipient_record_id DUP-7 matches more than one delivered lead; nothing was changed.',
      price: 0,
    });
    expect(await returned(first)).toBeNull();
    expect(await returned(second)).toBeNull();
  });
});
