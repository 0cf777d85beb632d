import { randomUUID } from 'node:crypto';
import type { LeasedSpoolItem, Spool, SpoolError, StoreError } from '@leadroute/core';
import { errAsync, okAsync } from 'neverthrow';
import { collectionsOf, type MongoStorageOptions } from '../collections';
import { spoolDocument, toLeasedSpoolItem } from '../documents';
import { attempt } from '../errors';
import {
  deliveredBefore,
  deliveredUpdate,
  dueSpoolItems,
  leasedSpoolItem,
  leaseUpdate,
  pendingSpoolItem,
  rescheduleUpdate,
  spoolCount,
} from '../queries';

/** Options of {@link mongoSpool}. */
export interface MongoSpoolOptions extends MongoStorageOptions {
  /**
   * Makes lease IDs; override for deterministic tests.
   * @default crypto.randomUUID
   */
  readonly newLeaseId?: () => string;
}

// Only `enqueue` can meet a duplicate key, and it answers that as `enqueued: false`;
// anywhere else the spool port can only report a failure.
const asSpoolError = (error: StoreError): SpoolError =>
  error.type === 'StorageFailure' ? error : { type: 'StorageFailure', message: error.message, cause: error };

/**
 * The delivery spool in MongoDB, shared by every process on the database. Each item
 * is leased with its own `findOneAndUpdate`, which re-checks that the item is free
 * as it takes it, so concurrent workers never receive the same item and a crashed
 * worker's items come back once their lease runs out. Needs `ensureIndexes()`:
 * the unique `(target, key)` index is what makes `enqueue` idempotent.
 * @example
 * const spool = mongoSpool({ client, dbName: 'leadroute' });
 */
export function mongoSpool(options: MongoSpoolOptions): Spool {
  const { spool } = collectionsOf(options);
  const newLeaseId = options.newLeaseId ?? randomUUID;
  return {
    enqueue: (entry, opts) =>
      attempt('enqueue spool item', () => spool.insertOne(spoolDocument(entry, opts)))
        .map((): { readonly enqueued: boolean } => ({ enqueued: true }))
        .orElse((error) => (error.type === 'Conflict' ? okAsync({ enqueued: false }) : errAsync(asSpoolError(error)))),

    lease: (nowMs, opts) =>
      attempt('lease spool items', async () => {
        // One item per round trip: the server has no atomic "update the first N". Should
        // a later round fail, the items already taken come back when their lease ends.
        const { filter, sort } = dueSpoolItems(nowMs, opts.targetPrefix);
        const limit = Math.max(0, Math.floor(opts.limit));
        const leased: LeasedSpoolItem[] = [];
        while (leased.length < limit) {
          const doc = await spool.findOneAndUpdate(filter, leaseUpdate(newLeaseId(), nowMs + opts.leaseMs), {
            sort,
            returnDocument: 'after',
          });
          if (doc === null) break;
          leased.push(toLeasedSpoolItem(doc));
        }
        return leased;
      }).mapErr(asSpoolError),

    markDelivered: (ref, nowMs) =>
      attempt('mark spool item delivered', () => spool.updateOne(pendingSpoolItem(ref), deliveredUpdate(nowMs)))
        .map(() => undefined)
        .mapErr(asSpoolError),

    reschedule: (ref, opts) =>
      attempt('reschedule spool item', () => spool.updateOne(leasedSpoolItem(ref), rescheduleUpdate(opts)))
        .map(({ matchedCount }) => ({ rescheduled: matchedCount > 0 }))
        .mapErr(asSpoolError),

    count: (filter) =>
      attempt('count spool items', () => spool.countDocuments(spoolCount(filter))).mapErr(asSpoolError),

    purgeDelivered: (beforeMs) =>
      attempt('purge delivered spool items', () => spool.deleteMany(deliveredBefore(beforeMs)))
        .map(({ deletedCount }) => deletedCount)
        .mapErr(asSpoolError),
  };
}
