import { newId } from '@leadroute/core';
import { aLead, anAccount, anEvent } from '@leadroute/testkit';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresStorage } from './index';
import { applyMigrations, migrate } from './migrate';
import { migrations } from './migrations';
import { qualified, quoteIdent } from './sql';
import { ensurePartitions, PURGE_GRACE_MS } from './stores/partitions';
import { DATABASE_URL, databaseAvailable, insertEventAsBefore21, randomSchemaName } from './test-support';

const available = await databaseAvailable('partitions.test.ts');

const DAY = 86_400_000;
const RETENTION = 90 * DAY;
const today = Math.floor(Date.now() / DAY) * DAY;
const iso = (ms: number): string => new Date(ms).toISOString();
/** The `YYYYMMDD` of the Monday starting the UTC week of `ms`: the suffix of its partition's name. */
const week = (ms: number): string => {
  const day = Math.floor(ms / DAY) * DAY;
  return iso(day - ((new Date(day).getUTCDay() + 6) % 7) * DAY)
    .slice(0, 10)
    .replaceAll('-', '');
};

/** An event made at `at` (its ID's time) that expires 90 days later, as core makes them. */
const eventAt = (account: string, at: number, overrides: Parameters<typeof anEvent>[1] = {}) =>
  anEvent(account, { id: newId(at), start_timestamp: at, expires_at: iso(at + RETENTION), ...overrides });

describe.skipIf(!available)('events and leads partitioned by the week of their ID', () => {
  let pool: pg.Pool;
  const schemas: string[] = [];
  const newSchema = (): string => {
    const name = randomSchemaName();
    schemas.push(name);
    return name;
  };
  /** Partitions of `table` and how many rows each holds. */
  const partitions = async (schema: string, table: string): Promise<Record<string, number>> => {
    const { rows } = await pool.query<{ relname: string }>(
      `SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
        WHERE i.inhparent = $1::regclass ORDER BY c.relname`,
      [qualified(schema, table)],
    );
    const counts: Record<string, number> = {};
    for (const { relname } of rows) {
      const { rows: n } = await pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM ${qualified(schema, relname)}`,
      );
      counts[relname] = n[0]?.n ?? 0;
    }
    return counts;
  };

  beforeAll(() => {
    pool = new pg.Pool({ connectionString: DATABASE_URL, max: 6 });
  });
  afterAll(async () => {
    for (const schema of schemas) await pool.query(`DROP SCHEMA IF EXISTS ${quoteIdent(schema)} CASCADE`);
    await pool.end();
  });

  it('migration 17 moves the rows of existing unpartitioned tables into week partitions', async () => {
    const schema = newSchema();
    // The schema as the previous release left it, with data in it.
    (await applyMigrations(pool, migrations.slice(0, 16), schema))._unsafeUnwrap();
    const before = postgresStorage({ pool, schema });
    const account = anAccount().id;
    const old = eventAt(account, today - 10 * DAY + 3_600_000, { key: 'REF-OLD' });
    const now = eventAt(account, today + 60_000);
    const handMade = eventAt(account, today, { id: 'ffffffff0000000000000001' });
    const ancient = eventAt(account, Date.UTC(2020, 0, 1));
    for (const e of [old, now, handMade, ancient]) await insertEventAsBefore21(pool, schema, e);
    const lead = aLead(account, { id: newId(today - 3 * DAY) });
    (await before.leads.insert(lead))._unsafeUnwrap();

    expect((await migrate(pool, { schema }))._unsafeUnwrap().applied).toEqual(
      migrations.slice(16).map((m) => m.version),
    );

    const events = await partitions(schema, 'events');
    expect(events[`events_p${week(today - 10 * DAY)}`]).toBe(1);
    expect(events[`events_p${week(today)}`]).toBe(1);
    // IDs outside the window of week partitions (hand-made, or older than retention) are kept in the default partition.
    expect(events.events_default).toBe(2);
    for (let d = 0; d <= 7; d++) expect(events).toHaveProperty(`events_p${week(today + d * DAY)}`);
    expect((await partitions(schema, 'leads'))[`leads_p${week(today - 3 * DAY)}`]).toBe(1);

    // Every query of the stores works on the partitioned tables.
    const after = postgresStorage({ pool, schema });
    for (const e of [old, now, handMade, ancient]) expect((await after.events.get(e.id))._unsafeUnwrap()).toEqual(e);
    expect((await after.leads.get(lead.id))._unsafeUnwrap()).toEqual(lead);
    expect((await after.leads.markReturned(lead.id, iso(today)))._unsafeUnwrap()).toBe(true);
    const page = (
      await after.events.query({ account_id: account, live_at: iso(today), sort: 'desc', limit: 10 })
    )._unsafeUnwrap();
    expect(page.map((e) => e.id)).toEqual([handMade.id, now.id, old.id]);
    expect((await after.events.findByReference({ reference: 'REF-OLD', live_at: iso(today) }))._unsafeUnwrap()).toEqual(
      [old],
    );
    // The key is (account_id, id): the same event again is still a conflict.
    expect((await after.events.insert(now))._unsafeUnwrapErr().type).toBe('Conflict');
    expect((await after.leads.insert(lead))._unsafeUnwrapErr().type).toBe('Conflict');
  });

  it('retention drops a week partition once all its rows expired, and deletes no row of it one by one', async () => {
    const schema = newSchema();
    (await migrate(pool, { schema }))._unsafeUnwrap();
    const storage = postgresStorage({ pool, schema });
    const account = anAccount().id;
    // Today's events, which expire 90 days from now.
    const day = Array.from({ length: 50 }, (_, i) => eventAt(account, today + i * 1000));
    for (const e of day) (await storage.events.insert(e))._unsafeUnwrap();
    const part = `events_p${week(today)}`;

    // Half-way through their expiry: they are hidden from reads but their partition stays whole.
    const midExpiry = iso(today + RETENTION + 25_000);
    expect((await storage.events.purgeExpired(midExpiry))._unsafeUnwrap()).toBe(0);
    expect((await partitions(schema, 'events'))[part]).toBe(50);
    expect(
      (
        await storage.events.query({ account_id: account, live_at: midExpiry, sort: 'asc', limit: 100 })
      )._unsafeUnwrap(),
    ).toHaveLength(24);

    // The purge also made the partitions of the coming week, by the clock it was given.
    const ahead = await partitions(schema, 'events');
    for (let d = 0; d <= 7; d++) expect(ahead).toHaveProperty(`events_p${week(today + RETENTION + d * DAY)}`);

    // Once the last one expired: the partition is dropped whole and its rows counted.
    const allExpired = iso(today + RETENTION + 50_000);
    expect((await storage.events.purgeExpired(allExpired))._unsafeUnwrap()).toBe(50);
    expect(await partitions(schema, 'events')).not.toHaveProperty(part);
    expect((await storage.events.get(day[0]?.id as string))._unsafeUnwrap()).toBeUndefined();
    // Intake into a week whose partition was dropped still lands (in the default partition).
    (await storage.events.insert(eventAt(account, today + 5000)))._unsafeUnwrap();
  });

  it('drops a partition a purge detached but did not drop, at the next purge', async () => {
    const schema = newSchema();
    (await migrate(pool, { schema }))._unsafeUnwrap();
    const storage = postgresStorage({ pool, schema });
    const account = anAccount().id;
    for (let i = 0; i < 3; i++) (await storage.events.insert(eventAt(account, today + i * 1000)))._unsafeUnwrap();
    const part = `events_p${week(today)}`;
    // As if a purge stopped between its detach and its drop.
    await pool.query(`ALTER TABLE ${qualified(schema, 'events')} DETACH PARTITION ${qualified(schema, part)}`);
    expect((await storage.events.purgeExpired(iso(today + DAY)))._unsafeUnwrap()).toBe(3);
    const left = await pool.query('SELECT 1 FROM pg_class WHERE relnamespace = $1::regnamespace AND relname = $2', [
      quoteIdent(schema),
      part,
    ]);
    expect(left.rowCount).toBe(0);
  });

  it('deletes one by one only rows of the default partition, and rows past the grace elsewhere', async () => {
    const schema = newSchema();
    (await migrate(pool, { schema }))._unsafeUnwrap();
    const storage = postgresStorage({ pool, schema });
    const account = anAccount().id;
    const purgeAt = today + DAY / 2;
    // A row in today's partition that expired 3 days ago (its expiry does not follow its ID): past the grace.
    const stale = eventAt(account, today + 1000, { expires_at: iso(purgeAt - PURGE_GRACE_MS - DAY) });
    // One in today's partition that expired an hour ago: within the grace, kept until its partition goes.
    const recent = eventAt(account, today + 2000, { expires_at: iso(purgeAt - 3_600_000) });
    // One in the default partition (an ID of 2020) that expired a second ago: deleted at once.
    const inDefault = eventAt(account, Date.UTC(2020, 0, 1), { expires_at: iso(purgeAt - 1000) });
    const live = eventAt(account, today + 3000);
    for (const e of [stale, recent, inDefault, live]) (await storage.events.insert(e))._unsafeUnwrap();
    expect((await storage.events.purgeExpired(iso(purgeAt)))._unsafeUnwrap()).toBe(2);
    const left = await Promise.all([stale, recent, inDefault, live].map((e) => storage.events.get(e.id)));
    expect(left.map((r) => r._unsafeUnwrap()?.id)).toEqual([undefined, recent.id, undefined, live.id]);
  });

  it('creates a partition once under concurrent purges, moving its rows out of the default partition', async () => {
    const schema = newSchema();
    (await migrate(pool, { schema }))._unsafeUnwrap();
    const storage = postgresStorage({ pool, schema });
    const account = anAccount().id;
    const later = today + 30 * DAY;
    const early = eventAt(account, later + 7_200_000);
    (await storage.events.insert(early))._unsafeUnwrap();
    expect((await partitions(schema, 'events')).events_default).toBe(1);

    const created = await Promise.all(
      Array.from({ length: 4 }, () => ensurePartitions(pool, schema, 'events', later, 0)),
    );
    expect(created.map((r) => r._unsafeUnwrap()).sort()).toEqual([0, 0, 0, 1]);
    const after = await partitions(schema, 'events');
    expect(after.events_default).toBe(0);
    expect(after[`events_p${week(later)}`]).toBe(1);
    expect((await storage.events.get(early.id))._unsafeUnwrap()).toEqual(early);
  });
});
