import type { IdempotencyStore } from '@leadroute/core';
import type { MongoStorageOptions } from '../collections';
import { databaseOf } from '../collections';
import { attempt, isDuplicateKey } from '../errors';
import {
  answerIdempotencyUpdate,
  claimIdempotencyUpdate,
  expiredIdempotencyKey,
  type IdempotencyDoc,
  idempotencyExpiredBefore,
  idempotencyKeyById,
  toIdempotencyRecord,
  unansweredIdempotencyKey,
} from '../queries';

/**
 * Idempotency keys in the `idempotency_keys` collection. Times are ISO text (UTC), which
 * compares in time order; `purgeExpired` removes what has expired.
 */
export function idempotencyStore(options: MongoStorageOptions): IdempotencyStore {
  const keys = databaseOf(options).collection<IdempotencyDoc>('idempotency_keys');
  return {
    claim: (record, now) =>
      attempt('claim idempotency key', async () => {
        const { account_id, flow_id, source_id, key, ...rest } = record;
        try {
          // Matches only an expired record; when a live one holds the key, the upsert's insert hits the primary index.
          await keys.updateOne(expiredIdempotencyKey(record, now), claimIdempotencyUpdate(rest), { upsert: true });
          return { claimed: true as const };
        } catch (error) {
          if (!isDuplicateKey(error)) throw error;
          const held = await keys.findOne(idempotencyKeyById(record));
          if (!held) throw error;
          return { claimed: false as const, record: toIdempotencyRecord(held) };
        }
      }),
    complete: (scope, answer) =>
      attempt('complete idempotency key', () =>
        keys.updateOne(idempotencyKeyById(scope), answerIdempotencyUpdate(answer)),
      ).map(() => undefined),
    release: (scope) =>
      attempt('release idempotency key', () => keys.deleteOne(unansweredIdempotencyKey(scope))).map(() => undefined),
    purgeExpired: (before) =>
      attempt('purge idempotency keys', () => keys.deleteMany(idempotencyExpiredBefore(before))).map(
        (r) => r.deletedCount,
      ),
  };
}
