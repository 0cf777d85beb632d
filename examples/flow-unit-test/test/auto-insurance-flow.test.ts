import { createTestService, type TestService } from '@leadroute/testkit';
import { beforeEach, describe, expect, it } from 'vitest';

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
    const flow = await t.service.flows.create(t.principal, {
      name: 'Auto insurance',
      acceptance_criteria: {
        op: 'and',
        rules: [
          { lhv: 'lead.state', op: 'is included in', rhv: 'TX, OK, LA' },
          { lhv: 'lead.phone_1', op: 'format is valid' },
        ],
      },
      sources: [{ entity_id: sourceId, pricing: { prices: [{ amount: 4 }] } }],
      steps: [
        {
          type: 'recipient',
          entity_id: recipientId,
          module_id: t.recipient.id,
          caps: [{ name: 'Ten a day', maximum: 10, duration: 1, duration_units: 'days' }],
          pricing: {
            override: true,
            prices: [
              { amount: 18 },
              { amount: 25, rule_set: { op: 'and', rules: [{ lhv: 'lead.state', op: 'is equal to', rhv: 'TX' }] } },
            ],
          },
          mappings: [{ property: 'phone', value: '{{ lead.phone_1 }}' }],
        },
      ],
    });
    flowId = flow._unsafeUnwrap().id;
  });

  it('delivers a Texas lead to the buyer at the Texas price', async () => {
    t.recipient.respondWith({ outcome: 'success', reference: 'BUYER-42' });
    const result = (
      await t.service.leads.submit(flowId, vendorId, { first_name: 'Sam', state: 'tx', phone_1: '(512) 555-0142' })
    )._unsafeUnwrap();
    expect(result).toMatchObject({ outcome: 'success', price: 4 });
    expect(t.recipient.received).toHaveLength(1);
    expect(t.recipient.received[0]?.lead).toMatchObject({ first_name: 'Sam', phone: '(512) 555-0142' });
    expect(t.recipient.received[0]?.price).toBe(25);
  });

  it('rejects a lead from outside the states it buys, with a reason a vendor can read', async () => {
    const result = (
      await t.service.leads.submit(flowId, vendorId, { state: 'NY', phone_1: '212-555-0100' })
    )._unsafeUnwrap();
    expect(result.outcome).toBe('failure');
    expect(result.reason).toMatch(/lead\.state is not included in/);
    expect(t.recipient.received).toHaveLength(0);
  });

  it("stops at the cap, and opens again the next day in the account's time zone", async () => {
    t.clock.set('2026-03-10T23:30:00-05:00');
    for (let i = 0; i < 10; i++)
      (await t.service.leads.submit(flowId, vendorId, { state: 'OK', phone_1: '405-555-0100' }))._unsafeUnwrap();
    (await t.service.leads.submit(flowId, vendorId, { state: 'OK', phone_1: '405-555-0100' }))._unsafeUnwrap();
    expect(t.recipient.received).toHaveLength(10);
    t.clock.advance(60 * 60 * 1000); // past midnight in Chicago
    (await t.service.leads.submit(flowId, vendorId, { state: 'OK', phone_1: '405-555-0100' }))._unsafeUnwrap();
    expect(t.recipient.received).toHaveLength(11);
  });

  it('records every step as an event you can query', async () => {
    t.recipient.queue({ outcome: 'failure', reason: 'Duplicate' });
    const { lead } = (
      await t.service.leads.submit(flowId, vendorId, { state: 'LA', phone_1: '504-555-0100' })
    )._unsafeUnwrap();
    const events = (
      await t.service.events.list(t.principal, {
        rules: JSON.stringify([{ lhv: 'lead_id', op: 'is equal to', rhv: lead.id }]),
        sort: 'asc',
      })
    )._unsafeUnwrap();
    expect(events.map((e) => `${e.type}:${e.outcome}`)).toEqual(['source:success', 'recipient:failure']);
    expect(events[1]).toMatchObject({ reason: 'Duplicate', caps_reached: false });
  });
});
