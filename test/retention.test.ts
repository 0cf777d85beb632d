import { createTestService } from '@leadroute/testkit';
import { describe, expect, it } from 'vitest';

// Events are retained 90 days: past that, a lead's events, the lead and its search
// entry are gone, from reads at once and from storage after a purge.
describe('90-day retention', () => {
  it('hides and then purges events, leads and search entries past 90 days, keeping younger ones', async () => {
    const t = await createTestService();
    const { sourceId, recipientId } = await t.entities();
    const flow = (
      await t.service.flows.create(t.principal, {
        name: 'Retention',
        sources: [{ entity_id: sourceId }],
        steps: [{ type: 'recipient', entity_id: recipientId, module_id: t.recipient.id }],
      })
    )._unsafeUnwrap();
    const old = (
      await t.service.leads.submit(flow.id, sourceId, { first_name: 'Oldfield', email: 'old@example.com' })
    )._unsafeUnwrap();
    t.clock.advance(30 * 86_400_000);
    const young = (
      await t.service.leads.submit(flow.id, sourceId, { first_name: 'Youngblood', email: 'young@example.com' })
    )._unsafeUnwrap();
    const oldEvents = (
      await t.service.events.list(t.principal, {
        rules: JSON.stringify([{ lhv: 'lead_id', op: 'is equal to', rhv: old.lead.id }]),
      })
    )._unsafeUnwrap();
    expect(oldEvents).toHaveLength(2);

    t.clock.advance(61 * 86_400_000); // 91 days after the first lead, 61 after the second
    expect((await t.service.events.get(t.principal, oldEvents[0]?.id as string))._unsafeUnwrapErr().type).toBe(
      'NotFound',
    );
    const purged = (await t.service.events.purgeExpired())._unsafeUnwrap();
    expect(purged).toEqual({ events: 2, leads: 1, searchEntries: 1 });
    expect(t.storage.tables.events.size).toBe(2);
    expect((await t.service.storage.leads.get(old.lead.id))._unsafeUnwrap()).toBeUndefined();
    expect((await t.service.storage.leads.get(young.lead.id))._unsafeUnwrap()).toBeDefined();
    const hits = (
      await t.service.search.leads(t.principal, new URLSearchParams({ query: 'oldfield' }))
    )._unsafeUnwrap();
    expect(hits.total).toBe(0);
    expect(
      (await t.service.search.leads(t.principal, new URLSearchParams({ query: 'youngblood' })))._unsafeUnwrap().total,
    ).toBe(1);
  });
});
