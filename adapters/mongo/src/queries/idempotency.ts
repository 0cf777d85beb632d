import type { IdempotentAnswer, IdempotencyRecord, IdempotencyScope } from '@leadroute/core';
import type { Filter } from 'mongodb';

/** An idempotency record; `_id` is the scope, so the primary index is the uniqueness the port needs. */
export interface IdempotencyDoc extends Omit<IdempotencyRecord, keyof IdempotencyScope> {
  _id: { account_id: string; flow_id: string; source_id: string; key: string };
}

// Field order of `_id` is part of its identity in MongoDB: always build it here.
const idOf = (s: IdempotencyScope): IdempotencyDoc['_id'] => ({
  account_id: s.account_id,
  flow_id: s.flow_id,
  source_id: s.source_id,
  key: s.key,
});

/** The record the store hands out, from its document. */
export const toIdempotencyRecord = ({ _id, ...rest }: IdempotencyDoc): IdempotencyRecord => ({ ..._id, ...rest });

/** The key's record, whatever its state. */
export const idempotencyKeyById = (scope: IdempotencyScope): Filter<IdempotencyDoc> => ({ _id: idOf(scope) });

/**
 * The key's record only when it has expired. Used with an upsert: when a live record
 * holds the key nothing matches, and the insert meets `_id` and fails with a duplicate key.
 */
export const expiredIdempotencyKey = (scope: IdempotencyScope, now: string): Filter<IdempotencyDoc> => ({
  _id: idOf(scope),
  expires_at: { $lte: now },
});

/** A fresh claim: the record's times and fingerprint, no answer yet. */
export const claimIdempotencyUpdate = (record: Omit<IdempotencyRecord, keyof IdempotencyScope | 'answer'>) => ({
  $set: { ...record, answer: null },
});

/** The first request's answer, stored for retries. */
export const answerIdempotencyUpdate = (answer: IdempotentAnswer) => ({ $set: { answer } });

/** The key's record only while it has no answer: a failed first request frees it. */
export const unansweredIdempotencyKey = (scope: IdempotencyScope): Filter<IdempotencyDoc> => ({
  _id: idOf(scope),
  answer: null,
});

/** Records that expired before `before`. */
export const idempotencyExpiredBefore = (before: string): Filter<IdempotencyDoc> => ({ expires_at: { $lt: before } });
