import type { Storage } from '@leadroute/core';
import { aLead, anAccount, anEntity, anEvent, aRollupRow, freshId } from '@leadroute/testkit';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { postgresStorage } from '../index';
import { qualified } from '../sql';
import { DATABASE_URL, databaseAvailable, freshSchema, type TestSchema } from '../test-support';

const available = await databaseAvailable('group-commit.test.ts');

/**
 * A pool that counts the commits its clients make: every statement outside an
 * explicit transaction commits by itself, and so does every COMMIT.
 */
function countingPool(): { pool: pg.Pool; commits: () => number; statements: () => number } {
  const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 8 });
  let commits = 0;
  let statements = 0;
  pool.on('connect', (client) => {
    let inTransaction = false;
    const send = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
      const text = typeof args[0] === 'string' ? args[0].trim().toUpperCase() : '';
      statements += 1;
      if (text === 'BEGIN') inTransaction = true;
      else if (text === 'COMMIT') (inTransaction = false), (commits += 1);
      else if (text === 'ROLLBACK') inTransaction = false;
      else if (!inTransaction) commits += 1;
      return send(...args);
    };
  });
  return { pool, commits: () => commits, statements: () => statements };
}

describe.skipIf(!available)('postgres group commit', () => {
  let db: TestSchema;
  let counting: ReturnType<typeof countingPool>;
  let storage: Storage;
  beforeAll(async () => {
    db = await freshSchema();
    counting = countingPool();
  });
  afterAll(async () => {
    await counting?.pool.end();
    await db?.drop();
  });
  beforeEach(async () => {
    await db.truncate();
    storage = postgresStorage({ pool: counting.pool, schema: db.schema });
  });
  const rows = async (table: string, where = 'true', values: unknown[] = []) =>
    (await db.pool.query(`SELECT * FROM ${qualified(db.schema, table)} WHERE ${where}`, values)).rows;

  it('commits 40 concurrent event inserts in fewer than 40 commits, each answered only once stored', async () => {
    const account = anAccount();
    const events = Array.from({ length: 40 }, () => anEvent(account.id));
    const before = counting.commits();
    const results = await Promise.all(events.map((e) => storage.events.insert(e)));
    const commits = counting.commits() - before;
    expect(results.every((r) => r.isOk())).toBe(true);
    expect(commits).toBeGreaterThan(0);
    expect(commits).toBeLessThan(events.length);
    expect(await rows('events', 'account_id = $1', [account.id])).toHaveLength(40);
  });

  it('batches kinds together without losing a count: rollups of one cell, leads, search documents', async () => {
    const account = anAccount();
    const before = counting.commits();
    const results = await Promise.all([
      ...Array.from({ length: 20 }, () => storage.rollups.add([aRollupRow(account.id, { count: 2, revenue: 1.5 })])),
      ...Array.from({ length: 10 }, () => storage.leads.insert(aLead(account.id))),
    ]);
    expect(results.every((r) => r.isOk())).toBe(true);
    expect(counting.commits() - before).toBeLessThan(30);
    const [cell] = await rows('rollups', 'account_id = $1', [account.id]);
    expect({ count: Number(cell?.count), revenue: cell?.revenue }).toEqual({ count: 40, revenue: 30 });
    expect(await rows('leads', 'account_id = $1', [account.id])).toHaveLength(10);
  });

  it('fails only the caller whose row the database refuses, each with its own error', async () => {
    const account = anAccount();
    const taken = aLead(account.id);
    (await storage.leads.insert(taken))._unsafeUnwrap();
    const leads = Array.from({ length: 8 }, () => aLead(account.id));
    const duplicate = { ...aLead(account.id), id: taken.id };
    const unreadable = { ...aLead(account.id), expires_at: 'not a time' };
    const results = await Promise.all([...leads, duplicate, unreadable].map((l) => storage.leads.insert(l)));
    expect(results.slice(0, 8).every((r) => r.isOk())).toBe(true);
    const conflict = results[8]?._unsafeUnwrapErr();
    const failure = results[9]?._unsafeUnwrapErr();
    expect(conflict).toMatchObject({ type: 'Conflict', cause: { code: '23505' } });
    expect(failure).toMatchObject({ type: 'StorageFailure', cause: { code: '22007' } });
    expect(failure?.message).toMatch(/^\[leadroute\] \[postgres\] insert lead failed: /);
    const stored = await rows('leads', 'account_id = $1', [account.id]);
    expect(new Set(stored.map((l) => l.id))).toEqual(new Set([taken.id, ...leads.map((l) => l.id)]));
  });

  it('keeps a cap exact when one batch asks more increments than it has room for', async () => {
    const key = `cap:${freshId()}`;
    const roomy = `cap:${freshId()}`;
    const before = counting.commits();
    const results = await Promise.all([
      ...Array.from({ length: 30 }, () => storage.counters.tryIncrement(key, 13, '2030-01-01T00:00:00.000Z')),
      ...Array.from({ length: 30 }, () => storage.counters.tryIncrement(roomy, 100, '2030-01-01T00:00:00.000Z')),
    ]);
    const counted = results.map((r) => r._unsafeUnwrap());
    expect(counted.slice(0, 30).filter(Boolean)).toHaveLength(13);
    expect(counted.slice(30).every(Boolean)).toBe(true);
    expect((await storage.counters.get(key))._unsafeUnwrap()).toBe(13);
    expect((await storage.counters.get(roomy))._unsafeUnwrap()).toBe(30);
    // The roomy counter's 30 increments fit at once; the full one's were made one by one.
    expect(counting.commits() - before).toBeLessThan(60);
  });

  it('answers true to exactly one of many concurrent first sightings of a source', async () => {
    const account = anAccount();
    const source = freshId();
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        storage.alerts.markSourceSeen(account.id, source, `2026-01-01T00:00:${String(i).padStart(2, '0')}.000Z`),
      ),
    );
    expect(results.map((r) => r._unsafeUnwrap()).filter(Boolean)).toHaveLength(1);
    expect(results[0]?._unsafeUnwrap()).toBe(true);
  });

  it('reads one entity for many concurrent callers in one statement, each getting a copy of its own', async () => {
    const account = anAccount();
    const entity = anEntity(account.id);
    const other = anEntity(account.id);
    (await storage.entities.insert(entity))._unsafeUnwrap();
    (await storage.entities.insert(other))._unsafeUnwrap();
    const before = counting.statements();
    const got = await Promise.all([
      ...Array.from({ length: 6 }, () => storage.entities.get(entity.id)),
      storage.entities.get(other.id),
      storage.entities.get(freshId()),
    ]);
    expect(counting.statements() - before).toBe(1);
    const [first, second] = got.map((r) => r._unsafeUnwrap());
    expect(first).toEqual(entity);
    expect(second).toEqual(entity);
    expect(second).not.toBe(first);
    expect(second?.flow_ids).not.toBe(first?.flow_ids);
    expect(got[6]?._unsafeUnwrap()).toEqual(other);
    expect(got[7]?._unsafeUnwrap()).toBeUndefined();
  });

  it('sends a batch of any size as a statement its connection prepared once: parsed and planned once, run by name', async () => {
    // One connection, so every batch runs where the first was prepared.
    const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 1 });
    try {
      const alone = postgresStorage({ pool, schema: db.schema });
      const account = anAccount();
      for (const size of [1, 3, 7]) {
        const results = await Promise.all(Array.from({ length: size }, () => alone.events.insert(anEvent(account.id))));
        expect(results.every((r) => r.isOk())).toBe(true);
      }
      const { rows: prepared } = await pool.query<{ runs: number }>(
        `SELECT (generic_plans + custom_plans)::int AS runs FROM pg_prepared_statements
          WHERE name LIKE 'leadroute_%' AND statement LIKE '%INSERT INTO ' || $1 || '%'`,
        [qualified(db.schema, 'events')],
      );
      expect(prepared).toEqual([{ runs: 3 }]);
      expect(await rows('events', 'account_id = $1', [account.id])).toHaveLength(11);
    } finally {
      await pool.end();
    }
  });
});
