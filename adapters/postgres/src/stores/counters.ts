import type { CounterStore, StoreError } from '@leadroute/core';
import type { ResultAsync } from 'neverthrow';
import { directWriter, distinctRounds, WRITE_ALONE, type WriteKind, type Writer } from '../batch/writer';
import { type Queryable, query } from '../query';
import { asStored, qualified } from '../sql';

interface Increment {
  readonly key: string;
  readonly maximum: number;
  readonly expiresAt: string;
}

/** Increments of one counter with the same maximum and window, made together. */
interface Group {
  readonly key: string;
  readonly maximum: number;
  readonly expiresAt: string;
  readonly indexes: number[];
}

/**
 * Increments in one upsert per round of distinct keys (an upsert cannot touch a row
 * twice in a statement). Equal increments of one key (same maximum and window, as
 * every lead through one cap asks) go as one row adding `n`, and only when all `n`
 * fit (`count + n - 1 < maximum`), which is exactly when made one after the other
 * each would have counted. When they do not all fit, the row is left as it was and
 * each is made alone afterwards ({@link WRITE_ALONE}), one at a time. One increment
 * is the plain upsert: insert the key with count 1, or add 1 while `count < maximum`.
 * RETURNING names the keys that counted; keys go in sorted order, so batches of
 * several processes lock counters in the same order.
 */
const incrementCounters = (table: string): WriteKind<Increment, boolean> => ({
  what: 'increment counter',
  plan: (increments) => {
    const groups = new Map<string, Group>();
    increments.forEach((i, index) => {
      const id = JSON.stringify([asStored(i.key), i.maximum, i.expiresAt]);
      const group = groups.get(id);
      if (group) group.indexes.push(index);
      else groups.set(id, { key: i.key, maximum: i.maximum, expiresAt: i.expiresAt, indexes: [index] });
    });
    const rounds = distinctRounds([...groups.values()], (g) => asStored(g.key));
    return {
      statements: rounds.map((round) => ({
        text: `INSERT INTO ${table} AS c (key, count, expires_at)
         SELECT t.key, t.n, t.expires_at FROM unnest($1::text[], $2::float8[], $3::timestamptz[], $4::int[]) AS t (key, maximum, expires_at, n)
         CROSS JOIN (SELECT set_config('synchronous_commit', 'off', true)) AS asynchronous
         WHERE t.n - 1 < t.maximum ORDER BY t.key COLLATE "C"
         ON CONFLICT (key) DO UPDATE SET count = c.count + EXCLUDED.count, expires_at = EXCLUDED.expires_at
         WHERE c.count + EXCLUDED.count - 1 < (SELECT u.maximum FROM unnest($1::text[], $2::float8[]) AS u (key, maximum) WHERE u.key = c.key)
         RETURNING c.key`,
        prepared: true,
        // float8 takes any maximum the memory adapter compares against (7.5 allows 8, Infinity never stops).
        values: [
          round.map(({ input }) => input.key),
          round.map(({ input }) => input.maximum),
          round.map(({ input }) => input.expiresAt),
          round.map(({ input }) => input.indexes.length),
        ],
      })),
      answers: (results) => {
        const counted: (boolean | typeof WRITE_ALONE)[] = increments.map(() => false);
        rounds.forEach((round, r) => {
          const keys = new Set((results[r]?.rows ?? []).map((row: { key: string }) => row.key));
          for (const { input: group } of round) {
            // A lone increment that did not count is refused; several that did not all fit are made one by one.
            const answer = keys.has(asStored(group.key)) ? true : group.indexes.length > 1 ? WRITE_ALONE : false;
            for (const index of group.indexes) counted[index] = answer;
          }
        });
        return counted;
      },
    };
  },
});

/**
 * Cap and ping-limit counters. `tryIncrement` is one upsert (see above): concurrent
 * callers serialize on the row lock and each re-checks the condition against the
 * committed count, so no more than `maximum` of them ever succeed.
 *
 * An increment commits without waiting for its WAL to reach disk (`synchronous_commit`
 * off for its transaction alone): it is visible to every other caller at once, which
 * is what a cap needs, and it is made durable by the commit of its lead, which waits
 * for the WAL up to that point, this increment included (the WAL is written in
 * order). So an acknowledged lead's slot is never lost, and a lead waits for one
 * flush instead of two. What a database crash can lose is the slots of leads not
 * yet acknowledged (delivered perhaps, stored not): at most the increments of the
 * last moments before the crash (PostgreSQL flushes asynchronous commits within
 * three `wal_writer_delay`s, and every synchronous commit flushes them too). Increments go
 * through `writer`, which may send several callers' increments in one statement.
 */
export function counterStore(db: Queryable, schema: string, writer: Writer = directWriter(db)): CounterStore {
  const table = qualified(schema, 'counters');
  const increment = incrementCounters(table);
  return {
    tryIncrement: (key, maximum, expiresAt) => writer.write(increment, { key, maximum, expiresAt }),
    decrement: (key) =>
      query(db, 'decrement counter', `UPDATE ${table} SET count = count - 1 WHERE key = $1 AND count > 0`, [key]).map(
        () => undefined,
      ),
    // One upsert: concurrent claims of a key serialize on its row lock, and the WHERE re-reads the committed row.
    claim: (key, expiresAt, now) =>
      query(
        db,
        'claim counter',
        `INSERT INTO ${table} AS c (key, count, expires_at) VALUES ($1, 1, $2)
         ON CONFLICT (key) DO UPDATE SET count = 1, expires_at = EXCLUDED.expires_at
         WHERE c.count <= 0 OR c.expires_at <= $3
         RETURNING c.key`,
        [key, expiresAt, now],
      ).map(({ rowCount }) => rowCount === 1),
    get: (key) =>
      query<{ count: number }>(db, 'get counter', `SELECT count FROM ${table} WHERE key = $1`, [key]).map(
        ({ rows: [row] }) => row?.count ?? 0,
      ),
  };
}

/**
 * Deletes cap and ping-limit counters whose window is over (`expires_at` before
 * `before`, ISO); the number deleted. The counter port has no purge of its own, so
 * the host's job runner calls this beside `service.events.purgeExpired()`.
 */
export function purgeExpiredCounters(db: Queryable, schema: string, before: string): ResultAsync<number, StoreError> {
  return query(db, 'purge expired counters', `DELETE FROM ${qualified(schema, 'counters')} WHERE expires_at < $1`, [
    before,
  ]).map(({ rowCount }) => rowCount);
}
