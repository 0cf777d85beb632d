import type { ResultAsync } from 'neverthrow';
import type { FlowRecord } from '../domain/flows';
import type { Id } from '../ids';
import type { StoreError } from './store-error';

/** Storage of flow configurations; `version` grows by one with every update. */
export interface FlowStore {
  insert(flow: FlowRecord): ResultAsync<void, StoreError>;
  get(id: Id): ResultAsync<FlowRecord | undefined, StoreError>;
  /** The account's flows, oldest first. */
  listByAccount(accountId: Id): ResultAsync<FlowRecord[], StoreError>;
  /**
   * Replaces the flow if its stored version is `expectedVersion` (optimistic
   * concurrency); a Conflict when another update came first.
   */
  update(flow: FlowRecord, expectedVersion: number): ResultAsync<void, StoreError>;
}
