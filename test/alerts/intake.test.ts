import { createTestService, manualClock } from '@leadroute/testkit';
import { describe, expect, it } from 'vitest';

const _HOUR = 3_600_000;

describe('alerts from leads submitted through intake (recorder -> rollups -> detector)', () => {
  it('a recipient that starts failing and a source that starts sending duplicates raise their alerts; recovery resolves them', async () => {
    const t = await createTestService({ clock: manualClock('2026-01-15T14:00:00Z') });
    const { sourceId, recipientId } = await t.entities();
    const flow = (
      await t.service.flows.create(t.principal, {
        name: 'Auto Leads',
        sources: [{ entity_id: sourceId }],
        steps: [
          {
            type: 'filter',
            entity_id: recipientId,
            rule_set: {
              op: 'and',
              reason: 'Duplicate lead',
              rules: [{ lhv: 'lead.email', op: 'is equal to', rhv: 'dup@example.com' }],
            },
          },
          { type: 'recipient', entity_id: recipientId, module_id: t.recipient.id },
        ],
      })
    )._unsafeUnwrap();
    const submit = async (n: number, email: string) => {
      for (let i = 0; i < n; i++) {
        t.clock.advance(1000);
        (await t.service.leads.submit(flow.id, sourceId, { email }))._unsafeUnwrap();
      }
    };
    // 14:00-15:00: 22 leads the recipient takes, 18 it fails, 15 duplicates.
    t.recipient.respondWith({ outcome: 'success' });
    await submit(22, 'ann@example.com');
    t.recipient.respondWith({ outcome: 'failure', reason: 'Rejected by buyer' });
    await submit(18, 'bob@example.com');
    await submit(15, 'dup@example.com');
    t.clock.set('2026-01-15T15:00:00Z');
    (await t.service.alerts.detect())._unsafeUnwrap();
    const alerts = (await t.service.alerts.list(t.principal))._unsafeUnwrap();
    expect(alerts.map((a) => [a.type, a.severity])).toEqual([
      ['recipient-failure', 'warning'],
      ['duplicate-leads', 'warning'],
      ['new-source', 'info'],
    ]);
    expect(alerts[0]).toMatchObject({
      key: `recipient-failure:${t.principal.account.id}:${recipientId}`,
      entity_name: 'Test Buyer',
      data: { total: 40, count: 18, rate: 0.45 },
    });
    expect(alerts[1]).toMatchObject({
      key: `duplicate-leads:${t.principal.account.id}:${sourceId}`,
      data: { total: 55, count: 15, rate: 0.2727 },
      outcome: 'failure',
    });
    // Warnings sort by today's affected volume: 18 failures before 15 duplicates.

    // The next hour is clean.
    t.recipient.respondWith({ outcome: 'success' });
    await submit(30, 'cy@example.com');
    t.clock.set('2026-01-15T16:00:00Z');
    (await t.service.alerts.detect())._unsafeUnwrap();
    expect((await t.service.alerts.list(t.principal))._unsafeUnwrap().map((a) => a.type)).toEqual(['new-source']);
  });
});
