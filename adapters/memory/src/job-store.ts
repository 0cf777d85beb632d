import { randomUUID } from 'node:crypto';
import type { Job, JobRef, JobStore, LeasedJob } from '@leadroute/core';
import { okAsync } from 'neverthrow';
import { copy } from './tables';

/** Jobs by `kind\u0000id`. */
export type JobTable = Map<string, Job>;

const keyOf = (kind: string, id: string) => `${kind}\u0000${id}`;

/**
 * The memory job store. JavaScript runs one claim at a time, so a claim is
 * atomic here as `FOR UPDATE SKIP LOCKED` or `findOneAndUpdate` make it elsewhere.
 */
export function jobStore(table: JobTable): JobStore {
  // The lease ID changes with every claim, so it alone says who holds the job: a
  // worker past its lease still holds the job until another worker claims it.
  const held = (ref: JobRef): Job | undefined => {
    const job = table.get(keyOf(ref.kind, ref.id));
    return job && job.state === 'pending' && job.leaseId === ref.leaseId ? job : undefined;
  };
  const release = (job: Job, changes: Partial<Job>): Job => {
    const { leaseId: _lease, leasedUntil: _until, ...rest } = job;
    return { ...rest, ...changes };
  };
  return {
    enqueue(job, nowMs) {
      const key = keyOf(job.kind, job.id);
      if (table.has(key)) return okAsync({ enqueued: false });
      table.set(key, {
        kind: job.kind,
        id: job.id,
        payload: copy(job.payload ?? {}),
        state: 'pending',
        dueAt: job.dueAt,
        attempts: 0,
        enqueuedAt: nowMs,
      });
      return okAsync({ enqueued: true });
    },
    claim(kind, nowMs, leaseMs) {
      let best: Job | undefined;
      for (const job of table.values()) {
        if (job.kind !== kind || job.state !== 'pending' || job.dueAt > nowMs) continue;
        if (job.leasedUntil !== undefined && job.leasedUntil > nowMs) continue;
        if (!best || job.dueAt < best.dueAt || (job.dueAt === best.dueAt && job.enqueuedAt < best.enqueuedAt))
          best = job;
      }
      if (!best) return okAsync(undefined);
      const leased: LeasedJob = {
        ...best,
        attempts: best.attempts + 1,
        leaseId: randomUUID(),
        leasedUntil: nowMs + leaseMs,
      };
      table.set(keyOf(kind, best.id), leased);
      return okAsync(copy(leased));
    },
    extend(ref, nowMs, leaseMs) {
      const job = held(ref);
      if (!job) return okAsync(false);
      table.set(keyOf(ref.kind, ref.id), { ...job, leasedUntil: nowMs + leaseMs });
      return okAsync(true);
    },
    complete(ref) {
      const job = held(ref);
      if (!job) return okAsync(false);
      table.set(keyOf(ref.kind, ref.id), release(job, { state: 'done' }));
      return okAsync(true);
    },
    fail(ref, _nowMs, error, retryAt) {
      const job = held(ref);
      if (!job) return okAsync(false);
      table.set(
        keyOf(ref.kind, ref.id),
        release(job, retryAt === undefined ? { state: 'failed', error } : { dueAt: retryAt, error }),
      );
      return okAsync(true);
    },
    get: (kind, id) => okAsync(copy(table.get(keyOf(kind, id)))),
  };
}
