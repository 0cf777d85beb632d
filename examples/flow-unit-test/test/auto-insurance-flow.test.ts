import { allOf, defineFlow, rule, type TypedFlow } from '@leadroute/core';
import { createTestService, type TestService, unwrap } from '@leadroute/testkit';
import { beforeEach, describe, expect, it } from 'vitest';

/**
 * The flow under test, written with the typed helpers of `@leadroute/core`: a misspelled
 * operator, step type or module config key does not compile. The same function can build
 * the body your application sends to `service.flows.create` in production.
 */
function autoInsuranceFlow(ids: { vendorId: string; buyerId: string }): TypedFlow {
  return defineFlow({
    name: 'Auto insurance',
    acceptance_criteria: allOf(
      rule('lead.state', 'is included in', 'TX, OK, LA'),
      rule('lead.phone_1', 'format is valid'),
    ),
    sources: [{ entity_id: ids.vendorId, pricing: { prices: [{ amount: 4 }] } }],
    steps: [
      {
        type: 'recipient',
        entity_id: ids.buyerId,
        // The testkit's scripted buyer; in production e.g. 'platform-custom.outbound.json' with config: { url }.
        module_id: 'platform-test.outbound.scripted',
        caps: [{ name: 'Ten a day', maximum: 10, duration: 1, duration_units: 'days' }],
        pricing: {
          override: true,
          prices: [{ amount: 18 }, { amount: 25, rule_set: allOf(rule('lead.state', 'is equal to', 'TX')) }],
        },
        mappings: [{ property: 'phone', value: '{{ lead.phone_1 }}' }],
      },
    ],
  });
}

// A real flow, tested the way you would test your own: memory storage, a clock
// you move by hand, and a scripted buyer instead of a network.
describe('auto insurance flow', () => {
  let t: TestService;
  let flowId: string;
  let vendorId: string;

  beforeEach(async () => {
    t = await createTestService({ time_zone: 'America/Chicago' });
    const { sourceId, recipientId } = await t.entities();
    vendorId = sourceId;
    // createFlow throws an Error listing every validation issue (`/steps/0/caps/0/maximum: ...`) if the service refuses
    // it.
    const flow = await t.createFlow(autoInsuranceFlow({ vendorId: sourceId, buyerId: recipientId }));
    flowId = flow.id;
  });

  it('delivers a Texas lead to the buyer at the Texas price', async () => {
    t.recipient.respondWith({ outcome: 'success', reference: 'BUYER-42' });
    const result = await unwrap(
      t.service.leads.submit(flowId, vendorId, { first_name: 'Sam', state: 'tx', phone_1: '(512) 555-0142' }),
    );
    expect(result).toMatchObject({ outcome: 'success', price: 4 });
    expect(t.recipient.received).toHaveLength(1);
    // Leads go out in their normal forms: the phone in E.164, the state as its code.
    expect(t.recipient.received[0]?.lead).toMatchObject({ first_name: 'Sam', state: 'TX', phone: '+15125550142' });
    expect(t.recipient.received[0]?.price).toBe(25);
  });

  it('rejects a lead from outside the states it buys, with a reason a vendor can read', async () => {
    const result = await unwrap(t.service.leads.submit(flowId, vendorId, { state: 'NY', phone_1: '212-555-0100' }));
    expect(result.outcome).toBe('failure');
    expect(result.reason).toMatch(/lead\.state is not included in/);
    expect(t.recipient.received).toHaveLength(0);
  });

  it("stops at the cap, and opens again the next day in the account's time zone", async () => {
    t.clock.set('2026-03-10T23:30:00-05:00');
    for (let i = 0; i < 10; i++)
      await unwrap(t.service.leads.submit(flowId, vendorId, { state: 'OK', phone_1: '405-555-0100' }));
    await unwrap(t.service.leads.submit(flowId, vendorId, { state: 'OK', phone_1: '405-555-0100' }));
    expect(t.recipient.received).toHaveLength(10);
    t.clock.advance(60 * 60 * 1000); // past midnight in Chicago
    await unwrap(t.service.leads.submit(flowId, vendorId, { state: 'OK', phone_1: '405-555-0100' }));
    expect(t.recipient.received).toHaveLength(11);
  });

  it('records every step as an event you can query', async () => {
    t.recipient.queue({ outcome: 'failure', reason: 'Duplicate' });
    const { lead } = await unwrap(t.service.leads.submit(flowId, vendorId, { state: 'LA', phone_1: '504-555-0100' }));
    // Typed as the core's EventRecord: `caps_reached`, `purchase_price`, `transactions`... autocomplete.
    const events = await t.eventsOf(lead.id);
    expect(events.map((e) => `${e.type}:${e.outcome}`)).toEqual(['source:success', 'recipient:failure']);
    expect(events[1]).toMatchObject({ reason: 'Duplicate', caps_reached: false });
  });

  it('answers a vendor posting over HTTP, without starting a server', async () => {
    const res = await t.inject<{ outcome: string; price: number }>({
      method: 'POST',
      url: `/flows/${flowId}/sources/${vendorId}/submit`,
      body: { state: 'TX', phone_1: '512-555-0142' },
      apiKey: false, // intake needs no API key
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ outcome: 'success', price: 4 });
  });
});
