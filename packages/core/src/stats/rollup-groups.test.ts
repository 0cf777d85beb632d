import { describe, expect, it } from 'vitest';
import type { StoredEvent } from '../domain/events';
import type { RollupRow } from '../ports/rollups';
import { bucketStart, zonedIso } from './buckets';
import { eventRows } from './cells';
import { parseStatsQuery, type StatsQuery } from './params';
import { groupRollupCells } from './rollup-groups';
import { addToGroup, groupRows, newGroup, type StatsGroup } from './rows';

const ACCOUNT = 'a'.repeat(24);
const ZONE = 'America/New_York';
// Three days around the spring-forward change of 2026-03-08 in New York.
const FROM = Date.parse('2026-03-07T05:00:00Z');
const SPAN = 3 * 86_400_000;

let seed = 12;
const rand = (): number => {
  seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
  return seed / 2_147_483_648;
};
const pick = <T>(a: readonly T[]): T => a[Math.floor(rand() * a.length)] as T;

const FLOWS = ['f1', 'f2'].map((f) => f.padEnd(24, '0'));
const SOURCES = ['51', '52', '53'].map((s) => s.padEnd(24, '0'));
const RECIPIENTS = ['71', '72'].map((r) => r.padEnd(24, '0'));

function anEvent(i: number): StoredEvent {
  const recipient_id = pick(RECIPIENTS);
  const base = {
    id: String(i).padStart(24, '0'),
    account_id: ACCOUNT,
    flow_id: pick(FLOWS),
    source_id: pick(SOURCES),
    lead_id: 'l'.repeat(24),
    start_timestamp: FROM + Math.floor(rand() * SPAN),
    vars: {},
    reason: '',
  };
  const r = rand();
  const event =
    r < 0.35
      ? {
          type: 'source',
          outcome: pick(['success', 'success', 'failure']),
          reason: pick(['', 'Duplicate lead']),
          purchase_price: pick([2, 4.5]),
        }
      : r < 0.75
        ? {
            type: 'recipient',
            outcome: pick(['success', 'failure', 'error', 'skip']),
            recipient_id,
            step_id: recipient_id,
            cost: 0.25,
            revenue: pick([0, 12.5]),
          }
        : r < 0.9
          ? { type: 'ping', outcome: pick(['success', 'failure']) }
          : {
              type: pick(['feedback-received', 'feedback-sent']),
              outcome: 'success',
              recipient_id,
              step_id: recipient_id,
              feedback: {
                type: pick(['conversion', 'return']),
                reason: pick(['sold', 'funded']),
                occurred_at: '',
                event_id: base.id,
              },
            };
  return Object.assign(base, event) as unknown as StoredEvent;
}

const events = Array.from({ length: 2000 }, (_, i) => anEvent(i));

/** The events' rows summed per cell, as a rollup store holds them, in a shuffled order. */
function cellsOf(all: readonly StoredEvent[]): RollupRow[] {
  const cells = new Map<string, { -readonly [K in keyof RollupRow]: RollupRow[K] }>();
  for (const e of all) {
    for (const row of eventRows(e)) {
      const key = [
        row.hour,
        row.flow_id,
        row.source_id,
        row.recipient_id,
        row.step_id,
        row.kind,
        row.outcome,
        row.category,
        row.stage,
      ].join('|');
      const prior = cells.get(key);
      if (!prior) cells.set(key, { ...row });
      else {
        prior.count += row.count;
        prior.cost += row.cost;
        prior.revenue += row.revenue;
        prior.purchase_price += row.purchase_price;
      }
    }
  }
  return [...cells.values()].sort(() => rand() - 0.5);
}

/** What the events path of GET /events/stats makes of the same events: one group per distinct key, event by event. */
function fromEvents(all: readonly StoredEvent[], q: StatsQuery): StatsGroup[] {
  const groups = new Map<string, StatsGroup>();
  for (const e of all) {
    if (e.start_timestamp < q.start || e.start_timestamp >= q.end) continue;
    for (const row of eventRows(e)) {
      if (!q.kinds.has(row.kind)) continue;
      const time = q.interval ? bucketStart(e.start_timestamp, q.interval, q.zone) : 0;
      const value = (k: string) =>
        k === 'time' ? zonedIso(time, q.zone) : row[k as 'flow_id' | 'source_id' | 'recipient_id'] || null;
      const id = JSON.stringify(q.groupBy.map(value));
      let g = groups.get(id);
      if (!g) groups.set(id, (g = newGroup(Object.fromEntries(q.groupBy.map((k) => [k, value(k)])), time)));
      addToGroup(g, row);
    }
  }
  return [...groups.values()];
}

const query = (params: Record<string, string>): StatsQuery =>
  parseStatsQuery(new URLSearchParams(params), ZONE, FROM)._unsafeUnwrap();

describe('groupRollupCells', () => {
  const cells = cellsOf(events);

  it.each<Record<string, string>>([
    { type: 'all', start: '2026-03-07', end: '2026-03-10' },
    { type: 'all', group_by: 'source_id', start: '2026-03-07', end: '2026-03-10' },
    { type: 'recipient', group_by: 'recipient_id', start: '2026-03-08', end: '2026-03-09' },
    { type: 'all', group_by: 'flow_id,source_id,recipient_id', start: '2026-03-07', end: '2026-03-10' },
    { type: 'all', group_by: 'time,source_id', interval: 'hourly', start: '2026-03-08', end: '2026-03-09' },
    { type: 'all', group_by: 'source_id,time', interval: 'daily', start: '2026-03-07', end: '2026-03-10' },
    { type: 'feedback-received', group_by: 'recipient_id', interval: 'weekly', start: '2026-03-07', end: '2026-03-10' },
  ])('makes the rows the events make: %j', (params) => {
    const q = query(params);
    // What a store answers: the range's cells of the query's kinds.
    const inRange = cells.filter(
      (c) => Date.parse(c.hour) >= q.start && Date.parse(c.hour) < q.end && q.kinds.has(c.kind),
    );
    const rows = groupRows(groupRollupCells(inRange, q) ?? [], q.groupBy);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows).toEqual(groupRows(fromEvents(events, q), q.groupBy));
  });

  it('groups cells without an ID (source-side kinds have no recipient) as null', () => {
    const q = query({ type: 'source', group_by: 'recipient_id', start: '2026-03-07', end: '2026-03-10' });
    const rows = groupRows(
      groupRollupCells(
        cells.filter((c) => q.kinds.has(c.kind)),
        q,
      ) ?? [],
      q.groupBy,
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ recipient_id: null, 'recipient-submitted': 0 });
    expect(rows[0]?.['source-submitted']).toBe(events.filter((e) => e.type === 'source').length);
  });

  it('#18.7 answers a half-hour zone from cells unless an interval boundary falls inside a stored hour', () => {
    const cell = (hour: string): RollupRow => ({
      account_id: ACCOUNT,
      hour,
      flow_id: FLOWS[0] as string,
      source_id: SOURCES[0] as string,
      recipient_id: '',
      step_id: '',
      kind: 'source',
      outcome: 'success',
      category: '',
      stage: '',
      count: 1,
      cost: 0,
      revenue: 0,
      purchase_price: 0,
    });
    const q = query({ interval: 'daily', timezone: 'Asia/Kolkata', start: '2026-03-07', end: '2026-03-10' });
    // Midnight in Kolkata is 18:30Z: the hour from 17:00Z is inside one day, the hour from 18:00Z is not.
    const whole = groupRollupCells([cell('2026-03-07T17:00:00.000Z'), cell('2026-03-08T03:00:00.000Z')], q);
    expect(groupRows(whole ?? [], q.groupBy).map((r) => [r.time, r['source-submitted']])).toEqual([
      ['2026-03-07T00:00:00+05:30', 1],
      ['2026-03-08T00:00:00+05:30', 1],
    ]);
    expect(groupRollupCells([cell('2026-03-07T17:00:00.000Z'), cell('2026-03-07T18:00:00.000Z')], q)).toBeUndefined();
  });
});
