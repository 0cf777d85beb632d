import type { RollupRow } from '@leadroute/core';
import { describe, expect, it } from 'vitest';
import { HOUR, type Scenario, scenario } from './support';

/** Traffic of one hour with `hits` of 40 leads hit by the condition. */
type Spike = (s: Scenario, hits: number) => Partial<RollupRow>[];

interface RateCase {
  readonly type: string;
  /** Which entity the key names. */
  readonly unit: 'source' | 'recipient';
  readonly spike: Spike;
  /** Hits of 40 at creation, when persisting, and what severities they give. */
  readonly created: { hits: number; severity: string };
  readonly persisted: { hits: number; severity: string };
  readonly message: string;
  readonly kinds: readonly string[];
  readonly extra?: (s: Scenario) => Partial<RollupRow>[];
  readonly alert?: Record<string, unknown>;
}

const recipientStep = (s: Scenario) => ({ kind: 'recipient' as const, recipient_id: s.recipientId, step_id: 'step01' });
const sourceCells =
  (outcome: string, category: string): Spike =>
  (_s, hits) => [{ count: 40 - hits }, { outcome, category, count: hits }];
/** A consent-certificate step (entity: the recipient) that hits `hits` of the source's 40 leads. */
const certStep =
  (outcome: string, category: string): Spike =>
  (s, hits) => [
    { count: 40 },
    { ...recipientStep(s), count: 40 - hits },
    { ...recipientStep(s), outcome, category, count: hits },
  ];

const CASES: RateCase[] = [
  {
    type: 'recipient-failure',
    unit: 'recipient',
    spike: (s, hits) => [
      { count: 40 },
      { ...recipientStep(s), count: 40 - hits },
      { ...recipientStep(s), outcome: 'failure', count: hits },
    ],
    created: { hits: 30, severity: 'serious' },
    persisted: { hits: 38, severity: 'critical' },
    message: 'Test Buyer is failing leads',
    kinds: ['created', 'severity_change', 'resolved'],
  },
  {
    type: 'recipient-skip',
    unit: 'recipient',
    spike: (s, hits) => [
      { count: 40 },
      { ...recipientStep(s), count: 40 - hits },
      { ...recipientStep(s), outcome: 'skip', count: hits },
    ],
    created: { hits: 30, severity: 'warning' },
    persisted: { hits: 38, severity: 'serious' },
    message: 'Test Buyer is skipping leads',
    kinds: ['created', 'severity_change', 'resolved'],
    alert: { outcome: 'skip' },
  },
  {
    type: 'source-rejects',
    unit: 'source',
    spike: sourceCells('failure', ''),
    created: { hits: 30, severity: 'serious' },
    persisted: { hits: 30, severity: 'serious' },
    message: 'Leads from Test Vendor are being rejected',
    kinds: ['created', 'resolved'],
    alert: { kind: 'failure' },
  },
  {
    type: 'duplicate-leads',
    unit: 'source',
    spike: sourceCells('failure', 'duplicate'),
    created: { hits: 24, severity: 'serious' },
    persisted: { hits: 12, severity: 'warning' },
    message: 'Test Vendor is sending duplicate leads',
    kinds: ['created', 'severity_change', 'resolved'],
    alert: { outcome: 'failure' },
  },
  {
    type: 'invalid-email',
    unit: 'source',
    spike: sourceCells('failure', 'invalid-email'),
    created: { hits: 24, severity: 'serious' },
    persisted: { hits: 12, severity: 'warning' },
    message: 'Test Vendor is sending invalid e-mail addresses',
    kinds: ['created', 'severity_change', 'resolved'],
  },
  {
    type: 'invalid-phone',
    unit: 'source',
    spike: sourceCells('failure', 'invalid-phone'),
    created: { hits: 12, severity: 'warning' },
    persisted: { hits: 24, severity: 'serious' },
    message: 'Test Vendor is sending invalid phone numbers',
    kinds: ['created', 'severity_change', 'resolved'],
  },
  {
    type: 'missing-tf-cert',
    unit: 'source',
    spike: certStep('skip', 'missing-certificate'),
    created: { hits: 24, severity: 'serious' },
    persisted: { hits: 24, severity: 'serious' },
    message: 'Leads from Test Vendor are missing TrustedForm certificates',
    kinds: ['created', 'resolved'],
    alert: { outcome: 'skip' },
  },
  {
    type: 'tf-failures',
    unit: 'source',
    spike: certStep('failure', 'certificate-failure'),
    created: { hits: 10, severity: 'warning' },
    persisted: { hits: 30, severity: 'serious' },
    message: 'TrustedForm checks are failing for leads from Test Vendor',
    kinds: ['created', 'severity_change', 'resolved'],
    alert: { outcome: 'failure' },
  },
];

describe.each(CASES)('$type', (c) => {
  const keyOf = (s: Scenario) => `${c.type}:${s.accountId}:${c.unit === 'source' ? s.sourceId : s.recipientId}`;

  it('normal traffic raises nothing; a spike creates it; persistence refreshes it; recovery resolves it', async () => {
    const s = await scenario();
    await s.normalWeek();
    await s.normalHour(0);
    s.clock.advance(HOUR); // the normal hour is now the window
    await s.detect();
    expect(await s.alerts()).toEqual([]);

    // Spike: the hour in the window.
    await s.traffic(0, c.spike(s, c.created.hits));
    s.clock.advance(HOUR);
    await s.detect();
    const [created, ...others] = await s.alerts();
    expect(others).toEqual([]);
    const rate = c.created.hits / 40;
    expect(created).toMatchObject({
      key: keyOf(s),
      type: c.type,
      severity: c.created.severity,
      message: c.message,
      flow_id: s.flowId,
      flow_name: 'Auto Leads',
      entity_id: c.unit === 'source' ? s.sourceId : s.recipientId,
      entity_name: c.unit === 'source' ? 'Test Vendor' : 'Test Buyer',
      time_zone: 'America/New_York',
      first_seen_at: new Date(s.clock.now()).toISOString(),
      last_seen_at: new Date(s.clock.now()).toISOString(),
      ...c.alert,
    });
    expect(created?.data).toMatchObject({ rate, total: 40, count: c.created.hits });
    expect(created?.data.baseline_rate).toBeLessThan(0.05);
    expect(created?.detail).toContain(`${Number((rate * 100).toFixed(1))}% of 40 leads`);
    // data is aggregates only
    for (const v of Object.values(created?.data ?? {})) expect(typeof v).toBe('number');

    // Persistence: the same key, first_seen_at kept, the rest refreshed.
    await s.traffic(0, c.spike(s, c.persisted.hits));
    s.clock.advance(HOUR);
    await s.detect();
    const [persisted] = await s.alerts();
    expect(persisted).toMatchObject({
      key: keyOf(s),
      severity: c.persisted.severity,
      first_seen_at: created?.first_seen_at,
      last_seen_at: new Date(s.clock.now()).toISOString(),
    });
    expect(persisted?.data.rate).toBe(c.persisted.hits / 40);

    // Recovery.
    await s.normalHour(0);
    s.clock.advance(HOUR);
    await s.detect();
    expect(await s.alerts()).toEqual([]);

    const entries = await s.timeline(keyOf(s), 1);
    expect(entries.map((e) => e.kind)).toEqual([...c.kinds].reverse());
    expect(
      entries.every((e) => e.visibility === 'customer' && e.source === 'collector' && e.actor.type === 'system'),
    ).toBe(true);
    expect(await s.timeline(keyOf(s), 2)).toEqual(entries);
    expect(await s.timeline(keyOf(s), 50)).toEqual(entries);
  });

  it('a spike below the minimum volume raises nothing', async () => {
    const s = await scenario();
    await s.normalWeek();
    // 40 leads scaled down to 15, every one hit.
    await s.traffic(
      0,
      c.spike(s, 40).map((cell) => ({ ...cell, count: Math.min(cell.count ?? 0, 15) })),
    );
    s.clock.advance(HOUR);
    await s.detect();
    expect(await s.alerts()).toEqual([]);
  });
});

describe('rate alerts', () => {
  it('hysteresis: a rate just under the firing threshold keeps an active alert, one under 0.8 of it resolves it', async () => {
    const s = await scenario();
    await s.normalWeek();
    const failing = (hits: number) => [
      { count: 40 },
      { kind: 'recipient' as const, recipient_id: s.recipientId, count: 40 - hits },
      { kind: 'recipient' as const, recipient_id: s.recipientId, outcome: 'failure', count: hits },
    ];
    await s.traffic(0, failing(20));
    s.clock.advance(HOUR);
    await s.detect();
    expect((await s.alerts()).map((a) => a.type)).toEqual(['recipient-failure']);
    const threshold = (await s.alerts())[0]?.data.threshold ?? 0;
    // 9 of 40 = 0.225: below the threshold (~0.25), above 0.8 of it.
    await s.traffic(0, failing(9));
    s.clock.advance(HOUR);
    await s.detect();
    expect((await s.alerts())[0]?.data.rate).toBeLessThan(threshold);
    expect((await s.alerts()).map((a) => a.severity)).toEqual(['warning']);
    // 7 of 40 = 0.175 < 0.8 × threshold: resolved.
    await s.traffic(0, failing(7));
    s.clock.advance(HOUR);
    await s.detect();
    expect(await s.alerts()).toEqual([]);
  });

  it('a source whose rejections turn from failures to errors is relabelled', async () => {
    const s = await scenario();
    await s.normalWeek();
    await s.traffic(0, [{ count: 10 }, { outcome: 'failure', count: 30 }]);
    s.clock.advance(HOUR);
    await s.detect();
    await s.traffic(0, [{ count: 10 }, { outcome: 'error', count: 30 }]);
    s.clock.advance(HOUR);
    await s.detect();
    const [alert] = await s.alerts();
    expect(alert).toMatchObject({ kind: 'error', message: 'Leads from Test Vendor are failing with errors' });
    const kinds = (await s.timeline(alert?.key ?? '', 50)).map((e) => e.kind);
    expect(kinds).toEqual(['message_change', 'relabel', 'created']);
    const entries = (
      await s.service.alerts.activity(s.principal, alert?.key ?? '', new URLSearchParams('kind=relabel'))
    )._unsafeUnwrap();
    expect(entries.entries).toHaveLength(1);
    expect(entries.entries[0]?.data).toMatchObject({ from: { kind: 'failure' }, to: { kind: 'error' } });
  });

  it('#18.1 entries one pass writes at one instant keep the order they were written in, though IDs are random', async () => {
    const s = await scenario();
    await s.normalWeek();
    // Each pass flips failures and errors: it writes a relabel, then a message_change, both at the pass's instant.
    for (let pass = 0; pass < 9; pass++) {
      await s.traffic(0, [{ count: 10 }, { outcome: pass % 2 === 0 ? 'failure' : 'error', count: 30 }]);
      s.clock.advance(HOUR);
      await s.detect();
    }
    const [alert] = await s.alerts();
    const kinds = (await s.timeline(alert?.key ?? '', 50)).map((e) => e.kind);
    // Without the sorted IDs each pair came out in either order: 1 chance in 256 of passing.
    expect(kinds).toEqual([...Array.from({ length: 8 }, () => ['message_change', 'relabel']).flat(), 'created']);
  });

  it('a rate well above its own high baseline is needed: a recipient that always fails half its leads raises nothing', async () => {
    const s = await scenario();
    for (let h = 0; h <= 168; h++)
      await s.traffic(h, [
        { count: 40 },
        { kind: 'recipient', recipient_id: s.recipientId, count: 20 },
        { kind: 'recipient', recipient_id: s.recipientId, outcome: 'failure', count: 20 },
      ]);
    s.clock.advance(HOUR);
    await s.detect();
    expect(await s.alerts()).toEqual([]);
  });

  it('the window is the last 60 minutes: at 15:30 half of the 14:00 cell and all of the 15:00 one count', async () => {
    const s = await scenario();
    await s.normalWeek();
    await s.traffic(0, [{ count: 40 }, { kind: 'recipient', recipient_id: s.recipientId, count: 40 }]); // 15:00 -> 14:00 after advancing
    s.clock.advance(HOUR + HOUR / 2);
    await s.traffic(0, [
      { count: 20 },
      { kind: 'recipient', recipient_id: s.recipientId, outcome: 'failure', count: 20 },
    ]);
    await s.detect();
    const [alert] = await s.alerts();
    // 20 failures of 20 + 40/2 = 40 leads.
    expect(alert?.data).toMatchObject({ total: 40, count: 20, rate: 0.5 });
  });
});
