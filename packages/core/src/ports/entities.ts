import type { ResultAsync } from 'neverthrow';
import type { Id } from '../ids';
import type { StoreError } from './store-error';

export type SourceClass = 'seller' | 'form' | 'other';
export type RecipientClass = 'buyer' | 'crm' | 'analytics' | 'enhancement' | 'esp' | 'other';
export type Connection = 'seller' | 'buyer' | 'both';

/** An entity as the API shows it (spec "Entity"). */
export interface Entity {
  readonly id: Id;
  readonly name: string;
  readonly description: string;
  readonly standard: boolean;
  readonly account: boolean | null;
  readonly pending: boolean;
  readonly connected: Connection | null;
  readonly connected_account_id: Id | null;
  readonly deprecated: boolean;
  readonly see: Id | null;
  readonly field_suffix: string | null;
  readonly invitation_id: Id | null;
  readonly invitation_expires_at: string | null;
  readonly expired: boolean;
  readonly flow_ids: readonly Id[];
  readonly logo_url: string | null;
  readonly module_ids: readonly string[];
  readonly source: SourceClass | null;
  readonly recipient: RecipientClass | null;
  readonly time_zone: string | null;
  readonly consent_certified_vendor: boolean;
  readonly website: string | null;
  readonly created_at: string;
  readonly updated_at: string;
}

/** An entity as stored: the API shape plus the account that owns it. */
export interface EntityRecord extends Entity {
  /** The account whose entity this is; standard entities are not stored. */
  readonly owner_account_id: Id;
}

/** Storage of custom and account entities. Entities are never deleted. */
export interface EntityStore {
  insert(entity: EntityRecord): ResultAsync<void, StoreError>;
  get(id: Id): ResultAsync<EntityRecord | undefined, StoreError>;
  /** Every entity owned by `accountId`, oldest first. */
  listByOwner(accountId: Id): ResultAsync<EntityRecord[], StoreError>;
  /** Replaces the stored entity with the same ID. */
  update(entity: EntityRecord): ResultAsync<void, StoreError>;
}

/** A per-account display name for an entity (spec "Entity alias"). */
export interface EntityAlias {
  readonly id: Id;
  readonly entity_id: Id;
  readonly entity_alias: string;
  readonly account_id: Id;
  readonly created_at: string;
  readonly updated_at: string;
}

/** Storage of aliases; at most one alias per (account, entity), a Conflict otherwise. */
export interface AliasStore {
  insert(alias: EntityAlias): ResultAsync<void, StoreError>;
  get(id: Id): ResultAsync<EntityAlias | undefined, StoreError>;
  /** The account's aliases, oldest first. */
  listByAccount(accountId: Id): ResultAsync<EntityAlias[], StoreError>;
  update(alias: EntityAlias): ResultAsync<void, StoreError>;
  /** Removes the alias; true when one was removed. */
  remove(id: Id): ResultAsync<boolean, StoreError>;
}
