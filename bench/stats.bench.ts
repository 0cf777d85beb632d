// One day's statistics grouped by source over 1,000,000 events: from hourly
// rollups (what GET /events/stats reads) against aggregating the raw events
// (the same per-event code over an in-memory array: the cheapest events path
// there is, with no storage reads at all). Target: >= 100x.
import { memoryStorage } from '../adapters/memory/src/index';
import type { Principal } from '../packages/core/src/context';
import type { StoredEvent } from '../packages/core/src/domain/events';
import type { RollupRow } from '../packages/core/src/ports/rollups';
import { manualClock } from '../packages/testkit/src/flows';
import { bucketStart } from '../packages/core/src/stats/buckets';
import { eventRows } from '../packages/core/src/stats/cells';
import { addToGroup, groupRows, newGroup, type StatsGroup } from '../packages/core/src/stats/rows';
import { createStatsApi } from '../packages/core/src/stats/service';
import type { BenchRow } from './harness';
import { compare, measure, measureInterleaved, seeded } from './harness';

const EVENTS = 1_000_000;
const ACCOUNT = 'a'.repeat(24);
const ZONE = 'America/New_York';
// 2026-03-10 in New York: [04:00Z, 04:00Z next day).
const DAY_START = Date.parse('2026-03-10T04:00:00Z');
const SOURCES = Array.from({ length: 10 }, (_, i) => `5${i}`.padEnd(24, '0'));
const RECIPIENTS = Array.from({ length: 5 }, (_, i) => `7${i}`.padEnd(24, '0'));

const { rand, pick } = seeded(7);

/** A day's traffic: sources posting, recipients taking or refusing, pings, and feedback. */
function anEvent(i: number): StoredEvent {
  const r = rand();
  const source_id = pick(SOURCES);
  const recipient_id = pick(RECIPIENTS);
  const base = {
    id: i.toString(16).padStart(24, '0'),
    account_id: ACCOUNT,
    flow_id: 'f'.repeat(24),
    source_id,
    lead_id: i.toString(16).padStart(24, '0'),
    start_timestamp: DAY_START + Math.floor(rand() * 86_400_000),
    vars: {},
    reason: '',
  };
  let event: Partial<StoredEvent>;
  if (r < 0.4) {
    const o = rand();
    event =
      o < 0.8
        ? { type: 'source', outcome: 'success', purchase_price: 4 }
        : o < 0.9
          ? { type: 'source', outcome: 'failure', reason: 'Duplicate lead', purchase_price: 4 }
          : { type: 'source', outcome: 'failure', reason: 'lead.email is not valid', purchase_price: 4 };
  } else if (r < 0.85) {
    const o = rand();
    event = {
      type: 'recipient',
      outcome: o < 0.6 ? 'success' : o < 0.85 ? 'failure' : 'skip',
      recipient_id,
      step_id: recipient_id,
      cost: 0.5,
      revenue: o < 0.6 ? 12 : 0,
    };
  } else if (r < 0.95) {
    event = { type: 'ping', outcome: rand() < 0.7 ? 'success' : 'failure' };
  } else {
    const conversion = rand() < 0.8;
    event = {
      type: 'feedback-received',
      outcome: rand() < 0.9 ? 'success' : 'failure',
      recipient_id,
      step_id: recipient_id,
      feedback: {
        type: conversion ? 'conversion' : 'return',
        reason: conversion ? pick(['sold', 'funded']) : 'bad data',
        occurred_at: '',
        event_id: base.id,
      },
    };
  }
  // Object.assign, not spread: spreading is by far the slowest step on these machines.
  return Object.assign(base, event) as StoredEvent;
}

export default async function statsBench(): Promise<BenchRow[]> {
  const storage = memoryStorage();
  const events: StoredEvent[] = [];
  const t0 = performance.now();
  // Rows are summed here and added once per cell: the store ends as it would after a
  // million single adds, without the bench spending minutes recording.
  const sums = new Map<string, { -readonly [K in keyof RollupRow]: RollupRow[K] }>();
  for (let i = 0; i < EVENTS; i++) {
    const e = anEvent(i);
    events.push(e);
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
      const prior = sums.get(key);
      if (!prior) sums.set(key, row);
      else {
        prior.count += row.count;
        prior.cost += row.cost;
        prior.revenue += row.revenue;
        prior.purchase_price += row.purchase_price;
      }
    }
  }
  (await storage.rollups.add([...sums.values()]))._unsafeUnwrap();
  const cells = (
    await storage.rollups.query({
      account_id: ACCOUNT,
      from: new Date(DAY_START).toISOString(),
      to: new Date(DAY_START + 86_400_000).toISOString(),
    })
  )._unsafeUnwrap().length;
  console.log(
    `${EVENTS.toLocaleString('en-US')} events into ${cells.toLocaleString('en-US')} rollup cells in ${Math.round(performance.now() - t0)} ms`,
  );

  const clock = manualClock('2026-03-10T18:00:00Z');
  const stats = createStatsApi({ storage, clock });
  const principal = {
    account: {
      id: ACCOUNT,
      name: 'Bench',
      plan: 'paid',
      time_zone: ZONE,
      staff: false,
      created_at: '2026-01-01T00:00:00Z',
    },
    user: {},
  } as unknown as Principal;
  const params = { type: 'all', group_by: 'source_id', start: '2026-03-10', end: '2026-03-11' };
  const fromRollups = async () => {
    const result = await stats.compute(principal, params);
    if (result.isErr() || result.value.source !== 'rollups' || result.value.rows.length !== SOURCES.length)
      throw new Error('the rollup path did not answer');
  };
  const fromEvents = () => {
    const groups = new Map<string, StatsGroup>();
    const end = DAY_START + 86_400_000;
    for (const event of events) {
      if (event.start_timestamp < DAY_START || event.start_timestamp >= end) continue;
      let g = groups.get(event.source_id);
      if (!g)
        groups.set(
          event.source_id,
          (g = newGroup({ source_id: event.source_id }, bucketStart(event.start_timestamp, 'daily', ZONE))),
        );
      for (const row of eventRows(event)) addToGroup(g, row);
    }
    return groupRows(groups.values(), ['source_id']);
  };
  // Alternating rounds, each figure the median of its rounds: the machine is shared, and a
  // raw aggregation takes over a second, so one busy moment would otherwise swing the
  // ratio by half. A round of the raw path holds at least one whole aggregation.
  await measure(fromRollups, { seconds: 1 });
  const ops = await measureInterleaved(
    { rollups: { fn: fromRollups }, raw: { fn: fromEvents } },
    { rounds: 5, msPerRound: 2500 },
  );
  return [
    compare('stats: one day by source, 1M events, from rollups', ops.rollups, {
      name: 'aggregating the raw events',
      value: ops.raw,
      minRatio: 100,
    }),
  ];
}
