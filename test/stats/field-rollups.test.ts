import {
  createLeadService,
  EVENT_SCHEMA_VERSION,
  HANDLER_VERSION,
  newId,
  type Principal,
  type StoredEvent,
} from '@leadroute/core';
import type { Storage } from '@leadroute/core';
import { memoryStorage } from '@leadroute/memory';
import { postgresStorage } from '@leadroute/postgres';
import { manualClock } from '@leadroute/testkit';
import { afterAll, describe, expect, it } from 'vitest';
import { databaseAvailable, freshSchema, type TestSchema } from '../../adapters/postgres/src/test-support';

// Issue 22 item 6: statistics grouped by a lead field the account rolls up read field
// rollups, and answer exactly what the events path answers for the same events.
const FLOW = 'f0000000000000000000000f';
const SOURCES = ['a1000000000000000000000a', 'a2000000000000000000000a'];
const RECIPIENTS = ['b1000000000000000000000b', 'b2000000000000000000000b'];
const STATES = ['TX', 'NY', 'CA', 7, null, undefined];
// Around the spring-forward change of 2026-03-08 in New York (07:00Z).
const FROM = Date.parse('2026-03-06T05:00:00Z');
const SPAN = 4 * 86_400_000;

let seed = 31;
const rand = (): number => {
  seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
  return seed / 2_147_483_648;
};
const pick = <T>(a: readonly T[]): T => a[Math.floor(rand() * a.length)] as T;

function anEvent(accountId: string): StoredEvent {
  const start = FROM + Math.floor(rand() * SPAN);
  const id = newId(start);
  const state = pick(STATES);
  const recipient = pick(RECIPIENTS);
  const r = rand();
  const kind: Partial<StoredEvent> =
    r < 0.4
      ? { type: 'source', outcome: pick(['success', 'failure']), purchase_price: 3, recipient_id: null }
      : r < 0.8
        ? {
            type: 'recipient',
            outcome: pick(['success', 'failure', 'skip']),
            recipient_id: recipient,
            step_id: recipient,
            cost: 0.5,
            revenue: pick([0, 10]),
          }
        : r < 0.9
          ? { type: 'ping', outcome: pick(['success', 'failure']), recipient_id: null }
          : {
              type: 'feedback-received',
              outcome: 'success',
              recipient_id: recipient,
              step_id: recipient,
              feedback: { type: pick(['conversion', 'return']), reason: 'sold', occurred_at: '', event_id: id },
            };
  return {
    id,
    account_id: accountId,
    reason: '',
    vars: { lead: state === undefined ? {} : { state, zip: pick(['10001', '73301']) }, event_id: id },
    host: 'test',
    end_timestamp: start,
    start_timestamp: start,
    ms: 0,
    wait_ms: 0,
    overhead_ms: 0,
    lag_ms: 0,
    total_ms: 0,
    handler_version: HANDLER_VERSION,
    version: EVENT_SCHEMA_VERSION,
    cap_reached: false,
    ping_limit_reached: false,
    expires_at: '2027-01-01T00:00:00.000Z',
    flow_id: FLOW,
    source_id: pick(SOURCES),
    lead_id: newId(start),
    ...kind,
  } as StoredEvent;
}

const pgAvailable = await databaseAvailable('field-rollups.test.ts');
const schemas: TestSchema[] = [];
afterAll(async () => {
  for (const db of schemas) await db.drop();
});

const STORAGES: [string, () => Promise<Storage>][] = [
  ['memory', async () => memoryStorage()],
  ...(pgAvailable
    ? ([
        [
          'postgres',
          async () => {
            const db = await freshSchema();
            schemas.push(db);
            return postgresStorage({ pool: db.pool, schema: db.schema });
          },
        ],
      ] as [string, () => Promise<Storage>][])
    : []),
];

async function setUp(storage: Storage) {
  seed = 31;
  const clock = manualClock('2026-03-05T00:00:00Z');
  const service = createLeadService({ storage, clock });
  const made = async (name: string): Promise<Principal> => {
    const created = (await service.accounts.create({ name, time_zone: 'America/New_York' }))._unsafeUnwrap();
    return (await service.accounts.authenticate(created.api_key))._unsafeUnwrap();
  };
  const a = await made('A');
  const b = await made('B');
  for (let i = 0; i < 600; i++) {
    (await service.recorder.record(anEvent(i % 5 === 0 ? b.account.id : a.account.id)))._unsafeUnwrap();
  }
  return { service, clock, a, b };
}

const QUERIES: Record<string, string>[] = [
  { type: 'all', group_by: 'state', start: '2026-03-06', end: '2026-03-10' },
  { type: 'all', group_by: 'state,source_id', start: '2026-03-06', end: '2026-03-10' },
  { type: 'recipient', group_by: 'recipient_id,state', start: '2026-03-07', end: '2026-03-09' },
  { type: 'all', group_by: 'time,state', interval: 'daily', start: '2026-03-06', end: '2026-03-10' },
  { type: 'all', group_by: 'state,time', interval: 'hourly', start: '2026-03-08', end: '2026-03-09' },
  {
    type: 'all',
    group_by: 'state,time',
    interval: 'daily',
    timezone: 'Europe/London',
    start: '2026-03-06',
    end: '2026-03-10',
  },
  { type: 'feedback-received', group_by: 'state', interval: 'weekly', start: '2026-03-06', end: '2026-03-10' },
];

describe.each(STORAGES)('#22.6 statistics grouped by a rolled-up lead field on %s', (_name, storage) => {
  it('answers from field rollups exactly what the events path answers (state by default, DST included)', async () => {
    const { service, a } = await setUp(await storage());
    const fromRollups = [];
    for (const q of QUERIES) {
      const r = (await service.stats.compute(a, q))._unsafeUnwrap();
      expect(r.source, JSON.stringify(q)).toBe('rollups');
      expect(r.rows.length).toBeGreaterThan(1);
      fromRollups.push(r);
    }
    // state no longer rolled up: the same queries read events.
    (await service.stats.setRollupFields(a, ['lead.zip']))._unsafeUnwrap();
    for (const [i, q] of QUERIES.entries()) {
      const r = (await service.stats.compute(a, q))._unsafeUnwrap();
      expect(r.source).toBe('events');
      expect(fromRollups[i]?.rows, JSON.stringify(q)).toEqual(r.rows);
      expect(fromRollups[i]?.columns).toEqual(r.columns);
    }
  });

  it('counts a field set later from the next hour on; earlier ranges read events', async () => {
    const { service, clock, a } = await setUp(await storage());
    clock.set('2026-03-10T12:30:00Z');
    const set = (await service.stats.setRollupFields(a, ['state', 'lead.zip']))._unsafeUnwrap();
    expect(set).toEqual([
      { field: 'state', since: 0 },
      { field: 'lead.zip', since: Date.parse('2026-03-10T13:00:00Z') },
    ]);
    // Recorded before the zip was rolled up: its range reads events.
    const q = { type: 'all', group_by: 'lead.zip', start: '2026-03-06', end: '2026-03-10' };
    expect((await service.stats.compute(a, q))._unsafeUnwrap().source).toBe('events');
    // A range from the field's start reads its cells.
    const late = { ...q, start: '2026-03-10T09:00:00', end: '2026-03-11' };
    expect((await service.stats.compute(a, late))._unsafeUnwrap().source).toBe('rollups');
    expect((await service.stats.rollupFields(a))._unsafeUnwrap()).toEqual(set);
  });

  it('keeps accounts apart and refuses bad field lists (400)', async () => {
    const { service, a, b } = await setUp(await storage());
    const q = QUERIES[0] as Record<string, string>;
    const ra = (await service.stats.compute(a, q))._unsafeUnwrap();
    const rb = (await service.stats.compute(b, q))._unsafeUnwrap();
    const total = (rows: readonly Record<string, unknown>[]) =>
      rows.reduce((n, r) => n + Number(r['source-submitted'] ?? 0), 0);
    expect(total(rb.rows)).toBeGreaterThan(0);
    expect(total(ra.rows)).toBeGreaterThan(total(rb.rows));
    (await service.stats.setRollupFields(b, ['lead.zip']))._unsafeUnwrap();
    expect((await service.stats.rollupFields(a))._unsafeUnwrap()).toEqual([{ field: 'state', since: 0 }]);
    for (const bad of [
      ['flow_id'],
      ['state', 'state'],
      ['a b'],
      'state',
      Array.from({ length: 11 }, (_, i) => `f${i}`),
    ]) {
      const r = await service.stats.setRollupFields(a, bad);
      expect(r.isErr() && r.error.type).toBe('BadRequest');
    }
  });
});
