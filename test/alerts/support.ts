import type { AlertActivityEntry, RollupRow } from '@leadroute/core';
import { memoryOutbox } from '@leadroute/memory';
import { aRollupRow, createTestService, manualClock, type TestService } from '@leadroute/testkit';

export const HOUR = 3_600_000;
/**
 * A Thursday afternoon in New York, far from DST changes: the window is the 14:00Z cell, the baseline the week before
 * it.
 */
export const START = '2026-01-15T15:00:00Z';

/** A test service with a flow (source -> recipient), a scripted traffic writer and an outbox. */
export interface Scenario extends TestService {
  readonly flowId: string;
  readonly sourceId: string;
  readonly recipientId: string;
  readonly accountId: string;
  readonly outbox: ReturnType<typeof memoryOutbox>;
  /** Adds rollup cells for the hour starting `hoursAgo` hours before now (0: the hour in progress). */
  traffic(hoursAgo: number, cells: readonly Partial<RollupRow>[]): Promise<void>;
  /** A normal hour: 40 leads from the source, 1 rejected as a duplicate; the recipient takes 38, fails 1, skips 1. */
  normalHour(hoursAgo: number): Promise<void>;
  /** A week of normal hours before now (hours 1..168 ago); 0 (the window) stays empty. */
  normalWeek(): Promise<void>;
  detect(): Promise<void>;
  alerts(): Promise<import('@leadroute/core').Alert[]>;
  /** Every timeline entry of `key`, walking pages of `limit`; also checks each page's cursor. */
  timeline(key: string, limit?: number, extra?: string): Promise<AlertActivityEntry[]>;
}

export async function scenario(options: { start?: string } = {}): Promise<Scenario> {
  const outbox = memoryOutbox();
  const t = await createTestService({ clock: manualClock(options.start ?? START), notifier: outbox });
  const { sourceId, recipientId } = await t.entities();
  const flow = (
    await t.service.flows.create(t.principal, {
      name: 'Auto Leads',
      sources: [{ entity_id: sourceId }],
      steps: [{ type: 'recipient', entity_id: recipientId, module_id: t.recipient.id }],
    })
  )._unsafeUnwrap();
  const accountId = t.principal.account.id;
  const hourAt = (hoursAgo: number) =>
    new Date(Math.floor(t.clock.now() / HOUR) * HOUR - hoursAgo * HOUR).toISOString();
  const cell = (hour: string, c: Partial<RollupRow>): RollupRow =>
    aRollupRow(accountId, { hour, flow_id: flow.id, source_id: sourceId, ...c });
  const s: Scenario = {
    ...t,
    flowId: flow.id,
    sourceId,
    recipientId,
    accountId,
    outbox,
    async traffic(hoursAgo, cells) {
      const hour = hourAt(hoursAgo);
      (await t.storage.rollups.add(cells.map((c) => cell(hour, c))))._unsafeUnwrap();
    },
    normalHour(hoursAgo) {
      const step = { kind: 'recipient' as const, recipient_id: recipientId, step_id: 'step01' };
      return s.traffic(hoursAgo, [
        { count: 39 },
        { outcome: 'failure', category: 'duplicate', count: 1 },
        { ...step, count: 38 },
        { ...step, outcome: 'failure', count: 1 },
        { ...step, outcome: 'skip', count: 1 },
      ]);
    },
    async normalWeek() {
      for (let h = 1; h <= 168; h++) await s.normalHour(h);
    },
    async detect() {
      (await t.service.alerts.detect())._unsafeUnwrap();
    },
    async alerts() {
      return (await t.service.alerts.list(t.principal))._unsafeUnwrap();
    },
    async timeline(key, limit = 1, extra = '') {
      const all: AlertActivityEntry[] = [];
      let before: string | null = null;
      for (let page = 0; page < 100; page++) {
        const query = new URLSearchParams(`limit=${limit}${extra}`);
        if (before) query.set('before', before);
        const res = (await t.service.alerts.activity(t.principal, key, query))._unsafeUnwrap();
        all.push(...res.entries);
        if (res.entries.length < limit) {
          if (res.next_before !== null) throw new Error('a short page must end the timeline');
          return all;
        }
        if (res.next_before === null) throw new Error('a full page must carry a cursor');
        before = res.next_before;
      }
      throw new Error('timeline does not end');
    },
  };
  return s;
}
