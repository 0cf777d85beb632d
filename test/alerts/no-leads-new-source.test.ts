import { describe, expect, it } from 'vitest';
import { HOUR, type Scenario, scenario } from './support';

/** 30 leads an hour from the source, nothing else. */
const leads = (s: Scenario, hoursAgo: number, count = 30) => s.traffic(hoursAgo, [{ count }]);

describe('no-leads', () => {
  it('a flow that normally posts and goes silent for 2 hours raises it, keyed by the run start; critical after 6 hours; a lead resolves it', async () => {
    const s = await scenario();
    for (let h = 0; h <= 168; h++) await leads(s, h);
    s.clock.advance(HOUR); // 16:00Z: the 15:00 hour had leads
    await s.detect();
    expect(await s.alerts()).toEqual([]);

    // Silent from 16:00Z; at 17:00 one hour of silence is not yet a run.
    s.clock.advance(HOUR);
    await s.detect();
    expect(await s.alerts()).toEqual([]);

    s.clock.advance(HOUR); // 18:00Z: two hours silent
    await s.detect();
    const [alert, ...rest] = await s.alerts();
    expect(rest).toEqual([]);
    const key = `no-leads:${s.accountId}:${s.flowId}:2026-01-15T16:00:00.000Z`;
    expect(alert).toMatchObject({
      key,
      type: 'no-leads',
      severity: 'serious',
      flow_id: s.flowId,
      flow_name: 'Auto Leads',
      entity_id: null,
      message: 'Auto Leads has received no leads since 2026-01-15 11:00 (America/New_York)',
      data: { total: 0, hours_silent: 2, expected_per_hour: 30 },
    });
    expect(alert?.detail).toContain('No leads for 2 hours');

    s.clock.advance(4 * HOUR); // 22:00Z: six hours silent
    await s.detect();
    const [critical] = await s.alerts();
    expect(critical).toMatchObject({
      key,
      severity: 'critical',
      first_seen_at: alert?.first_seen_at,
      data: { hours_silent: 6 },
    });

    s.clock.advance(HOUR / 2);
    await leads(s, 0, 3);
    await s.detect();
    expect(await s.alerts()).toEqual([]);
    expect((await s.timeline(key, 1)).map((e) => e.kind)).toEqual(['resolved', 'severity_change', 'created']);
  });

  it('a flow that does not post at this time of the week raises nothing', async () => {
    const s = await scenario();
    // Leads only in the hours that are 20..12 hours before now, every day (none at this time of day).
    for (let day = 0; day < 8; day++) for (let h = 12; h <= 20; h++) await leads(s, day * 24 + h);
    await s.detect();
    expect(await s.alerts()).toEqual([]);
  });

  it('a disabled flow raises nothing', async () => {
    const s = await scenario();
    for (let h = 0; h <= 168; h++) await leads(s, h);
    const flow = (await s.service.flows.get(s.principal, s.flowId))._unsafeUnwrap();
    (await s.service.flows.update(s.principal, s.flowId, { ...flow, enabled: false }))._unsafeUnwrap();
    s.clock.advance(4 * HOUR);
    await s.detect();
    expect(await s.alerts()).toEqual([]);
  });
});

describe('new-source', () => {
  it('the first lead from a source new to the account raises an info alert at once; later leads do not; it resolves after a day', async () => {
    const s = await scenario();
    (await s.service.leads.submit(s.flowId, s.sourceId, { email: 'ann@example.com' }))._unsafeUnwrap();
    const key = `new-source:${s.accountId}:${s.sourceId}`;
    const [alert, ...rest] = await s.alerts();
    expect(rest).toEqual([]);
    // #19.5: not flow-scoped, so flow_id (and flow_name) is null, as the spec's own example says.
    expect(alert).toMatchObject({
      key,
      type: 'new-source',
      severity: 'info',
      entity_id: s.sourceId,
      entity_name: 'Test Vendor',
      flow_id: null,
      flow_name: null,
      message: 'New source: Test Vendor',
      data: { total: 1 },
    });
    expect(alert?.detail).toContain('First lead from Test Vendor at 2026-01-15 10:00 (America/New_York)');

    s.clock.advance(60_000);
    (await s.service.leads.submit(s.flowId, s.sourceId, { email: 'bob@example.com' }))._unsafeUnwrap();
    expect((await s.timeline(key, 10)).map((e) => e.kind)).toEqual(['created']);

    // A pass refreshes today's count from the rollups the recorder wrote.
    await s.detect();
    const [refreshed] = await s.alerts();
    expect(refreshed).toMatchObject({ key, first_seen_at: alert?.first_seen_at, data: { total: 2 } });

    s.clock.advance(24 * HOUR);
    await s.detect();
    expect(await s.alerts()).toEqual([]);
    expect((await s.timeline(key, 1)).map((e) => e.kind)).toEqual(['resolved', 'created']);

    // The source is no longer new.
    (await s.service.leads.submit(s.flowId, s.sourceId, { email: 'cy@example.com' }))._unsafeUnwrap();
    expect(await s.alerts()).toEqual([]);
  });

  it('sources are new per account', async () => {
    const s = await scenario();
    (await s.service.leads.submit(s.flowId, s.sourceId, {}))._unsafeUnwrap();
    const other = await s.service.accounts.create({ name: 'Other', time_zone: 'UTC' });
    const principal = (await s.service.accounts.authenticate(other._unsafeUnwrap().api_key))._unsafeUnwrap();
    expect((await s.service.alerts.list(principal))._unsafeUnwrap()).toEqual([]);
    expect(await s.alerts()).toHaveLength(1);
  });
});
