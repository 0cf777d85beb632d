import type { ResultAsync } from 'neverthrow';
import type { StoreError } from './store-error';

/** Counters behind volume caps and ping limits: each window of a limit is one record. */
export interface CounterStore {
  /**
   * Adds one to the counter `key` if it is below `maximum`, atomically: under any
   * number of concurrent callers no more than `maximum` ever succeed. True when
   * counted. `expiresAt` (ISO) is when the record may be dropped.
   */
  tryIncrement(key: string, maximum: number, expiresAt: string): ResultAsync<boolean, StoreError>;
  /** Gives back one count (a reserved cap slot whose delivery failed). */
  decrement(key: string): ResultAsync<void, StoreError>;
  /**
   * Claims the key for one holder until `expiresAt` (ISO), atomically: true when the key was
   * absent, released (count 0) or expired (`expires_at` at or before `now`, ISO), and it is now
   * held (count 1); false while another claim holds it. Under any number of concurrent callers
   * one at most succeeds. `decrement` releases a claim. What duplicate checks are built on.
   */
  claim(key: string, expiresAt: string, now: string): ResultAsync<boolean, StoreError>;
  /** The current count (0 when absent). */
  get(key: string): ResultAsync<number, StoreError>;
}
