import { postgresStorage } from '@leadroute/postgres';
import type { ResultAsync } from 'neverthrow';
import pg from 'pg';
import { applyMigrations, migrate } from '../adapters/postgres/src/migrate';
import { migrations } from '../adapters/postgres/src/migrations';
import { qualified, quoteIdent } from '../adapters/postgres/src/sql';
import { ensurePartitions } from '../adapters/postgres/src/stores/partitions';
import { type Bench, type BenchRow, compare, measure, median } from './harness';
import { postgresLeadsPerSecond } from './intake.bench';

// Events partitioned by the day of their ID (migration 17) against the table before it:
// 1. the retention purge of 1,000,000 expired events (beside 100,000 live ones): a row
//    DELETE on the unpartitioned table, as the purge was, against dropping the day's
//    partition; the time, and the table's size on disk afterwards;
// 2. intake leads/s on each schema (same stores, same statements), alternated;
// 3. reads that cannot name one partition (an events page, a reference look-up) and a
//    look-up by ID: no partitions, day partitions (99 for 90 days and a week ahead), week ones (15).
//    This is what chose weeks (see migration 17).

const URL = process.env.DATABASE_URL ?? 'postgres://leadroute:leadroute@127.0.0.1:5432/leadroute_test';
const DAY = 86_400_000;
const EXPIRED = Number(process.env.PARTITIONS_BENCH_ROWS ?? 1_000_000);
const LIVE = EXPIRED / 10;
const ACCOUNT = '6955b9042769f57ff087f281';
const MB = 1024 * 1024;

const now = Math.floor(Date.now() / DAY) * DAY;
/** The day whose events have all expired at `now`: 91 days ago. */
const expiredDay = now - 91 * DAY;

/**
 * Inserts `count` events made on the UTC day starting at `dayMs` (IDs with that day's
 * seconds), expiring 90 days after, with a body of about 600 bytes, in one statement.
 */
async function fill(pool: pg.Pool, schema: string, dayMs: number, count: number): Promise<void> {
  const table = qualified(schema, 'events');
  const seconds = dayMs / 1000;
  await pool.query(
    `INSERT INTO ${table} (id, account_id, type, start_timestamp, lead_id, flow_id, key, expires_at, body)
     SELECT lpad(to_hex($2::bigint + i % 86400), 8, '0') || lpad(to_hex(i), 16, '0'),
            $1, 'recipient', ($2::bigint + i % 86400) * 1000.0,
            lpad(to_hex($2::bigint + i % 86400), 8, '0') || lpad(to_hex(i / 4), 16, '0'),
            'f00000000000000000000001', CASE WHEN i % 10 = 0 THEN 'REF-' || i END,
            to_timestamp($2::bigint + i % 86400) + interval '90 days',
            jsonb_build_object('outcome', 'success', 'reason', '', 'vars',
              jsonb_build_object('lead', jsonb_build_object('first_name', 'Ada', 'email', 'ada' || i || '@example.com'),
                'pad', repeat('x', 480)))
       FROM generate_series(1, $3::int) AS i`,
    [ACCOUNT, seconds, count],
  );
}

const size = async (pool: pg.Pool, schema: string): Promise<number> => {
  // Partitions included: the parent's own size is 0.
  const { rows } = await pool.query<{ bytes: string }>(
    `SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0)::bigint AS bytes FROM pg_class c
      WHERE c.relnamespace = $1::regnamespace AND c.relkind = 'r' AND c.relname LIKE 'events%'`,
    [quoteIdent(schema)],
  );
  return Number(rows[0]?.bytes ?? 0);
};

/** Waits until no autovacuum worker is working on a table of `schema` (at most 60 s). */
async function waitForAutovacuum(pool: pg.Pool, schema: string): Promise<void> {
  for (const until = Date.now() + 60_000; Date.now() < until; ) {
    const { rowCount } = await pool.query(
      `SELECT 1 FROM pg_stat_progress_vacuum p JOIN pg_class c ON c.oid = p.relid WHERE c.relnamespace = $1::regnamespace`,
      [quoteIdent(schema)],
    );
    if (!rowCount) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

const row = (name: string, unit: BenchRow['unit'], value: number): BenchRow => ({
  name,
  unit,
  value,
  measuredAt: new Date().toISOString(),
});

async function purgeComparison(pool: pg.Pool): Promise<BenchRow[]> {
  const before = new Date(now).toISOString();
  const unpartitioned = `bench_unpart_${Date.now()}`;
  const partitioned = `bench_part_${Date.now()}`;
  try {
    // The schema as migration 16 left it; the purge statement the events store ran then.
    (await applyMigrations(pool, migrations.slice(0, 16), unpartitioned))._unsafeUnwrap();
    await fill(pool, unpartitioned, expiredDay, EXPIRED);
    await fill(pool, unpartitioned, now, LIVE);
    await pool.query(`VACUUM ANALYZE ${qualified(unpartitioned, 'events')}`);
    const deleteSizeBefore = await size(pool, unpartitioned);
    let started = performance.now();
    const deleted = await pool.query(`DELETE FROM ${qualified(unpartitioned, 'events')} WHERE expires_at < $1`, [
      before,
    ]);
    const deleteMs = performance.now() - started;
    // A plain VACUUM (what autovacuum would do next) marks the space free but hands none back.
    started = performance.now();
    await pool.query(`VACUUM ${qualified(unpartitioned, 'events')}`);
    const vacuumMs = performance.now() - started;
    const deleteSizeAfter = await size(pool, unpartitioned);
    console.log(
      `row DELETE: ${deleted.rowCount} rows in ${deleteMs.toFixed(0)} ms (+ VACUUM ${vacuumMs.toFixed(0)} ms); ` +
        `events ${(deleteSizeBefore / MB).toFixed(0)} MB before, ${(deleteSizeAfter / MB).toFixed(0)} MB after`,
    );

    (await migrate(pool, { schema: partitioned }))._unsafeUnwrap();
    (await ensurePartitions(pool, partitioned, 'events', expiredDay, 0))._unsafeUnwrap();
    await fill(pool, partitioned, expiredDay, EXPIRED);
    await fill(pool, partitioned, now, LIVE);
    await pool.query(`VACUUM ANALYZE ${qualified(partitioned, 'events')}`);
    // A week partition is 90 days old when it is dropped, long done with autovacuum; a worker still busy with this
    // fresh one would hold the drop's lock for deadlock_timeout (1 s) before it is cancelled.
    await waitForAutovacuum(pool, partitioned);
    const dropSizeBefore = await size(pool, partitioned);
    started = performance.now();
    const dropped = (await postgresStorage({ pool, schema: partitioned }).events.purgeExpired(before))._unsafeUnwrap();
    const dropMs = performance.now() - started;
    const dropSizeAfter = await size(pool, partitioned);
    console.log(
      `partition drop (the events store's purge): ${dropped} rows in ${dropMs.toFixed(0)} ms; ` +
        `events ${(dropSizeBefore / MB).toFixed(0)} MB before, ${(dropSizeAfter / MB).toFixed(0)} MB after`,
    );
    // The drop reports the row count ANALYZE estimated for the partition.
    if (Math.abs(dropped - EXPIRED) > EXPIRED / 100 || deleted.rowCount !== EXPIRED)
      throw new Error(`the purges removed the wrong rows: ${deleted.rowCount} deleted, ${dropped} dropped`);
    const label = `${EXPIRED / 1_000_000}M`;
    return [
      row(`partitions: purge of ${label} expired events by row DELETE`, 'ms', deleteMs),
      row(`partitions: purge of ${label} expired events by partition drop`, 'ms', dropMs),
      row(`partitions: events size after a ${label} purge by row DELETE + VACUUM`, 'MB', deleteSizeAfter / MB),
      row(`partitions: events size after a ${label} purge by partition drop`, 'MB', dropSizeAfter / MB),
    ];
  } finally {
    await pool.query(`DROP SCHEMA IF EXISTS ${quoteIdent(unpartitioned)} CASCADE`);
    await pool.query(`DROP SCHEMA IF EXISTS ${quoteIdent(partitioned)} CASCADE`);
  }
}

/**
 * The unpartitioned tables the stores of today write and read: every migration but 17, which partitions events and
 * leads (later ones add tables and columns the stores use).
 */
const UNPARTITIONED = migrations.filter((m) => m.version !== 17);

/** Intake leads/s on the {@link UNPARTITIONED} tables and on the partitioned ones, alternated three times. */
async function intakeComparison(): Promise<BenchRow[]> {
  const previous = async (pool: pg.Pool, schema: string) => {
    (await applyMigrations(pool, UNPARTITIONED, schema))._unsafeUnwrap();
  };
  const runs = { before: [] as number[], after: [] as number[] };
  let first = 0;
  for (let round = 0; round < 3; round++) {
    const b = await postgresLeadsPerSecond(first, { prepare: previous, ms: 3000 });
    first += 100_000;
    const a = await postgresLeadsPerSecond(first, { ms: 3000 });
    first += 100_000;
    if (a === undefined || b === undefined) return [];
    runs.before.push(b);
    runs.after.push(a);
  }
  console.log(
    `intake leads/s, unpartitioned: ${runs.before.map((v) => v.toFixed(0)).join(', ')}; ` +
      `partitioned: ${runs.after.map((v) => v.toFixed(0)).join(', ')}`,
  );
  const before = median(runs.before);
  return [
    compare('partitions: intake leads/s on partitioned events and leads (PostgreSQL)', median(runs.after), {
      name: 'unpartitioned (every migration but 17)',
      value: before,
      minRatio: 0.9,
    }),
  ];
}

/**
 * Latency of reads over 91 days of events (2,000 a day, one in 20 of the account read):
 * unpartitioned, day partitions and week ones; the same rows, so the difference is the partition count.
 */
async function granularity(pool: pg.Pool): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  for (const [label, days] of [
    ['no', 0],
    ['day', 1],
    ['week', 7],
  ] as const) {
    const schema = `bench_gran_${label}_${Date.now()}`;
    try {
      if (days === 0) (await applyMigrations(pool, UNPARTITIONED, schema))._unsafeUnwrap();
      else (await migrate(pool, { schema }))._unsafeUnwrap();
      const parent = qualified(schema, 'events');
      // Replace the migration's partitions by ones of this width covering the last 91 days and the next 7.
      const { rows: parts } = await pool.query<{ relname: string }>(
        `SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
          WHERE i.inhparent = $1::regclass AND c.relname <> $2`,
        [parent, `events_default`],
      );
      for (const { relname } of parts) await pool.query(`DROP TABLE ${qualified(schema, relname)}`);
      const hex = (ms: number) =>
        Math.floor(ms / 1000)
          .toString(16)
          .padStart(8, '0');
      let count = 0;
      for (let start = now - 91 * DAY; days > 0 && start < now + 8 * DAY; start += days * DAY, count++) {
        await pool.query(
          `CREATE TABLE ${qualified(schema, `events_b${count}`)} PARTITION OF ${parent} FOR VALUES FROM ('${hex(start)}') TO ('${hex(start + days * DAY)}')`,
        );
      }
      // 2,000 events a day over the 91 days, as from one busy account and many others.
      for (let day = now - 91 * DAY; day <= now; day += DAY) {
        const seconds = day / 1000;
        await pool.query(
          `INSERT INTO ${parent} (id, account_id, type, start_timestamp, lead_id, flow_id, key, expires_at, doc)
           SELECT lpad(to_hex($1::bigint + i * 40), 8, '0') || lpad(to_hex(i), 16, '0'),
                  CASE WHEN i % 20 = 0 THEN $2 ELSE lpad(to_hex(i % 97), 24, '0') END, 'recipient', $1 * 1000.0,
                  lpad(to_hex(i), 24, '0'), 'f00000000000000000000001', 'REF-' || $1 || '-' || i,
                  to_timestamp($1::bigint) + interval '90 days', '{"outcome":"success"}'
             FROM generate_series(1, 2000) AS i`,
          [seconds, ACCOUNT],
        );
      }
      await pool.query(`ANALYZE ${parent}`);
      const storage = postgresStorage({ pool, schema });
      const live = new Date(now).toISOString();
      const oneId = `${hex(now - 30 * DAY + 40_000)}${(1).toString(16).padStart(16, '0')}`;
      const ms = async (what: string, fn: () => ResultAsync<unknown, unknown>) => {
        // A read that fails would pass for a fast one.
        const first = await fn();
        if (first.isErr()) throw new Error(`partitions: ${what} failed: ${String(first.error)}`);
        const m = await measure(fn, { seconds: 1.5 });
        rows.push(row(`partitions: ${what}, ${label} partitions (${count}), p50`, 'ms', m.p50));
        console.log(`${label} partitions (${count}): ${what} p50 ${m.p50.toFixed(2)} ms, p99 ${m.p99.toFixed(2)} ms`);
      };
      await ms('an events page', () =>
        storage.events.query({ account_id: ACCOUNT, live_at: live, sort: 'desc', limit: 100 }),
      );
      await ms('an event by ID', () => storage.events.get(oneId));
      await ms('events by reference', () =>
        storage.events.findByReference({ reference: `REF-${(now - 30 * DAY) / 1000}-7`, live_at: live }),
      );
    } finally {
      await pool.query(`DROP SCHEMA IF EXISTS ${quoteIdent(schema)} CASCADE`);
    }
  }
  return rows;
}

const bench: Bench = async () => {
  const pool = new pg.Pool({ connectionString: URL, max: 4 });
  pool.on('error', () => undefined);
  try {
    await pool.query('SELECT 1');
  } catch (e) {
    console.log(
      `(skipped: no PostgreSQL at DATABASE_URL: ${(e as Error).message}; start it with bash scripts/services.sh)`,
    );
    await pool.end();
    return [];
  }
  try {
    const only = process.env.PARTITIONS_BENCH_ONLY;
    return [
      ...(only && only !== 'purge' ? [] : await purgeComparison(pool)),
      ...(only && only !== 'granularity' ? [] : await granularity(pool)),
      ...(only && only !== 'intake' ? [] : await intakeComparison()),
    ];
  } finally {
    await pool.end();
  }
};

export default bench;
