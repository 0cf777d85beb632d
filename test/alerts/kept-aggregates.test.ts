import { createLeadService, type StoredAlert } from '@leadroute/core';
import { describe, expect, it } from 'vitest';
import { HOUR, type Scenario, scenario } from './support';

// A process keeps each account's per-hour sums from pass to pass and reads again only the hours
// the rollup store says changed, the hours its span moved on by and the labelled last hours.
// What it finds must be what a process reading the whole span every pass finds.

const recipientStep = (s: Scenario) => ({ kind: 'recipient' as const, recipient_id: s.recipientId, step_id: 'step01' });

/** The account's active alerts as stored, with the scenario's IDs replaced by their roles. */
async function stored(s: Scenario): Promise<Record<string, unknown>[]> {
  const names: [string, string][] = [
    [s.accountId, '<account>'],
    [s.flowId, '<flow>'],
    [s.sourceId, '<source>'],
    [s.recipientId, '<recipient>'],
  ];
  const named = (v: string | null) => (v === null ? v : names.reduce((t, [id, role]) => t.split(id).join(role), v));
  const active = (await s.storage.alerts.listActive(s.accountId))._unsafeUnwrap();
  return active
    .map((a: StoredAlert) => ({
      key: named(a.key),
      severity: a.severity,
      message: named(a.message),
      flow_id: named(a.flow_id),
      entity_id: named(a.entity_id),
      recipient_id: named(a.recipient_id),
      outcome: a.outcome,
      kind: a.kind,
      data: a.data,
      first_seen_at: a.first_seen_at,
      last_seen_at: a.last_seen_at,
      affected_day: a.affected_day,
      affected_today: a.affected_today,
    }))
    .sort((a, b) => String(a.key).localeCompare(String(b.key)));
}

/** A pass of a new process over `s`'s storage: it has kept nothing, so it reads every hour of the span. */
async function freshPass(s: Scenario): Promise<void> {
  const service = createLeadService({ storage: s.storage, clock: s.clock, host: 'test' });
  (await service.alerts.detect())._unsafeUnwrap();
}

describe('alert detector: per-hour sums kept between passes', () => {
  it('a cell added late to an hour of the baseline counts at the next pass: the alert it explains away resolves', async () => {
    const s = await scenario();
    await s.normalWeek();
    // The hour in progress: the recipient fails 30 of 40.
    await s.traffic(0, [
      { count: 40 },
      { ...recipientStep(s), count: 10 },
      { ...recipientStep(s), outcome: 'failure', count: 30 },
    ]);
    s.clock.advance(HOUR / 2);
    await s.detect();
    const key = `recipient-failure:${s.accountId}:${s.recipientId}`;
    expect((await s.alerts()).map((a) => a.key)).toContain(key);

    // Failures of two days ago arrive late (a step retried for hours): the recipient's baseline is 60% failures,
    // so 75% now is no longer news. The same process's next pass, within the same hour, must read that hour again.
    await s.traffic(48, [{ ...recipientStep(s), outcome: 'failure', count: 10_000 }]);
    s.clock.advance(10 * 60_000);
    await s.detect();
    expect((await s.alerts()).map((a) => a.key)).not.toContain(key);
  });

  // America/New_York springs forward at 2026-03-08 07:00Z (02:00 EST -> 03:00 EDT) and falls back at 2026-11-01
  // 06:00Z (02:00 EDT -> 01:00 EST): those local days are 23 and 25 hours long, midnight moves by an hour in UTC, and
  // the same hours a week earlier are an hour further from or nearer to now.
  it.each([
    { change: '2026-03-08T07:00:00Z', name: 'March' },
    { change: '2026-11-01T06:00:00Z', name: 'November' },
  ])(
    'a new process and one that kept its sums find the same alerts, pass after pass, across the $name DST change in New York',
    async ({ change }) => {
      // Two accounts get the same traffic: one's passes all run in one process (sums kept), the other's each in
      // a new process. From 36 hours before the change to 12 after it, a pass every 30 minutes.
      const at = Date.parse(change);
      const start = new Date(at - 36 * HOUR).toISOString();
      const [kept, fresh] = [await scenario({ start }), await scenario({ start })];
      for (const s of [kept, fresh]) await s.normalWeek();
      const script = async (s: Scenario, step: number) => {
        const hour = Math.floor(s.clock.now() / HOUR) * HOUR;
        // Silent for the 4 hours before the change: no-leads. Failing from 2 hours before it to 2 after (the local
        // midnight falls in there): recipient-failure, its affected_today counted from that midnight.
        if (step % 2 === 0 && !(hour >= at - 4 * HOUR && hour < at)) {
          const failing = hour >= at - 2 * HOUR && hour < at + 2 * HOUR;
          await s.traffic(0, [
            { count: 20 },
            { ...recipientStep(s), count: failing ? 4 : 19 },
            { ...recipientStep(s), outcome: 'failure', count: failing ? 16 : 1 },
          ]);
        }
        // Now and then a late cell for an earlier hour of the span: duplicates a day ago, 7 days ago.
        if (step % 7 === 3) await s.traffic(24, [{ outcome: 'failure', category: 'duplicate', count: 5 }]);
        if (step % 11 === 5) await s.traffic(7 * 24 - 1, [{ outcome: 'failure', category: 'duplicate', count: 30 }]);
      };
      const fired = new Set<string>();
      for (let step = 0; step < 96; step++) {
        for (const s of [kept, fresh]) {
          await script(s, step);
          s.clock.advance(HOUR / 2);
        }
        await kept.detect();
        await freshPass(fresh);
        const [a, b] = [await stored(kept), await stored(fresh)];
        expect(a, `pass at ${new Date(kept.clock.now()).toISOString()}`).toEqual(b);
        for (const alert of a) fired.add(String(alert.key).split(':')[0] ?? '');
      }
      // The script does raise alerts (else the comparison says little).
      expect([...fired].sort()).toEqual(['no-leads', 'recipient-failure']);
    },
  );
});
