import type { ResultAsync } from 'neverthrow';
import type { Id } from '../ids';
import type { StoreError } from './store-error';

/** A lead as stored: what search hits and feedback read. Lead fields are kept as received. */
export interface LeadRecord {
  readonly id: Id;
  readonly account_id: Id;
  readonly flow_id: Id;
  readonly flow_name: string;
  readonly source_id: Id;
  readonly source_name: string;
  readonly submission_timestamp: string;
  /** The lead's fields as submitted (strings, numbers, nested objects). */
  readonly fields: Readonly<Record<string, unknown>>;
  /** The purchase price paid to the source. */
  readonly purchase_price: number;
  readonly latest_event_id: Id;
  /** When the lead was returned by a recipient, or null. */
  readonly returned_at: string | null;
  readonly expires_at: string;
}

/** Storage of leads. */
export interface LeadStore {
  insert(lead: LeadRecord): ResultAsync<void, StoreError>;
  get(id: Id): ResultAsync<LeadRecord | undefined, StoreError>;
  /** Points the lead at its newest event (feedback adds events after intake). */
  setLatestEvent(id: Id, eventId: Id): ResultAsync<void, StoreError>;
  /**
   * Marks the lead returned at `at` unless it already is: true for exactly one of
   * any number of concurrent callers, false for the rest. Atomic in every adapter.
   */
  markReturned(id: Id, at: string): ResultAsync<boolean, StoreError>;
  /**
   * Deletes leads whose expires_at is before `before`; the number deleted. A store that
   * drops whole time partitions (PostgreSQL) may keep rows that expired less than eight days
   * before `before` until their partition goes, within a week, and count a dropped partition
   * by its recorded estimate; callers already treat a record past its expires_at as gone.
   */
  purgeExpired(before: string): ResultAsync<number, StoreError>;
}
