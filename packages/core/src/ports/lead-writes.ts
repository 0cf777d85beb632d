import type { ResultAsync } from 'neverthrow';
import type { StoredEvent } from '../domain/events';
import type { FieldRollupRow } from './field-rollups';
import type { LeadRecord } from './leads';
import type { RollupRow } from './rollups';
import type { SearchDocument } from './search';
import type { StoreError } from './store-error';

/**
 * The records one lead's intake (or one feedback) leaves behind, written as one
 * unit: every record is stored, or none is. Counters (caps, ping limits) are not
 * here: they are reserved before delivery and must be visible at once.
 */
export interface LeadWriteBundle {
  /** The lead; absent when the events belong to a lead already stored (feedback) or to none (a ping). */
  readonly lead?: LeadRecord;
  /** The events, in the order they happened. */
  readonly events: readonly StoredEvent[];
  /** The statistics rows the events add (summed into their cells). */
  readonly rollups: readonly RollupRow[];
  /**
   * The field rollup rows the events add (summed into their cells, `storage.fieldRollups`): one per rollup row and
   * field the account rolls up. Absent or empty when it rolls up none.
   */
  readonly fieldRollups?: readonly FieldRollupRow[];
  /** The lead's search document, indexed from its source event. */
  readonly search?: SearchDocument;
}

/**
 * Atomic writing of a lead's records (DESIGN.md "Storage"): PostgreSQL writes a
 * bundle in one transaction (several bundles may share a group commit, and one
 * refused row fails only its own bundle); memory checks the whole bundle before
 * applying any of it; MongoDB uses a multi-document transaction. An adapter without
 * it gets each record written on its own, in the bundle's order.
 */
export interface LeadWrites {
  /**
   * Stores every record of the bundle, or none; `Conflict` when an ID is taken. The bundle is handed over: no one
   * changes its records afterwards (the core builds them, and copies what it took from outside: a caller's fields and
   * request, a module's answer), so an adapter may keep them as they are instead of copying them (memory does).
   */
  commit(bundle: LeadWriteBundle): ResultAsync<void, StoreError>;
}
