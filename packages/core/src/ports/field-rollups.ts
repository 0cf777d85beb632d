import type { ResultAsync } from 'neverthrow';
import type { Id } from '../ids';
import type { RollupQuery, RollupRow } from './rollups';
import type { StoreError } from './store-error';

/** A rollup cell split further by one lead field's value (null when the event has none). */
export interface FieldRollupRow extends RollupRow {
  /** The lead field, as in `group_by` (`state`, `lead.state`). */
  readonly field: string;
  readonly value: string | null;
}

/** Which field cells to read: a rollup query for one field. */
export interface FieldRollupQuery extends RollupQuery {
  readonly field: string;
  /**
   * The cell columns the caller reads besides kind, outcome, category, stage and the value. When given, a store may
   * sum cells over the others (the hour then reads as `from`, IDs as ''), so fewer rows travel.
   */
  readonly keep?: readonly ('hour' | 'flow_id' | 'source_id' | 'recipient_id')[];
  /**
   * Runs of whole UTC days (`from` and `to` at UTC midnight, inside the range) whose hours the caller reads as one:
   * each day lies in one interval of the query. With `keep`, a store that keeps cells per day may answer such a day
   * from them, each as one cell at the day's start (hour = the day's start), and the range's other hours from hourly
   * cells; the sums are those of the hourly cells. A store may ignore it.
   */
  readonly days?: readonly { readonly from: string; readonly to: string }[];
}

/** A lead field an account rolls up, and the instant from which its cells hold every event (epoch ms, on the hour). */
export interface TrackedField {
  readonly field: string;
  readonly since: number;
}

/**
 * Hourly counters per lead field value, for the fields an account reports on, so
 * statistics grouped by such a field read cells instead of events.
 */
export interface FieldRollupStore {
  /** Adds each row's counts to its cell, creating cells as needed. */
  add(rows: readonly FieldRollupRow[]): ResultAsync<void, StoreError>;
  query(query: FieldRollupQuery): ResultAsync<FieldRollupRow[], StoreError>;
  /** The account's rolled-up fields; undefined when it never set them (the defaults apply). */
  fields(account_id: Id): ResultAsync<readonly TrackedField[] | undefined, StoreError>;
  setFields(account_id: Id, fields: readonly TrackedField[]): ResultAsync<void, StoreError>;
}
