import { NO_BID, scriptedRecipient } from '@leadroute/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Call } from '../support/call';
import type { Fixture } from '../support/fixture';
import { type Stack, stackCases, startStack } from '../support/stack';

// #24.5 ping/post auctions through the HTTP API on both bindings, on memory and PostgreSQL.
const CASES = await stackCases('test/http/auctions.test.ts');

describe.each(CASES)('#24.5 ping/post auctions through %s on %s', (bindingName, storageName) => {
  let stack: Stack;
  let f: Fixture;
  let clock = Date.UTC(2026, 2, 10, 15);
  const scripted = scriptedRecipient();
  scripted.respondWith({ outcome: 'success' });
  let vendor: string;
  let buyers: string[];
  let flowId: string;
  const req = (c: Call) => stack.req(c);
  const entity = async (body: Record<string, unknown>, key = f.keys.demo) =>
    (await req({ path: '/entities', key, json: { module_ids: [], source: null, recipient: null, ...body } })).body
      .id as string;
  const ping = (lead: Record<string, unknown>, source = vendor, flow = flowId) =>
    req({ path: `/flows/${flow}/sources/${source}/ping`, json: lead });
  const post = (lead: Record<string, unknown>, source = vendor, flow = flowId) =>
    req({ path: `/flows/${flow}/sources/${source}/submit`, json: lead });
  const eventsOf = async (leadId: string) => {
    const rules = encodeURIComponent(JSON.stringify([{ lhv: 'lead_id', op: 'is equal to', rhv: leadId }]));
    return (await req({ path: `/events?rules=${rules}`, key: f.keys.demo })).body as {
      type: string;
      outcome: string;
      recipient_id: string | null;
      sale_price?: number;
      revenue?: number;
      vars: Record<string, unknown>;
    }[];
  };
  const priced = (buyer: string, amount: number, state?: string) => ({
    type: 'recipient',
    entity_id: buyer,
    module_id: scripted.id,
    pricing: { override: false, prices: [{ amount }] },
    ...(state ? { rule_set: { op: 'and', rules: [{ lhv: 'lead.state', op: 'is equal to', rhv: state }] } } : {}),
  });

  beforeAll(async () => {
    stack = await startStack(bindingName, storageName, {
      integrations: [scripted],
      clock: { now: () => clock },
    });
    f = stack.f;
    vendor = await entity({ name: 'Vendor', source: 'seller' });
    buyers = [
      await entity({ name: 'Buyer 1', recipient: 'buyer' }),
      await entity({ name: 'Buyer 2', recipient: 'buyer' }),
      await entity({ name: 'Buyer 3', recipient: 'buyer' }),
    ];
    const res = await req({
      path: '/flows',
      key: f.keys.demo,
      json: {
        name: 'Auction',
        ping_validity_seconds: 60,
        sources: [{ entity_id: vendor }],
        // Buyer 1 bids 10; buyers 2 and 3 bid 15 for Texas (a tie: the earlier step wins); buyer 3 bids 20 for Oklahoma.
        steps: [
          priced(buyers[0] as string, 10),
          priced(buyers[1] as string, 15, 'TX'),
          priced(buyers[2] as string, 15, 'TX'),
          priced(buyers[2] as string, 20, 'OK'),
        ],
      },
    });
    expect(res.status, res.text).toBe(201);
    flowId = res.body.id;
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('answers the highest bid with a ping_id; the post that names it goes to that buyer alone, at its bid', async () => {
    const bid = await ping({ state: 'TX', postal_code: '78701' });
    expect(bid.body).toMatchObject({ outcome: 'success', price: 15, ping_id: bid.body.lead.id });
    expect(Date.parse(bid.body.expires_at)).toBe(clock + 60_000);
    const before = scripted.received.length;
    clock += 5_000;
    const sold = await post({
      ping_id: bid.body.ping_id,
      state: 'TX',
      postal_code: '78701',
      email: 'nora@example.com',
    });
    expect(sold.body).toMatchObject({ outcome: 'success', price: 15 });
    expect(scripted.received.length - before).toBe(1);
    const deliveries = (await eventsOf(sold.body.lead.id)).filter((e) => e.type === 'recipient');
    expect(deliveries).toEqual([expect.objectContaining({ recipient_id: buyers[1], outcome: 'success', revenue: 15 })]);
    // Oklahoma: buyer 3's 20 beats buyer 1's 10.
    const ok = await ping({ state: 'OK' });
    expect(ok.body).toMatchObject({ price: 20 });
    const okPost = await post({ ping_id: ok.body.ping_id, state: 'OK' });
    expect((await eventsOf(okPost.body.lead.id)).filter((e) => e.type === 'recipient')).toEqual([
      expect.objectContaining({ recipient_id: buyers[2], revenue: 20 }),
    ]);
  });

  it('refuses a second post, an expired, unknown or foreign ping_id, and a post that does not match its ping', async () => {
    const bid = await ping({ state: 'TX', postal_code: '78701' });
    const id = bid.body.ping_id as string;
    expect((await post({ ping_id: id, state: 'TX', postal_code: '90210' })).body).toMatchObject({
      outcome: 'failure',
      reason: 'The post does not match its ping: postal_code differ.',
    });
    expect((await post({ ping_id: id, state: 'tx', postal_code: '78701' })).body.outcome).toBe('success');
    expect((await post({ ping_id: id, state: 'TX', postal_code: '78701' })).body).toMatchObject({
      outcome: 'failure',
      reason: 'This ping_id was already posted.',
    });
    const late = await ping({ state: 'TX' });
    clock += 61_000;
    expect((await post({ ping_id: late.body.ping_id, state: 'TX' })).body.reason).toBe(
      'The ping expired: post within 60 seconds of it.',
    );
    for (const unknown of ['5fd4e3b7c1a2b3c4d5e6f701', 'nope', 42])
      expect((await post({ ping_id: unknown, state: 'TX' })).body.reason).toMatch(/^Unknown ping_id/);
    // Another account's ping is unknown here, with the same words.
    const theirVendor = await entity({ name: 'Their vendor', source: 'seller' }, f.keys.other);
    const theirBuyer = await entity({ name: 'Their buyer', recipient: 'buyer' }, f.keys.other);
    const theirs = await req({
      path: '/flows',
      key: f.keys.other,
      json: { name: 'Theirs', sources: [{ entity_id: theirVendor }], steps: [priced(theirBuyer, 50)] },
    });
    const theirPing = await ping({ state: 'TX' }, theirVendor, theirs.body.id);
    expect(theirPing.body.price).toBe(50);
    expect((await post({ ping_id: theirPing.body.ping_id, state: 'TX' })).body.reason).toMatch(/^Unknown ping_id/);
  });

  it('answers a ping no recipient would take with a failure and no ping_id', async () => {
    const none = await ping({ state: 'CA', postal_code: '90210' });
    expect(none.body).toMatchObject({ outcome: 'success', price: 10 });
    const res = await req({
      path: '/flows',
      key: f.keys.demo,
      json: { name: 'Texas only', sources: [{ entity_id: vendor }], steps: [priced(buyers[1] as string, 15, 'TX')] },
    });
    const nobody = await ping({ state: 'CA' }, vendor, res.body.id);
    expect(nobody.body).toMatchObject({ outcome: 'failure', reason: NO_BID, price: 0 });
    expect(nobody.body.ping_id).toBeUndefined();
  });
});
