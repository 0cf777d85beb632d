import type { CounterStore, StoreError } from '@leadroute/core';
import type { ResultAsync } from 'neverthrow';
import { type Queryable, query } from '../query';
import { qualified } from '../sql';

/**
 * Cap and ping-limit counters. `tryIncrement` is one statement: the insert of a new
 * key and the increment of an existing one are the two arms of an upsert whose
 * update only happens while `count < maximum`. Concurrent callers serialize on the
 * row lock and each re-checks the condition against the committed count, so no
 * more than `maximum` of them ever succeed.
 */
export function counterStore(db: Queryable, schema: string): CounterStore {
  const table = qualified(schema, 'counters');
  return {
    tryIncrement: (key, maximum, expiresAt) =>
      query(
        db,
        'increment counter',
        `INSERT INTO ${table} AS c (key, count, expires_at)
         SELECT $1, 1, $3::timestamptz WHERE 0 < $2::float8
         ON CONFLICT (key) DO UPDATE SET count = c.count + 1, expires_at = EXCLUDED.expires_at
         WHERE c.count < $2::float8
         RETURNING c.count`,
        // float8 takes any maximum the memory adapter compares against (7.5 allows 8, Infinity never stops).
        [key, maximum, expiresAt],
      ).map(({ rowCount }) => rowCount > 0),
    decrement: (key) =>
      query(db, 'decrement counter', `UPDATE ${table} SET count = count - 1 WHERE key = $1 AND count > 0`, [key]).map(() => undefined),
    get: (key) =>
      query<{ count: number }>(db, 'get counter', `SELECT count FROM ${table} WHERE key = $1`, [key]).map(({ rows: [row] }) => row?.count ?? 0),
  };
}

/**
 * Deletes cap and ping-limit counters whose window is over (`expires_at` before
 * `before`, ISO); the number deleted. The counter port has no purge of its own, so
 * the host's job runner calls this beside `service.events.purgeExpired()`.
 */
export function purgeExpiredCounters(db: Queryable, schema: string, before: string): ResultAsync<number, StoreError> {
  return query(db, 'purge expired counters', `DELETE FROM ${qualified(schema, 'counters')} WHERE expires_at < $1`, [before]).map(({ rowCount }) => rowCount);
}
