import {
  createStatsApi,
  type FieldRollupRow,
  type FieldRollupStore,
  type LeadWriteBundle,
  type Principal,
  type Storage,
} from '@leadroute/core';
import { manualClock } from '@leadroute/testkit';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresStorage } from './index';
import { applyMigrations, migrate } from './migrate';
import { migrations } from './migrations';
import { qualified, quoteIdent } from './sql';
import { databaseAvailable, freshSchema, randomSchemaName, type TestSchema } from './test-support';

// #22.6: field cells per UTC day (migration 19) answer whole days of a range; the answer is the hourly cells' to the
// row, for every interval and zone (DST changes, zones off a whole-hour offset, ranges off midnight).
const available = await databaseAvailable('field-rollup-days.test.ts');

const ACCOUNT = 'c0000000000000000000000c';
const OTHER = 'd0000000000000000000000d';
// Around the DST changes of 2026: New York on 03-08, London on 03-29, Lord Howe (half an hour) on 04-05.
const FROM = Date.parse('2026-02-26T00:00:00Z');
const SPAN = 45 * 86_400_000;
const HOUR = 3_600_000;
const ZONES = [
  'UTC',
  'America/New_York',
  'Europe/London',
  'Asia/Kolkata',
  'Australia/Lord_Howe',
  'Asia/Kathmandu',
  'Pacific/Chatham',
];
const INTERVALS = [undefined, 'hourly', 'daily', 'weekly', 'monthly', 'yearly'] as const;
const GROUPS = ['state', 'state,source_id', 'recipient_id,state', 'time,state', 'state,flow_id'];

/** Cells of `n` events spread over the span; sums in halves, so any order of adding gives the same figures. */
function someRows(n: number, account = ACCOUNT, seed = 5): FieldRollupRow[] {
  let s = seed;
  const rand = (): number => {
    s = (s * 1_103_515_245 + 12_345) % 2_147_483_648;
    return s / 2_147_483_648;
  };
  const pick = <T>(a: readonly T[]): T => a[Math.floor(rand() * a.length)] as T;
  return Array.from({ length: n }, (): FieldRollupRow => {
    const at = FROM + Math.floor(rand() * SPAN);
    const recipient = pick(['', 'r1', 'r2']);
    return {
      account_id: account,
      field: pick(['state', 'state', 'lead.zip']),
      hour: new Date(Math.floor(at / HOUR) * HOUR).toISOString(),
      value: pick(['TX', 'NY', '', null]),
      flow_id: pick(['f1', 'f2']),
      source_id: pick(['s1', 's2', 's3']),
      recipient_id: recipient,
      step_id: recipient === '' ? '' : pick([recipient, 'other']),
      kind: recipient === '' ? pick(['source', 'ping'] as const) : pick(['recipient', 'conversion-received'] as const),
      outcome: pick(['success', 'failure']),
      category: pick(['', 'Duplicate lead']),
      stage: '',
      count: 1,
      cost: pick([0, 0.5, 3]),
      revenue: pick([0, 12.5]),
      purchase_price: pick([0, 4]),
    };
  });
}

/** The storage with field cells read by hour only: what the answer was before day cells. */
function hourlyOnly(storage: Storage): Storage {
  const store = storage.fieldRollups as FieldRollupStore;
  return { ...storage, fieldRollups: { ...store, query: ({ days: _days, ...q }) => store.query(q) } };
}

const principal = (time_zone: string) =>
  ({
    account: { id: ACCOUNT, name: 'Days', plan: 'paid', time_zone, staff: false, created_at: '' },
    user: {},
  }) as unknown as Principal;

describe.skipIf(!available)('#22.6 field rollup cells per UTC day (postgres)', () => {
  let db: TestSchema;
  let storage: Storage;
  const table = (name: string) => (db ? qualified(db.schema, name) : name);
  /** What the day cells should hold: the hourly cells summed by UTC day and over step_id. */
  const mismatches = async (): Promise<number> =>
    Number(
      (
        await db.pool.query<{ n: string }>(
          `WITH expected AS (
             SELECT account_id, field, date_trunc('day', hour, 'UTC') AS day, has_value, value, flow_id, source_id,
                    recipient_id, kind, outcome, category, stage,
                    sum(count) AS count, sum(cost) AS cost, sum(revenue) AS revenue, sum(purchase_price) AS purchase_price
             FROM ${table('field_rollups')}
             GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12)
           SELECT count(*) AS n FROM expected e FULL JOIN ${table('field_rollup_days')} d
             USING (account_id, field, day, has_value, value, flow_id, source_id, recipient_id, kind, outcome, category, stage)
           WHERE e.count IS DISTINCT FROM d.count OR e.cost IS DISTINCT FROM d.cost
              OR e.revenue IS DISTINCT FROM d.revenue OR e.purchase_price IS DISTINCT FROM d.purchase_price`,
        )
      ).rows[0]?.n,
    );

  beforeAll(async () => {
    db = await freshSchema();
    storage = postgresStorage({ pool: db.pool, schema: db.schema });
    const store = storage.fieldRollups as FieldRollupStore;
    // Through the store's add (in chunks, so cells are added to) and through a lead's bundle.
    const rows = someRows(6000);
    for (let i = 0; i < rows.length; i += 1000) (await store.add(rows.slice(i, i + 1000)))._unsafeUnwrap();
    (await store.add(someRows(300, OTHER, 9)))._unsafeUnwrap();
    const writes = storage.leadWrites;
    if (!writes) throw new Error('postgres storage commits leads as units');
    const bundle: LeadWriteBundle = { events: [], rollups: [], fieldRollups: someRows(400, ACCOUNT, 17) };
    (await writes.commit(bundle))._unsafeUnwrap();
  });
  afterAll(async () => {
    await db?.drop();
  });

  it('migration 19 fills the day cells of the hourly cells written before it', async () => {
    const schema = randomSchemaName();
    await db.pool.query(`CREATE SCHEMA ${quoteIdent(schema)}`);
    try {
      (await applyMigrations(db.pool, migrations.slice(0, 18), schema))._unsafeUnwrap();
      // The hourly cells as the previous release wrote them: copied from this file's schema.
      await db.pool.query(`INSERT INTO ${qualified(schema, 'field_rollups')} SELECT * FROM ${table('field_rollups')}`);
      expect((await migrate(db.pool, { schema }))._unsafeUnwrap().applied).toEqual(
        migrations.slice(18).map((m) => m.version),
      );
      const differ = await db.pool.query(
        `(SELECT * FROM ${qualified(schema, 'field_rollup_days')} EXCEPT SELECT * FROM ${table('field_rollup_days')})
         UNION ALL
         (SELECT * FROM ${table('field_rollup_days')} EXCEPT SELECT * FROM ${qualified(schema, 'field_rollup_days')})`,
      );
      expect(differ.rows).toEqual([]);
    } finally {
      await db.pool.query(`DROP SCHEMA ${quoteIdent(schema)} CASCADE`);
    }
  });

  it('keeps every day cell the sum of its hourly cells, whichever path wrote them', async () => {
    const count = async (name: string) =>
      Number((await db.pool.query<{ n: string }>(`SELECT count(*) AS n FROM ${table(name)}`)).rows[0]?.n);
    const days = await count('field_rollup_days');
    expect(days).toBeGreaterThan(0);
    expect(days).toBeLessThan(await count('field_rollups'));
    expect(await mismatches()).toBe(0);
  });

  it('answers every interval, zone and range exactly as the hourly cells do', async () => {
    const clock = manualClock('2026-05-01T00:00:00Z');
    let withDays = 0;
    const seen = storage.fieldRollups as FieldRollupStore;
    const counting: Storage = {
      ...storage,
      fieldRollups: {
        ...seen,
        query: (q) => {
          if (q.days && q.days.length > 0) withDays++;
          return seen.query(q);
        },
      },
    };
    const tiered = createStatsApi({ storage: counting, clock });
    const hourly = createStatsApi({ storage: hourlyOnly(storage), clock });
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...ZONES),
        fc.constantFrom(...INTERVALS),
        fc.constantFrom(...GROUPS),
        fc.constantFrom('all', 'source', 'recipient,conversion-received'),
        fc.integer({ min: -48, max: 45 * 24 }),
        fc.integer({ min: 1, max: 40 * 24 }),
        async (zone, interval, group_by, type, startHour, hours) => {
          const start = FROM + startHour * HOUR;
          const params: Record<string, string> = {
            type,
            group_by,
            timezone: zone,
            start: String(start),
            end: String(start + hours * HOUR),
            ...(interval ? { interval } : {}),
          };
          const a = (await tiered.compute(principal(zone), params))._unsafeUnwrap();
          const b = (await hourly.compute(principal(zone), params))._unsafeUnwrap();
          expect(a.source, JSON.stringify(params)).toBe(b.source);
          expect(a.rows, JSON.stringify(params)).toEqual(b.rows);
          expect(a.columns).toEqual(b.columns);
        },
      ),
      { numRuns: 150, seed: 226 },
    );
    // The property read day cells, not only hours.
    expect(withDays).toBeGreaterThan(50);
  });

  it('reads day cells for a month by state in New York and answers what the hours answer', async () => {
    const params = { type: 'all', group_by: 'state', start: '2026-03-01', end: '2026-03-31' };
    const clock = manualClock('2026-05-01T00:00:00Z');
    const a = (await createStatsApi({ storage, clock }).compute(principal('America/New_York'), params))._unsafeUnwrap();
    const b = (
      await createStatsApi({ storage: hourlyOnly(storage), clock }).compute(principal('America/New_York'), params)
    )._unsafeUnwrap();
    expect(a.source).toBe('rollups');
    expect(a.rows.length).toBeGreaterThan(1);
    expect(a.rows).toEqual(b.rows);
  });

  it('answers from hourly cells alone a query that keeps every column, and ignores days not whole', async () => {
    const store = storage.fieldRollups as FieldRollupStore;
    const base = {
      account_id: ACCOUNT,
      field: 'state',
      from: '2026-03-01T05:00:00.000Z',
      to: '2026-03-10T05:00:00.000Z',
    };
    const hours = (await store.query(base))._unsafeUnwrap();
    // No keep: the rows are the hourly cells whatever days are offered.
    expect(
      (
        await store.query({ ...base, days: [{ from: '2026-03-02T00:00:00.000Z', to: '2026-03-09T00:00:00.000Z' }] })
      )._unsafeUnwrap(),
    ).toEqual(hours);
    // Days off midnight or outside the range are read by the hour.
    const keep = { ...base, keep: ['hour'] as const };
    const byHour = (await store.query(keep))._unsafeUnwrap();
    const odd = [
      { from: '2026-02-28T00:00:00.000Z', to: '2026-03-02T00:00:00.000Z' },
      { from: '2026-03-03T01:00:00.000Z', to: '2026-03-04T01:00:00.000Z' },
      { from: '2026-03-09T00:00:00.000Z', to: '2026-03-11T00:00:00.000Z' },
    ];
    expect((await store.query({ ...keep, days: odd }))._unsafeUnwrap()).toEqual(byHour);
    // A whole day in range reads as one cell at its start holding the day's sums.
    const day = { from: '2026-03-04T00:00:00.000Z', to: '2026-03-05T00:00:00.000Z' };
    const tiered = (await store.query({ ...keep, days: [day] }))._unsafeUnwrap();
    expect(tiered.filter((r) => r.hour > day.from && r.hour < day.to)).toEqual([]);
    const total = (rows: readonly FieldRollupRow[]) => rows.reduce((n, r) => n + r.count, 0);
    expect(total(tiered)).toBe(total(byHour));
    expect(tiered.length).toBeLessThan(byHour.length);
  });
});
