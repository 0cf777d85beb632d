import type { ResultAsync } from 'neverthrow';
import type { StoredEvent } from '../domain/events';
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

/** A look-up of deliveries by the recipient's own record ID ({@link EventStore.findByReference}). */
export interface ReferenceQuery {
  /** The recipient's record ID, compared exactly. */
  readonly reference: string;
  /** Only events whose `recipient_id` is this entity. */
  readonly recipient_id?: Id;
  /** Only events whose expires_at is after this instant (ISO). */
  readonly live_at: string;
}

/** Storage of event records: append-only, retained 90 days. */
export interface EventStore {
  insert(event: StoredEvent): ResultAsync<void, StoreError>;
  get(id: Id): ResultAsync<StoredEvent | undefined, StoreError>;
  /** One page of the account's events, by ID order. */
  query(query: EventStoreQuery): ResultAsync<StoredEvent[], StoreError>;
  /**
   * Live events whose recipient reference (the recipient's own record ID, `key` on
   * the event) is exactly `reference`, in no particular order, and only those of
   * the recipient entity `recipient_id` when one is given. Feedback by
   * recipient_record_id carries no API key, so the store cannot scope by account:
   * core resolves a reference only when every match names one account, one
   * recipient and one lead (issue #18.4), and refuses it as ambiguous otherwise.
   */
  findByReference(query: ReferenceQuery): ResultAsync<StoredEvent[], StoreError>;
  /**
   * Deletes events whose expires_at is before `before`; the number deleted. A store that
   * drops whole time partitions (PostgreSQL) may keep rows that expired less than eight days
   * before `before` until their partition goes, within a week, and count a dropped partition
   * by its recorded estimate; callers already treat a record past its expires_at as gone.
   */
  purgeExpired(before: string): ResultAsync<number, StoreError>;
}
