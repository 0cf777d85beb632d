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
