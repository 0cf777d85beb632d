import type { LeasedSpoolItem, Spool, SpoolError, SpoolItem, StoreError } from '@leadroute/core';
import type { Pool } from 'pg';
import { query } from '../query';
import { DEFAULT_SCHEMA, json, msToTimestamp, qualified, timestampToMs } from '../sql';

/** A spool row with its times already in epoch milliseconds (see {@link MS}). */
interface SpoolRow {
  target: string;
  key: string;
  seq: string;
  payload: string;
  route: Record<string, string> | string;
  due_at: number;
  attempts: number;
  enqueued_at: number;
  last_error: string | null;
}

/** A row the lease just took: it has a lease. */
interface LeasedRow extends SpoolRow {
  lease_id: string;
  leased_until: number;
}

/** The ports count time in epoch milliseconds; columns are timestamptz, exact to the microsecond. */
const TS = msToTimestamp;
const MS = timestampToMs;

const RETURNING = `target, key, seq, payload, route, ${MS('due_at')} AS due_at, attempts, ${MS('enqueued_at')} AS enqueued_at,
  last_error, lease_id, ${MS('leased_until')} AS leased_until`;

const toItem = (row: SpoolRow): SpoolItem => ({
  target: row.target,
  key: row.key,
  payload: row.payload,
  route: json(row.route),
  dueAt: row.due_at,
  attempts: row.attempts,
  enqueuedAt: row.enqueued_at,
  ...(row.last_error === null ? {} : { lastError: row.last_error }),
});

// Every spool statement is a single upsert or conditional update, so a unique violation
// cannot reach here; if one ever did, the spool port can only report a failure.
const asSpoolError = (error: StoreError): SpoolError =>
  error.type === 'StorageFailure' ? error : { type: 'StorageFailure', message: error.message, cause: error };

/** Options of {@link postgresSpool}. */
export interface PostgresSpoolOptions {
  /** The `pg` pool to query through; the spool never holds a connection between calls. */
  readonly pool: Pool;
  /**
   * The schema `migrate` created the tables in.
   * @default 'public'
   */
  readonly schema?: string;
}

/**
 * The delivery spool in PostgreSQL, shared by every process on the database: items
 * are leased with `FOR UPDATE SKIP LOCKED`, so concurrent workers never receive the
 * same item and a crashed worker's items come back once its lease expires.
 * @example
 * const spool = postgresSpool({ pool });
 */
export function postgresSpool(options: PostgresSpoolOptions): Spool {
  const db = options.pool;
  const table = qualified(options.schema ?? DEFAULT_SCHEMA, 'spool');
  return {
    enqueue: (entry, opts) =>
      query(
        db,
        'enqueue spool item',
        `INSERT INTO ${table} (target, key, payload, route, due_at, attempts, enqueued_at, last_error)
         VALUES ($1, $2, $3, $4::jsonb, ${TS('$5')}, $6, ${TS('$7')}, $8)
         ON CONFLICT (target, key) DO NOTHING`,
        [
          entry.target,
          entry.key,
          entry.payload,
          JSON.stringify(entry.route),
          entry.dueAt,
          opts.attempts ?? 0,
          opts.nowMs,
          opts.lastError ?? null,
        ],
      )
        .map(({ rowCount }) => ({ enqueued: rowCount > 0 }))
        .mapErr(asSpoolError),

    lease: (nowMs, opts) =>
      query<LeasedRow>(
        db,
        'lease spool items',
        `WITH due (due_target, due_key) AS (
           SELECT target, key FROM ${table}
           WHERE delivered_at IS NULL AND due_at <= ${TS('$1')} AND (leased_until IS NULL OR leased_until <= ${TS('$1')})
             AND ($4::text IS NULL OR starts_with(target, $4))
           ORDER BY due_at, seq
           LIMIT $2
           FOR UPDATE SKIP LOCKED
         )
         UPDATE ${table} AS s SET lease_id = gen_random_uuid()::text, leased_until = ${TS('$3')}
         FROM due WHERE s.target = due_target AND s.key = due_key
         RETURNING ${RETURNING}`,
        [nowMs, Math.max(0, Math.floor(opts.limit)), nowMs + opts.leaseMs, opts.targetPrefix ?? null],
      )
        .map(({ rows }) =>
          // RETURNING does not keep the CTE's order: put the oldest due first again.
          [...rows]
            .sort((a, b) => a.due_at - b.due_at || Number(BigInt(a.seq) - BigInt(b.seq)))
            .map((row): LeasedSpoolItem => ({ ...toItem(row), leaseId: row.lease_id, leasedUntil: row.leased_until })),
        )
        .mapErr(asSpoolError),

    markDelivered: (ref, nowMs) =>
      query(
        db,
        'mark spool item delivered',
        `UPDATE ${table} SET delivered_at = ${TS('$3')}, lease_id = NULL, leased_until = NULL
         WHERE target = $1 AND key = $2 AND delivered_at IS NULL`,
        [ref.target, ref.key, nowMs],
      )
        .map(() => undefined)
        .mapErr(asSpoolError),

    reschedule: (ref, opts) =>
      query(
        db,
        'reschedule spool item',
        `UPDATE ${table}
         SET attempts = attempts + 1, due_at = ${TS('$4')}, last_error = COALESCE($5, last_error), lease_id = NULL, leased_until = NULL
         WHERE target = $1 AND key = $2 AND lease_id = $3 AND delivered_at IS NULL`,
        [ref.target, ref.key, ref.leaseId, opts.dueAt, opts.error ?? null],
      )
        .map(({ rowCount }) => ({ rescheduled: rowCount > 0 }))
        .mapErr(asSpoolError),

    count: (filter = {}) =>
      query<{ n: number }>(
        db,
        'count spool items',
        `SELECT count(*)::int AS n FROM ${table} WHERE (delivered_at IS NULL) = $1 AND ($2::text IS NULL OR target = $2)`,
        [(filter.state ?? 'pending') === 'pending', filter.target ?? null],
      )
        .map(({ rows: [row] }) => row?.n ?? 0)
        .mapErr(asSpoolError),

    purgeDelivered: (beforeMs) =>
      query(db, 'purge delivered spool items', `DELETE FROM ${table} WHERE delivered_at < ${TS('$1')}`, [beforeMs])
        .map(({ rowCount }) => rowCount)
        .mapErr(asSpoolError),
  };
}
