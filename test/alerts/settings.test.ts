import { DEFAULT_ALERT_SETTINGS } from '@leadroute/core';
import { describe, expect, it } from 'vitest';
import { HOUR, type Scenario, scenario } from './support';

/** A week of normal traffic, then an hour in which the recipient fails 30 of 40 leads (serious). */
async function failingRecipient(s: Scenario, hits = 30): Promise<void> {
  await s.normalWeek();
  const step = { kind: 'recipient' as const, recipient_id: s.recipientId };
  await s.traffic(0, [{ count: 40 }, { ...step, count: 40 - hits }, { ...step, outcome: 'failure', count: hits }]);
  s.clock.advance(HOUR);
}

describe('alert settings', () => {
  it('merge platform defaults, the operator changes for all accounts and those for one account', async () => {
    const s = await scenario();
    const alerts = s.service.alerts;
    (
      await alerts.settings.setPlatformOverrides({
        types: { 'recipient-failure': { min_volume: 50, bands: { critical: 0.8 } }, 'no-leads': { zero_run_hours: 3 } },
      })
    )._unsafeUnwrap();
    (
      await alerts.settings.setAccountOverrides(s.accountId, {
        email_to: ['ops@example.com'],
        types: { 'recipient-failure': { min_volume: 10, messages: { default: '{{ entity_name }} fails' } } },
      })
    )._unsafeUnwrap();
    const effective = (await alerts.settings.effective(s.accountId))._unsafeUnwrap();
    const rf = effective.types['recipient-failure'];
    expect(rf).toMatchObject({
      min_volume: 10,
      min_rate: 0.25,
      bands: { critical: 0.8, serious: 0.5 },
      messages: { default: '{{ entity_name }} fails' },
      enabled: true,
      send_email: true,
    });
    expect(rf.details).toEqual(DEFAULT_ALERT_SETTINGS.types['recipient-failure'].details);
    expect(effective.types['no-leads'].zero_run_hours).toBe(3);
    expect(effective.email_to).toEqual(['ops@example.com']);
    // Another account sees the platform layer only.
    const other = (await s.service.accounts.create({ name: 'Other' }))._unsafeUnwrap().account;
    const otherSettings = (await alerts.settings.effective(other.id))._unsafeUnwrap();
    expect(otherSettings.types['recipient-failure']).toMatchObject({
      min_volume: 50,
      messages: DEFAULT_ALERT_SETTINGS.types['recipient-failure'].messages,
    });
    expect(otherSettings.email_to).toEqual([]);
    // Replacing the account's overrides drops the earlier ones.
    (await alerts.settings.setAccountOverrides(s.accountId, {}))._unsafeUnwrap();
    expect((await alerts.settings.effective(s.accountId))._unsafeUnwrap().types['recipient-failure'].min_volume).toBe(
      50,
    );
  });

  it('thresholds come from the settings: a platform minimum volume above the traffic stops the alert; the account lowers it again', async () => {
    const s = await scenario();
    await failingRecipient(s);
    (
      await s.service.alerts.settings.setPlatformOverrides({ types: { 'recipient-failure': { min_volume: 100 } } })
    )._unsafeUnwrap();
    await s.detect();
    expect(await s.alerts()).toEqual([]);
    (
      await s.service.alerts.settings.setAccountOverrides(s.accountId, {
        types: {
          'recipient-failure': { min_volume: 30, messages: { default: '{{ entity_name }}: {{ rate_pct }} failing' } },
        },
      })
    )._unsafeUnwrap();
    await s.detect();
    expect(await s.alerts()).toMatchObject([{ type: 'recipient-failure', message: 'Test Buyer: 75% failing' }]);
  });

  it('a type disabled for an account is not evaluated, and its active alert resolves; other accounts are unaffected', async () => {
    const s = await scenario();
    await failingRecipient(s);
    await s.detect();
    const [alert] = await s.alerts();
    expect(alert?.type).toBe('recipient-failure');
    (
      await s.service.alerts.settings.setAccountOverrides(s.accountId, {
        types: { 'recipient-failure': { enabled: false } },
      })
    )._unsafeUnwrap();
    // A pass a second later: entries of one instant are in ID order, which is random (#18.1).
    s.clock.advance(1000);
    await s.detect();
    expect(await s.alerts()).toEqual([]);
    expect((await s.timeline(alert?.key ?? '', 5)).map((e) => e.kind)).toEqual(['resolved', 'created']);
    // Still disabled: a worse spike raises nothing.
    await s.traffic(0, [
      { count: 40 },
      { kind: 'recipient', recipient_id: s.recipientId, outcome: 'failure', count: 40 },
    ]);
    s.clock.advance(HOUR);
    await s.detect();
    expect(await s.alerts()).toEqual([]);
    expect(
      (await s.service.alerts.settings.effective(s.accountId))._unsafeUnwrap().types['recipient-failure'].enabled,
    ).toBe(false);
  });

  it('alerting switched off for the account evaluates nothing', async () => {
    const s = await scenario();
    await failingRecipient(s);
    (await s.service.alerts.settings.setAccountOverrides(s.accountId, { enabled: false }))._unsafeUnwrap();
    await s.detect();
    expect(await s.alerts()).toEqual([]);
    (await s.service.leads.submit(s.flowId, s.sourceId, {}))._unsafeUnwrap();
    expect(await s.alerts()).toEqual([]);
  });

  it('refuses overrides with unknown types or settings, wrong types and broken templates', async () => {
    const s = await scenario();
    const bad = [
      { types: { 'no-such-type': {} } },
      { types: { 'recipient-failure': { min_volum: 3 } } },
      { types: { 'recipient-failure': { min_rate: 2 } } },
      { types: { 'recipient-failure': { enabled: 'yes' } } },
      { types: { 'recipient-failure': { severity: 'huge' } } },
      { types: { 'recipient-failure': { bands: { fatal: 0.5 } } } },
      { types: { 'recipient-failure': { messages: { default: '{{ entity_name ' } } } },
      { email_to: ['not an address'] },
      { colour: 'red' },
    ];
    for (const overrides of bad) {
      // As a JavaScript caller would hand them over: their types refuse them.
      const result = await s.service.alerts.settings.setPlatformOverrides(overrides as never);
      expect(result._unsafeUnwrapErr().type, JSON.stringify(overrides)).toBe('Validation');
    }
    expect(
      (await s.service.alerts.settings.setAccountOverrides('aaaaaaaaaaaaaaaaaaaaaaaa', {}))._unsafeUnwrapErr().type,
    ).toBe('NotFound');
  });
});

describe('alert e-mail', () => {
  it('goes out for a serious alert when created and when escalated, never on a refresh, and only with send_email', async () => {
    const s = await scenario();
    (
      await s.service.alerts.settings.setAccountOverrides(s.accountId, { email_to: ['ops@example.com'] })
    )._unsafeUnwrap();
    await failingRecipient(s);
    await s.detect();
    expect(s.outbox.messages).toHaveLength(1);
    expect(s.outbox.messages[0]).toMatchObject({
      to: ['ops@example.com'],
      subject: '[Test Account] Serious alert: Test Buyer is failing leads',
    });
    expect(s.outbox.messages[0]?.headers?.['X-Leadroute-Alert-Key']).toBe(
      `recipient-failure:${s.accountId}:${s.recipientId}`,
    );

    // Refresh at the same severity: nothing.
    const step = { kind: 'recipient' as const, recipient_id: s.recipientId };
    await s.traffic(0, [{ count: 40 }, { ...step, count: 10 }, { ...step, outcome: 'failure', count: 30 }]);
    s.clock.advance(HOUR);
    await s.detect();
    expect(s.outbox.messages).toHaveLength(1);

    // Escalation to critical: one more.
    await s.traffic(0, [{ count: 40 }, { ...step, outcome: 'failure', count: 40 }]);
    s.clock.advance(HOUR);
    await s.detect();
    expect(s.outbox.messages).toHaveLength(2);
    expect(s.outbox.messages[1]?.subject).toBe(
      '[Test Account] Alert escalated to critical: Test Buyer is failing leads',
    );
    expect(s.outbox.messages[1]?.text).toContain('from serious to critical');

    // Down to serious and up again within the episode: already told about critical.
    await s.traffic(0, [{ count: 40 }, { ...step, count: 10 }, { ...step, outcome: 'failure', count: 30 }]);
    s.clock.advance(HOUR);
    await s.detect();
    await s.traffic(0, [{ count: 40 }, { ...step, outcome: 'failure', count: 40 }]);
    s.clock.advance(HOUR);
    await s.detect();
    expect(s.outbox.messages).toHaveLength(2);
  });

  it("#19.13 goes to the account's notification address when the settings name no email_to; email_to wins when set", async () => {
    const s = await scenario();
    (await s.service.accounts.update(s.accountId, { notification_email: 'owner@example.com' }))._unsafeUnwrap();
    await failingRecipient(s);
    await s.detect();
    expect(s.outbox.messages.map((m) => m.to)).toEqual([['owner@example.com']]);

    const t = await scenario();
    (await t.service.accounts.update(t.accountId, { notification_email: 'owner@example.com' }))._unsafeUnwrap();
    (
      await t.service.alerts.settings.setAccountOverrides(t.accountId, { email_to: ['ops@example.com'] })
    )._unsafeUnwrap();
    await failingRecipient(t);
    await t.detect();
    expect(t.outbox.messages.map((m) => m.to)).toEqual([['ops@example.com']]);

    // Neither: the alert is raised and nobody is e-mailed.
    const u = await scenario();
    await failingRecipient(u);
    await u.detect();
    expect((await u.alerts()).map((a) => a.type)).toEqual(['recipient-failure']);
    expect(u.outbox.messages).toHaveLength(0);
  });

  it('#19.13 an account notification address is set at creation or by update, checked, and removed with null', async () => {
    const s = await scenario();
    const created = (
      await s.service.accounts.create({ name: 'With address', notification_email: 'a@example.com' })
    )._unsafeUnwrap();
    expect(created.account.notification_email).toBe('a@example.com');
    expect((await s.service.accounts.get(created.account.id))._unsafeUnwrap().notification_email).toBe('a@example.com');
    expect(
      (await s.service.accounts.update(created.account.id, { notification_email: 'not an address' }))._unsafeUnwrapErr()
        .type,
    ).toBe('Validation');
    const cleared = (await s.service.accounts.update(created.account.id, { notification_email: null }))._unsafeUnwrap();
    expect(cleared).not.toHaveProperty('notification_email');
    expect((await s.service.accounts.get(created.account.id))._unsafeUnwrap()).not.toHaveProperty('notification_email');
  });

  it('is not sent when send_email is off for the type, nor for warnings', async () => {
    const s = await scenario();
    (
      await s.service.alerts.settings.setAccountOverrides(s.accountId, {
        email_to: ['ops@example.com'],
        types: { 'recipient-failure': { send_email: false } },
      })
    )._unsafeUnwrap();
    await failingRecipient(s);
    await s.detect();
    expect((await s.alerts()).map((a) => [a.type, a.severity])).toEqual([['recipient-failure', 'serious']]);

    const w = await scenario();
    (
      await w.service.alerts.settings.setAccountOverrides(w.accountId, { email_to: ['ops@example.com'] })
    )._unsafeUnwrap();
    await w.normalWeek();
    const step = { kind: 'recipient' as const, recipient_id: w.recipientId };
    await w.traffic(0, [{ count: 40 }, { ...step, count: 10 }, { ...step, outcome: 'skip', count: 30 }]);
    w.clock.advance(HOUR);
    await w.detect();
    expect((await w.alerts()).map((a) => [a.type, a.severity])).toEqual([['recipient-skip', 'warning']]);
    expect([...s.outbox.messages, ...w.outbox.messages]).toHaveLength(0);
  });
});
