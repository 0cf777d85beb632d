import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { applyMigrations } from './migrate';
import { guardPool } from './pool';
import { isUnavailable, query, toStoreError } from './query';
import { DATABASE_URL, databaseAvailable } from './test-support';

describe('#18.10 classifying database errors', () => {
  const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

  it('#18.10 lost, refused and timed-out connections are StorageUnavailable; other errors keep their kind', () => {
    const unavailable = [
      withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'),
      withCode('read ECONNRESET', 'ECONNRESET'),
      withCode('terminating connection due to administrator command', '57P01'),
      withCode('terminating connection due to crash of another server process', '57P02'),
      withCode('the database system is starting up', '57P03'),
      withCode('canceling statement due to statement timeout', '57014'),
      withCode('connection failure', '08006'),
      new Error('Query read timeout'),
      new Error('timeout exceeded when trying to connect'),
      new Error('Connection terminated unexpectedly'),
      new Error('Connection terminated due to connection timeout'),
      new AggregateError([
        withCode('connect ECONNREFUSED ::1:5432', 'ECONNREFUSED'),
        withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'),
      ]),
    ];
    for (const error of unavailable) {
      expect(isUnavailable(error), error.message).toBe(true);
      expect(toStoreError('get flow', error)).toMatchObject({
        type: 'StorageUnavailable',
        retryAfter: 2,
        cause: error,
      });
    }
    expect(toStoreError('insert lead', withCode('duplicate key value', '23505')).type).toBe('Conflict');
    expect(toStoreError('get flow', withCode('syntax error at or near "SELEC"', '42601')).type).toBe('StorageFailure');
    expect(toStoreError('get flow', new Error('Cannot use a pool after calling end on the pool')).type).toBe(
      'StorageFailure',
    );
  });
});

const available = await databaseAvailable('pool.test.ts');

describe.skipIf(!available)('#18.11 guardPool on the shared server', () => {
  const pools: pg.Pool[] = [];
  afterAll(async () => {
    for (const pool of pools) await pool.end();
  });

  it('#18.11 a statement past the statement timeout fails as StorageUnavailable, and the pool goes on answering', async () => {
    const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 2 });
    pools.push(pool);
    // A client opened before the guard (as migrate() leaves one) must be bounded too.
    await pool.query('SELECT 1');
    const db = guardPool(pool, {
      statementTimeoutMs: 300,
      acquireTimeoutMs: 1000,
      logger: { debug() {}, info() {}, warn() {}, error() {} },
    });
    expect(pool.options).toMatchObject({ connectionTimeoutMillis: 1000, query_timeout: 300, statement_timeout: 300 });
    const started = Date.now();
    const slow = await query(db, 'sleep', 'SELECT pg_sleep(10)');
    expect(Date.now() - started, 'bounded by the timeout, not by the statement').toBeLessThan(5000);
    expect(slow._unsafeUnwrapErr().type).toBe('StorageUnavailable');
    // The same through a lent client (as the group commit borrows them).
    const client = await pool.connect();
    try {
      await expect(client.query('SELECT pg_sleep(10)')).rejects.toThrow();
    } finally {
      client.release(true);
    }
    expect((await query<{ one: number }>(db, 'select', 'SELECT 1 AS one'))._unsafeUnwrap().rows).toEqual([{ one: 1 }]);
    expect(pool.listenerCount('error')).toBe(1);
    guardPool(pool);
    expect(pool.listenerCount('error'), 'one listener however many storages share the pool').toBe(1);
  });

  it('#18.11 migrate() on a guarded pool is exempt from the statement timeout', async () => {
    const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 2 });
    pools.push(pool);
    guardPool(pool, { statementTimeoutMs: 200, logger: { debug() {}, info() {}, warn() {}, error() {} } });
    const schema = `guarded_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
    try {
      const slow = [
        { version: 1, name: 'slow', up: (s: string) => `SELECT pg_sleep(0.6); CREATE TABLE ${s}.t (id int)` },
      ];
      expect((await applyMigrations(pool, slow, schema))._unsafeUnwrap()).toMatchObject({ applied: [1] });
    } finally {
      await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    }
  });
});
