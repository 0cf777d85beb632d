import type { ResultAsync } from 'neverthrow';
import type { StoredEvent } from '../events/types';
import type { Id } from '../ids';
import type { StoreError } from './store-error';

/** What the store filters on; rule filters and projections are applied by core. */
export interface EventStoreQuery {
  readonly account_id: Id;
  /** Only events with an ID greater than this (exclusive). */
  readonly after_id?: Id;
  /** Only events with an ID less than this (exclusive). */
  readonly before_id?: Id;
  /** start_timestamp at or after (ms). */
  readonly start?: number;
  /** start_timestamp before (ms). */
  readonly end?: number;
  readonly types?: readonly string[];
  readonly lead_id?: Id;
  readonly flow_id?: Id;
  /** Only events whose expires_at is after this instant (ISO). */
  readonly live_at: string;
  /** Ordered by ID. */
  readonly sort: 'asc' | 'desc';
  readonly limit: number;
}

/** Storage of event records: append-only, retained 90 days. */
export interface EventStore {
  insert(event: StoredEvent): ResultAsync<void, StoreError>;
  get(id: Id): ResultAsync<StoredEvent | undefined, StoreError>;
  /** One page of the account's events, by ID order. */
  query(query: EventStoreQuery): ResultAsync<StoredEvent[], StoreError>;
  /**
   * Recipient events whose recipient reference (the recipient's own record ID,
   * `key` on the event) is `reference`, newest first, across accounts: feedback
   * by recipient_record_id carries no API key.
   */
  findByReference(reference: string, liveAt: string): ResultAsync<StoredEvent[], StoreError>;
  /** Deletes events whose expires_at is before `before`; the number deleted. */
  purgeExpired(before: string): ResultAsync<number, StoreError>;
}
