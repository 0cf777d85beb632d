import { randomUUID } from 'node:crypto';
import type { JobStore, LeasedJob } from '@leadroute/core';
import { errAsync, okAsync } from 'neverthrow';
import type { MongoCollections } from '../collections';
import { attempt } from '../errors';
import { claimableJobs, claimUpdate, completeUpdate, extendUpdate, failUpdate, heldJob, jobById } from '../queries';
import { jobDocument, toJob } from '../records-work';

/**
 * Leased background jobs, `_id` = `{ kind, id }`. `claim` is one `findOneAndUpdate`
 * that re-checks the job is pending, due and unheld as it takes it and gives it a
 * fresh lease ID, so two workers never hold one job and an expired lease is taken
 * over. Every settling update matches on the lease ID: a worker whose lease was
 * taken over finds its calls answering false.
 */
export function jobStore(c: Pick<MongoCollections, 'jobs'>, newLeaseId: () => string = randomUUID): JobStore {
  return {
    enqueue: (job, nowMs) =>
      attempt('enqueue job', () => c.jobs.insertOne(jobDocument(job, nowMs)))
        .map((): { readonly enqueued: boolean } => ({ enqueued: true }))
        .orElse((error) => (error.type === 'Conflict' ? okAsync({ enqueued: false }) : errAsync(error))),
    claim: (kind, nowMs, leaseMs) =>
      attempt('claim job', async () => {
        const { filter, sort } = claimableJobs(kind, nowMs);
        const doc = await c.jobs.findOneAndUpdate(filter, claimUpdate(newLeaseId(), nowMs + leaseMs), {
          sort,
          returnDocument: 'after',
        });
        return doc ? (toJob(doc) as LeasedJob) : undefined;
      }),
    extend: (ref, nowMs, leaseMs) =>
      attempt('extend job lease', () => c.jobs.updateOne(heldJob(ref), extendUpdate(nowMs + leaseMs))).map(
        ({ matchedCount }) => matchedCount > 0,
      ),
    complete: (ref) =>
      attempt('complete job', () => c.jobs.updateOne(heldJob(ref), completeUpdate())).map(
        ({ matchedCount }) => matchedCount > 0,
      ),
    fail: (ref, _nowMs, error, retryAt) =>
      attempt('fail job', () => c.jobs.updateOne(heldJob(ref), failUpdate(error, retryAt))).map(
        ({ matchedCount }) => matchedCount > 0,
      ),
    get: (kind, id) =>
      attempt('get job', async () => {
        const doc = await c.jobs.findOne(jobById(kind, id));
        return doc ? toJob(doc) : undefined;
      }),
  };
}
