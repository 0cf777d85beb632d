import type { JobRef } from '@leadroute/core';
import type { Filter } from 'mongodb';
import type { JobDoc } from '../records-work';
import type { FindQuery } from './types';

/** The job `(kind, id)`: its compound `_id`. */
export const jobById = (kind: string, id: string): Filter<JobDoc> => ({ _id: { kind, id } });

/**
 * Jobs of `kind` a worker may claim at `nowMs`: pending, due, and held by nobody or
 * by a lease that ran out; earliest due first, then first enqueued (`jobs_claim`).
 */
export const claimableJobs = (kind: string, nowMs: number): FindQuery<JobDoc> => ({
  filter: {
    '_id.kind': kind,
    state: 'pending',
    due_at: { $lte: new Date(nowMs) },
    $or: [{ leased_until: null }, { leased_until: { $lte: new Date(nowMs) } }],
  },
  sort: { due_at: 1, enqueued_at: 1, '_id.id': 1 },
});

/** Takes the job under a new lease until `leasedUntilMs`, counting the attempt. */
export const claimUpdate = (leaseId: string, leasedUntilMs: number) => ({
  $inc: { attempts: 1 },
  $set: { lease_id: leaseId, leased_until: new Date(leasedUntilMs) },
});

/** The job only while pending under this lease: a worker whose lease was taken over matches nothing. */
export const heldJob = (ref: JobRef): Filter<JobDoc> => ({
  _id: { kind: ref.kind, id: ref.id },
  lease_id: ref.leaseId,
  state: 'pending',
});

/** Moves the lease's end. */
export const extendUpdate = (leasedUntilMs: number) => ({ $set: { leased_until: new Date(leasedUntilMs) } });

/** Done, and released. */
export const completeUpdate = () => ({ $set: { state: 'done' as const, lease_id: null, leased_until: null } });

/** Released after a failure: pending again from `retryAtMs` when given, failed for good otherwise. */
export const failUpdate = (error: string, retryAtMs?: number) => ({
  $set: {
    ...(retryAtMs === undefined ? { state: 'failed' as const } : { due_at: new Date(retryAtMs) }),
    error,
    lease_id: null,
    leased_until: null,
  },
});
