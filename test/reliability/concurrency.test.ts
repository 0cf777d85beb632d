import { scriptedRecipient } from '@leadroute/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../support/call';
import { createFixture, type Fixture } from '../support/fixture';
import { type Binding, startBinding } from '../support/servers';

// Invariants under hundreds of simultaneous requests: caps and ping limits are
// never exceeded, a lead is returned at most once, IDs never collide, and every
// accepted lead has all its events.
describe('concurrency over real sockets', () => {
  let binding: Binding;
  let f: Fixture;
  const buyer = scriptedRecipient();
  let vendorId: string;
  let buyerId: string;

  beforeAll(async () => {
    // A recipient that takes a moment, so deliveries overlap.
    buyer.respondWith(async () => {
      await new Promise((r) => setTimeout(r, 5));
      return { outcome: 'success' };
    });
    f = await createFixture({ integrations: [buyer] });
    binding = await startBinding('fastify', f.service);
    const entity = async (body: object) =>
      (
        await call(binding.url, {
          path: '/entities',
          key: f.keys.demo,
          json: { module_ids: [], source: null, recipient: null, ...body },
        })
      ).body.id as string;
    vendorId = await entity({ name: 'Vendor', source: 'seller' });
    buyerId = await entity({ name: 'Buyer', recipient: 'buyer' });
  });
  afterAll(() => binding.close());

  const flow = async (body: object) =>
    (
      await call(binding.url, {
        path: '/flows',
        key: f.keys.demo,
        json: { sources: [{ entity_id: vendorId }], ...body },
      })
    ).body.id as string;
  const burst = (n: number, path: string) =>
    Promise.all(
      Array.from({ length: n }, (_, i) =>
        call(binding.url, { path, json: { first_name: `P${i}`, email: `p${i}@example.com` } }),
      ),
    );

  it('never delivers more leads than a cap allows, and every lead gets a distinct ID and all its events', async () => {
    const flowId = await flow({
      name: 'Cap race',
      steps: [
        {
          type: 'recipient',
          entity_id: buyerId,
          module_id: buyer.id,
          caps: [{ name: 'Fifty', maximum: 50, duration: 1, duration_units: 'days' }],
        },
      ],
    });
    const before = buyer.received.length;
    const answers = await burst(300, `/flows/${flowId}/sources/${vendorId}/submit`);
    expect(answers.every((a) => a.status === 201 && a.body.outcome === 'success')).toBe(true);
    const leadIds = answers.map((a) => a.body.lead.id as string);
    expect(new Set(leadIds).size).toBe(300);
    expect(buyer.received.length - before).toBe(50);
    const events = (
      await call(binding.url, {
        path: '/events',
        key: f.keys.demo,
        json: { rules: [{ lhv: 'flow_id', op: 'is equal to', rhv: flowId }], limit: 1000 },
      })
    ).body as { id: string; lead_id: string; type: string; outcome: string }[];
    expect(new Set(events.map((e) => e.id)).size).toBe(events.length);
    expect(events.filter((e) => e.type === 'source')).toHaveLength(300);
    expect(events.filter((e) => e.type === 'recipient' && e.outcome === 'success')).toHaveLength(50);
    expect(events.filter((e) => e.type === 'recipient' && e.outcome === 'skip')).toHaveLength(250);
    for (const id of leadIds)
      expect(
        events
          .filter((e) => e.lead_id === id)
          .map((e) => e.type)
          .sort(),
      ).toEqual(['recipient', 'source']);
  }, 60_000);

  it('returns a lead at most once, whatever number of returns arrive together', async () => {
    const flowId = await flow({
      name: 'Return race',
      steps: [{ type: 'recipient', entity_id: buyerId, module_id: buyer.id, feedback: { enabled: true } }],
    });
    const lead = (
      await call(binding.url, { path: `/flows/${flowId}/sources/${vendorId}/submit`, json: { first_name: 'Ret' } })
    ).body.lead.id as string;
    const delivery = (
      await call(binding.url, {
        path: '/events',
        key: f.keys.demo,
        json: { rules: [{ lhv: 'lead_id', op: 'is equal to', rhv: lead }], type: ['recipient'] },
      })
    ).body[0].id as string;
    const answers = await Promise.all(
      Array.from({ length: 200 }, () =>
        call(binding.url, { path: `/feedback?event_id=${delivery}`, json: { type: 'return', reason: 'duplicate' } }),
      ),
    );
    expect(answers.every((a) => a.status === 201)).toBe(true);
    expect(answers.filter((a) => a.body.outcome === 'success')).toHaveLength(1);
  }, 60_000);

  it('never answers more successful pings than a ping limit allows', async () => {
    const flowId = await flow({
      name: 'Ping race',
      ping_limits: [{ name: 'Twenty', maximum: 20, duration: 1, duration_units: 'hours' }],
      steps: [],
    });
    const answers = await burst(200, `/flows/${flowId}/sources/${vendorId}/ping`);
    expect(answers.filter((a) => a.body.outcome === 'success')).toHaveLength(20);
    expect(answers.filter((a) => a.body.reason === 'Ping limit reached.')).toHaveLength(180);
  }, 60_000);
});
