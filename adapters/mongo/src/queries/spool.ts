import type { RescheduleOptions, SpoolCountFilter, SpoolLeaseRef } from '@leadroute/core';
import type { Filter, UpdateFilter } from 'mongodb';
import type { SpoolDoc } from '../documents';
import type { FindQuery } from './types';

/** `text` as a regular expression matching itself literally. */
export const escapeRegex = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// `delivered_at: null` matches a missing field too, so an item is pending until
// something sets the time of its delivery.
const pending = { delivered_at: null } as const;

/**
 * Items a worker may lease at `nowMs`: pending, due, and held by nobody or by a lease
 * that has run out; oldest due first, the ObjectId (insertion order) breaking ties.
 * A target prefix is an anchored regex, which the server answers from an index.
 */
export const dueSpoolItems = (nowMs: number, targetPrefix?: string): FindQuery<SpoolDoc> => ({
  filter: {
    ...pending,
    due_at: { $lte: new Date(nowMs) },
    $or: [{ leased_until: null }, { leased_until: { $lte: new Date(nowMs) } }],
    ...(targetPrefix === undefined || targetPrefix === ''
      ? {}
      : { target: { $regex: `^${escapeRegex(targetPrefix)}` } }),
  },
  sort: { due_at: 1, _id: 1 },
});

/** Takes an item under a new lease until `leasedUntilMs`. */
export const leaseUpdate = (leaseId: string, leasedUntilMs: number): UpdateFilter<SpoolDoc> => ({
  $set: { lease_id: leaseId, leased_until: new Date(leasedUntilMs) },
});

/** The item `(target, key)` while it is still pending, whoever holds it. */
export const pendingSpoolItem = (ref: Pick<SpoolLeaseRef, 'target' | 'key'>): Filter<SpoolDoc> => ({
  target: ref.target,
  key: ref.key,
  ...pending,
});

/** Records the delivery and drops the lease: the item is now a tombstone. */
export const deliveredUpdate = (nowMs: number): UpdateFilter<SpoolDoc> => ({
  $set: { delivered_at: new Date(nowMs) },
  $unset: { lease_id: '', leased_until: '' },
});

/** The item `(target, key)` only while pending and still under this lease. */
export const leasedSpoolItem = (ref: SpoolLeaseRef): Filter<SpoolDoc> => ({
  target: ref.target,
  key: ref.key,
  lease_id: ref.leaseId,
  ...pending,
});

/** Counts the failed attempt, sets the next due time and releases the lease. */
export const rescheduleUpdate = (options: RescheduleOptions): UpdateFilter<SpoolDoc> => ({
  $inc: { attempts: 1 },
  $set: { due_at: new Date(options.dueAt), ...(options.error === undefined ? {} : { last_error: options.error }) },
  $unset: { lease_id: '', leased_until: '' },
});

/** The items {@link SpoolCountFilter} names: pending by default, or delivered; optionally of one target. */
export const spoolCount = (filter: SpoolCountFilter = {}): Filter<SpoolDoc> => ({
  ...((filter.state ?? 'pending') === 'pending' ? pending : { delivered_at: { $ne: null } }),
  ...(filter.target === undefined ? {} : { target: filter.target }),
});

/** Tombstones delivered before `beforeMs`. A pending item's null never compares below a Date. */
export const deliveredBefore = (beforeMs: number): Filter<SpoolDoc> => ({
  delivered_at: { $lt: new Date(beforeMs) },
});
