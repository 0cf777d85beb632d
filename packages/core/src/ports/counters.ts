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
  /** The current count (0 when absent). */
  get(key: string): ResultAsync<number, StoreError>;
}
