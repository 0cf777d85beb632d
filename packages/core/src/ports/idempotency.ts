import type { ResultAsync } from 'neverthrow';
import type { StoreError } from './store-error';

/** What an `Idempotency-Key` is unique within: the key a source sent to one flow, in one account. */
export interface IdempotencyScope {
  readonly account_id: string;
  readonly flow_id: string;
  readonly source_id: string;
  readonly key: string;
}

/** The answer the first request with a key got, replayed to every retry. */
export interface IdempotentAnswer {
  readonly status: number;
  readonly body: unknown;
}

/** A key's record: claimed by the first request, answered once that request has its answer. */
export interface IdempotencyRecord extends IdempotencyScope {
  /** A digest of the first request's body; a retry with another body is refused. */
  readonly fingerprint: string;
  /** The first request's answer; null while that request is still in flight. */
  readonly answer: IdempotentAnswer | null;
  /** ISO 8601 UTC. */
  readonly created_at: string;
  /** ISO 8601 UTC; from then on the key is free again. */
  readonly expires_at: string;
}

/** What {@link IdempotencyStore.claim} found: the key was free (now claimed), or the live record holding it. */
export type IdempotencyClaim =
  | { readonly claimed: true }
  | { readonly claimed: false; readonly record: IdempotencyRecord };

/** Idempotency keys of lead intake (`Idempotency-Key` on submit). */
export interface IdempotencyStore {
  /**
   * Atomically claims the record's key for a first request (answer null), unless a record
   * of that scope that has not expired by `now` (ISO) holds it: then that record comes back
   * and nothing is written. An expired record is replaced.
   */
  claim(record: Omit<IdempotencyRecord, 'answer'>, now: string): ResultAsync<IdempotencyClaim, StoreError>;
  /** Stores the first request's answer on its claimed record. */
  complete(scope: IdempotencyScope, answer: IdempotentAnswer): ResultAsync<void, StoreError>;
  /**
   * Frees a claim whose request got no answer worth replaying (it failed), so a retry runs anew; an answered record
   * stays.
   */
  release(scope: IdempotencyScope): ResultAsync<void, StoreError>;
  /** Deletes the records that expired before `before` (ISO); answers how many. */
  purgeExpired(before: string): ResultAsync<number, StoreError>;
}
