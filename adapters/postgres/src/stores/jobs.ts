import type { Job, JobRef, JobStore, LeasedJob } from '@leadroute/core';
import { type Queryable, query } from '../query';
import { fromJsonb, fromJsonbText, msToTimestamp as TS, qualified, timestampToMs as MS, toJsonb } from '../sql';

interface JobRow {
  kind: string;
  id: string;
  payload: Job['payload'] | string;
  state: Job['state'];
  due_at: number;
  attempts: number;
  enqueued_at: number;
  lease_id: string | null;
  leased_until: number | null;
  error: string | null;
}

const COLUMNS = `kind, id, payload, state, ${MS('due_at')} AS due_at, attempts, ${MS('enqueued_at')} AS enqueued_at,
  lease_id, ${MS('leased_until')} AS leased_until, error::text AS error`;

const toJob = (row: JobRow): Job => ({
  kind: row.kind,
  id: row.id,
  payload: fromJsonb(row.payload),
  state: row.state,
  dueAt: row.due_at,
  attempts: row.attempts,
  enqueuedAt: row.enqueued_at,
  ...(row.lease_id === null ? {} : { leaseId: row.lease_id }),
  ...(row.leased_until === null ? {} : { leasedUntil: row.leased_until }),
  ...(row.error === null ? {} : { error: fromJsonbText<string>(row.error) }),
});

/**
 * Leased background jobs. `claim` is one statement: it picks the earliest due
 * claimable job `FOR UPDATE SKIP LOCKED` (a job another claimer is taking is skipped,
 * never waited for) and gives it a fresh lease ID, so two workers never hold one job.
 * The lease ID alone says who holds a job: every settling statement matches on it,
 * so a worker whose lease was taken over finds its calls answering false.
 */
export function jobStore(db: Queryable, schema: string): JobStore {
  const table = qualified(schema, 'jobs');
  const HELD = `kind = $1 AND id = $2 AND lease_id = $3 AND state = 'pending'`;
  const held = (ref: JobRef): unknown[] => [ref.kind, ref.id, ref.leaseId];
  return {
    enqueue: (job, nowMs) =>
      query(
        db,
        'enqueue job',
        `INSERT INTO ${table} (kind, id, payload, state, due_at, attempts, enqueued_at)
         VALUES ($1, $2, $3::jsonb, 'pending', ${TS('$4')}, 0, ${TS('$5')})
         ON CONFLICT (kind, id) DO NOTHING`,
        [job.kind, job.id, toJsonb(job.payload ?? {}), job.dueAt, nowMs],
      ).map(({ rowCount }) => ({ enqueued: rowCount > 0 })),
    claim: (kind, nowMs, leaseMs) =>
      query<JobRow>(
        db,
        'claim job',
        `WITH next AS (
           SELECT kind AS next_kind, id AS next_id FROM ${table}
           WHERE kind = $1 AND state = 'pending' AND due_at <= ${TS('$2')} AND (leased_until IS NULL OR leased_until <= ${TS('$2')})
           ORDER BY due_at, enqueued_at, seq
           LIMIT 1
           FOR UPDATE SKIP LOCKED
         )
         UPDATE ${table} SET attempts = attempts + 1, lease_id = gen_random_uuid()::text, leased_until = ${TS('$3')}
         FROM next WHERE kind = next_kind AND id = next_id
         RETURNING ${COLUMNS}`,
        [kind, nowMs, nowMs + leaseMs],
      ).map(({ rows: [row] }) => (row ? (toJob(row) as LeasedJob) : undefined)),
    extend: (ref, nowMs, leaseMs) =>
      query(db, 'extend job lease', `UPDATE ${table} SET leased_until = ${TS('$4')} WHERE ${HELD}`, [
        ...held(ref),
        nowMs + leaseMs,
      ]).map(({ rowCount }) => rowCount > 0),
    complete: (ref) =>
      query(
        db,
        'complete job',
        `UPDATE ${table} SET state = 'done', lease_id = NULL, leased_until = NULL WHERE ${HELD}`,
        held(ref),
      ).map(({ rowCount }) => rowCount > 0),
    fail: (ref, _nowMs, error, retryAt) =>
      query(
        db,
        'fail job',
        retryAt === undefined
          ? `UPDATE ${table} SET state = 'failed', error = $4::jsonb, lease_id = NULL, leased_until = NULL WHERE ${HELD}`
          : `UPDATE ${table} SET due_at = ${TS('$5')}, error = $4::jsonb, lease_id = NULL, leased_until = NULL WHERE ${HELD}`,
        retryAt === undefined ? [...held(ref), toJsonb(error)] : [...held(ref), toJsonb(error), retryAt],
      ).map(({ rowCount }) => rowCount > 0),
    get: (kind, id) =>
      query<JobRow>(db, 'get job', `SELECT ${COLUMNS} FROM ${table} WHERE kind = $1 AND id = $2`, [kind, id]).map(
        ({ rows: [row] }) => (row ? toJob(row) : undefined),
      ),
  };
}
