import type { IdempotencyRecord, IdempotencyScope, IdempotencyStore } from '@leadroute/core';
import type { MongoStorageOptions } from '../collections';
import { databaseOf } from '../collections';
import { attempt, isDuplicateKey } from '../errors';

/** An idempotency record; `_id` is the scope, so the primary index is the uniqueness the port needs. */
interface IdempotencyDoc extends Omit<IdempotencyRecord, keyof IdempotencyScope> {
  _id: { account_id: string; flow_id: string; source_id: string; key: string };
}

// Field order of `_id` is part of its identity in MongoDB: always build it here.
const idOf = (s: IdempotencyScope): IdempotencyDoc['_id'] => ({ account_id: s.account_id, flow_id: s.flow_id, source_id: s.source_id, key: s.key });

const toRecord = ({ _id, ...rest }: IdempotencyDoc): IdempotencyRecord => ({ ..._id, ...rest });

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
        const _id = idOf(record);
        try {
          // Matches only an expired record; when a live one holds the key, the upsert's insert hits the _id index.
          await keys.updateOne({ _id, expires_at: { $lte: now } }, { $set: { ...rest, answer: null } }, { upsert: true });
          return { claimed: true as const };
        } catch (error) {
          if (!isDuplicateKey(error)) throw error;
          const held = await keys.findOne({ _id });
          if (!held) throw error;
          return { claimed: false as const, record: toRecord(held) };
        }
      }),
    complete: (scope, answer) => attempt('complete idempotency key', () => keys.updateOne({ _id: idOf(scope) }, { $set: { answer } })).map(() => undefined),
    release: (scope) => attempt('release idempotency key', () => keys.deleteOne({ _id: idOf(scope), answer: null })).map(() => undefined),
    purgeExpired: (before) => attempt('purge idempotency keys', () => keys.deleteMany({ expires_at: { $lt: before } })).map((r) => r.deletedCount),
  };
}
