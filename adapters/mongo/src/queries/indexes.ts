import { COLLECTIONS, type CollectionName } from '../documents';
import type { SortSpec } from './types';

/** One index the adapter's queries need. */
export interface IndexSpec {
  readonly collection: CollectionName;
  /** Explicit, so `ensureIndexes()` finds its own index again on every run. */
  readonly name: string;
  /** Field to direction, in index order. */
  readonly key: SortSpec;
  readonly unique?: boolean;
  /** Makes a TTL index: the server deletes a document this long after its (single, Date) key field. */
  readonly expireAfterSeconds?: number;
}

/**
 * Every index the adapter relies on, created by `ensureIndexes()`. Lookups by ID use
 * the primary `_id` index and need nothing here. Unique indexes are how the adapter
 * enforces the ports' uniqueness rules: a duplicate key becomes a `Conflict`.
 */
export const INDEXES: readonly IndexSpec[] = [
  // AccountStore.findKey, and one account per key hash.
  { collection: COLLECTIONS.apiKeys, name: 'api_keys_hash_unique', key: { hash: 1 }, unique: true },
  // EntityStore.listByOwner: equality on the owner, then the sort.
  { collection: COLLECTIONS.entities, name: 'entities_owner_created', key: { owner_account_id: 1, created_at: 1, _id: 1 } },
  // At most one alias per (account, entity).
  { collection: COLLECTIONS.aliases, name: 'entity_aliases_account_entity_unique', key: { account_id: 1, entity_id: 1 }, unique: true },
  // AliasStore.listByAccount.
  { collection: COLLECTIONS.aliases, name: 'entity_aliases_account_created', key: { account_id: 1, created_at: 1, _id: 1 } },
  // Spool.enqueue's idempotency on (target, key), and settling an item by it.
  { collection: COLLECTIONS.spool, name: 'spool_target_key_unique', key: { target: 1, key: 1 }, unique: true },
  // Spool.lease (pending, then oldest due first), count by state and purgeDelivered.
  { collection: COLLECTIONS.spool, name: 'spool_state_due', key: { delivered_at: 1, due_at: 1, _id: 1 } },
];
