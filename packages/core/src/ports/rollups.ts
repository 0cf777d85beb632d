import type { ResultAsync } from 'neverthrow';
import type { Id } from '../ids';
import type { StoreError } from './store-error';

/** What statistics count: the event kinds of the spec, plus filter steps. */
export type RollupKind =
  | 'source'
  | 'recipient'
  | 'filter'
  | 'ping'
  | 'return-received'
  | 'return-sent'
  | 'conversion-received'
  | 'conversion-sent';

/**
 * One counter cell: an hour of one (flow, source, recipient, step, kind, outcome)
 * of an account, split further by rejection category (for the category alerts)
 * and conversion stage (for per-stage conversion columns).
 */
export interface RollupCell {
  readonly account_id: Id;
  /** Start of the UTC hour, ISO 8601 (`2026-03-08T07:00:00.000Z`). */
  readonly hour: string;
  readonly flow_id: Id;
  readonly source_id: Id;
  /** The step's entity; '' for source-side kinds. */
  readonly recipient_id: string;
  /** '' when not a step. */
  readonly step_id: string;
  readonly kind: RollupKind;
  /** success, failure, error or skip (ping: success or failure). */
  readonly outcome: string;
  /**
   * Rejection category ('duplicate', 'invalid-email', 'invalid-phone', 'missing-certificate', 'certificate-failure') or
   * ''.
   */
  readonly category: string;
  /** Conversion stage (the conversion's reason) or ''. */
  readonly stage: string;
}

/** The sums kept per cell. */
export interface RollupCounts {
  readonly count: number;
  readonly cost: number;
  readonly revenue: number;
  readonly purchase_price: number;
}

export interface RollupRow extends RollupCell, RollupCounts {}

/** Which cells to read: one account, a range of hours, optionally some kinds or one flow. */
export interface RollupQuery {
  readonly account_id: Id;
  /** First hour, inclusive (ISO). */
  readonly from: string;
  /** Last hour, exclusive (ISO). */
  readonly to: string;
  readonly kinds?: readonly RollupKind[];
  readonly flow_id?: Id;
}

/**
 * Counters per cell, added to as events are recorded, so statistics and alert
 * baselines never scan events. `add` is atomic per cell in every adapter
 * (`INSERT ... ON CONFLICT DO UPDATE`, `$inc` upserts).
 */
export interface RollupStore {
  /** Adds each row's counts to its cell, creating cells as needed. */
  add(rows: readonly RollupRow[]): ResultAsync<void, StoreError>;
  query(query: RollupQuery): ResultAsync<RollupRow[], StoreError>;
  /** Accounts with any cell in [from, to): who a detector pass looks at. */
  activeAccounts(from: string, to: string): ResultAsync<Id[], StoreError>;
  /**
   * Optional: the hours of an account in [from, to) that had cells added after `since`, and the store's mark now,
   * which the next call passes as `since` (0: every hour with cells). A reader keeping sums per hour (the alert
   * detector) then reads only those hours again. A store that cannot tell leaves it out, and readers read the whole
   * range each time.
   */
  changedHours?(account_id: Id, from: string, to: string, since: number): ResultAsync<ChangedHours, StoreError>;
}

/** What {@link RollupStore.changedHours} answers. */
export interface ChangedHours {
  /** Pass as the next call's `since`. */
  readonly mark: number;
  /** Hours (ISO, as stored) with cells added after `since`, in order. */
  readonly hours: string[];
}
