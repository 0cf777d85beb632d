import { createLeadService, type DetectReport, silentLogger } from '@leadroute/core';
import { describe, expect, it } from 'vitest';
import { unhandledRejectionsOf } from '../support/rejections';
import { HOUR, scenario } from './support';

async function spiking() {
  const s = await scenario();
  await s.normalWeek();
  const step = { kind: 'recipient' as const, recipient_id: s.recipientId };
  await s.traffic(0, [{ count: 40 }, { ...step, count: 10 }, { ...step, outcome: 'failure', count: 30 }]);
  s.clock.advance(HOUR);
  return s;
}

describe('detector scheduling', () => {
  it('processes sharing a store evaluate each account once at a time: one alert, one created entry', async () => {
    const s = await spiking();
    // A second process: its own service on the same storage and clock.
    const other = createLeadService({ storage: s.storage, clock: s.clock });
    const reports = await Promise.all([s.service.alerts.detect(), other.alerts.detect(), s.service.alerts.detect()]);
    const totals = reports.map((r) => r._unsafeUnwrap());
    expect(totals.reduce((n, r) => n + r.created, 0)).toBe(1);
    expect(totals.reduce((n, r) => n + r.accounts + r.skipped, 0)).toBe(3);
    const [alert] = await s.alerts();
    expect((await s.timeline(alert?.key ?? '', 50)).map((e) => e.kind)).toEqual(['created']);
    // The lease is released after a pass: the next one runs.
    expect((await other.alerts.detect())._unsafeUnwrap()).toMatchObject({ accounts: 1, skipped: 0, refreshed: 1 });
  });

  it('a lease left by a crashed process is taken over once it expires', async () => {
    const s = await spiking();
    (
      await s.storage.alerts.tryLease(
        `alerts:${s.accountId}`,
        'crashed-process',
        new Date(s.clock.now()).toISOString(),
        new Date(s.clock.now() + 60_000).toISOString(),
      )
    )._unsafeUnwrap();
    expect((await s.service.alerts.detect())._unsafeUnwrap()).toMatchObject({ accounts: 0, skipped: 1 });
    s.clock.advance(60_000);
    expect((await s.service.alerts.detect())._unsafeUnwrap()).toMatchObject({ accounts: 1, created: 1 });
  });

  it('the runner repeats passes until stopped', async () => {
    const s = await spiking();
    const passes: DetectReport[] = [];
    let resolveTwo: () => void = () => {};
    const two = new Promise<void>((resolve) => {
      resolveTwo = resolve;
    });
    const runner = s.service.alerts.runner({
      intervalMs: 5,
      onPass: ({ report }) => {
        if (report) passes.push(report);
        if (passes.length === 2) resolveTwo();
      },
    });
    await two;
    await runner.stop();
    const count = passes.length;
    await new Promise((r) => setTimeout(r, 30));
    expect(passes.length).toBe(count);
    expect(passes[0]).toMatchObject({ created: 1 });
    expect(passes[1]).toMatchObject({ created: 0, refreshed: 1 });
  });
});

describe('a detector pass that throws', () => {
  it('is logged and the runner goes on: no rejection escapes to the process', async () => {
    const s = await spiking();
    const errors: unknown[] = [];
    const logger = { ...silentLogger, error: (obj: object) => void errors.push(obj) };
    let calls = 0;
    // A storage whose read throws instead of answering an Err: a bug in an adapter, or in a host's wrapper of one.
    const storage = {
      ...s.storage,
      rollups: {
        ...s.storage.rollups,
        activeAccounts: (from: string, to: string) => {
          calls++;
          if (calls === 1) throw new Error('adapter bug');
          return s.storage.rollups.activeAccounts(from, to);
        },
      },
    };
    const service = createLeadService({ storage, clock: s.clock, logger });
    const reports: DetectReport[] = [];
    const escaped = await unhandledRejectionsOf(async () => {
      const runner = service.alerts.runner({
        intervalMs: 5,
        onPass: ({ report }) => void (report && reports.push(report)),
      });
      for (let i = 0; i < 200 && reports.length === 0; i++) await new Promise((r) => setTimeout(r, 5));
      await runner.stop();
    });
    expect(escaped).toEqual([]);
    expect(errors.length).toBeGreaterThan(0);
    expect(reports[0]).toMatchObject({ created: 1 });
  });
});
