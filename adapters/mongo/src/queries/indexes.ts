import { COLLECTIONS, type CollectionName } from '../documents';
import { FIELD_ROLLUP_CELL } from './field-rollups';
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
 * the primary `_id` index and need nothing here. Keys are all ascending: the server
 * walks an index backwards for a sort that reverses every field (newest first). Unique indexes are how the adapter
 * enforces the ports' uniqueness rules: a duplicate key becomes a `Conflict`.
 */
export const INDEXES: readonly IndexSpec[] = [
  // AccountStore.findKey, and one account per key hash.
  { collection: COLLECTIONS.apiKeys, name: 'api_keys_hash_unique', key: { hash: 1 }, unique: true },
  // EntityStore.listByOwner: equality on the owner, then the sort.
  {
    collection: COLLECTIONS.entities,
    name: 'entities_owner_created',
    key: { owner_account_id: 1, created_at: 1, _id: 1 },
  },
  // At most one alias per (account, entity).
  {
    collection: COLLECTIONS.aliases,
    name: 'entity_aliases_account_entity_unique',
    key: { account_id: 1, entity_id: 1 },
    unique: true,
  },
  // AliasStore.listByAccount.
  {
    collection: COLLECTIONS.aliases,
    name: 'entity_aliases_account_created',
    key: { account_id: 1, created_at: 1, _id: 1 },
  },
  // Spool.enqueue's idempotency on (target, key), and settling an item by it.
  { collection: COLLECTIONS.spool, name: 'spool_target_key_unique', key: { target: 1, key: 1 }, unique: true },
  // Spool.lease (pending, then oldest due first), count by state and purgeDelivered.
  { collection: COLLECTIONS.spool, name: 'spool_state_due', key: { delivered_at: 1, due_at: 1, _id: 1 } },
  // FlowStore.listByAccount.
  { collection: COLLECTIONS.flows, name: 'flows_account_id', key: { account_id: 1, _id: 1 } },
  // LeadStore.purgeExpired.
  { collection: COLLECTIONS.leads, name: 'leads_expires', key: { expires_at: 1 } },
  // EventStore.query: the account's events in ID order, and those of one lead.
  { collection: COLLECTIONS.events, name: 'events_account_id', key: { account_id: 1, _id: 1 } },
  { collection: COLLECTIONS.events, name: 'events_account_lead_id', key: { account_id: 1, lead_id: 1, _id: 1 } },
  // EventStore.findByReference (feedback by recipient record ID), across accounts.
  { collection: COLLECTIONS.events, name: 'events_key_id', key: { key: 1, _id: 1 } },
  // The 90-day retention: the server deletes an event once its expires_at has passed.
  { collection: COLLECTIONS.events, name: 'events_expires_ttl', key: { expires_at: 1 }, expireAfterSeconds: 0 },
  // A counter's window is over at expires_at: the server drops it.
  { collection: COLLECTIONS.counters, name: 'counters_expires_ttl', key: { expires_at: 1 }, expireAfterSeconds: 0 },
  // CredentialStore.listByAccount.
  { collection: COLLECTIONS.credentials, name: 'credentials_account_id', key: { account_id: 1, _id: 1 } },
  // One rollup document per cell: what makes concurrent $inc upserts add to one cell. Also RollupStore.query.
  {
    collection: COLLECTIONS.rollups,
    name: 'rollups_cell_unique',
    key: {
      account_id: 1,
      hour: 1,
      flow_id: 1,
      source_id: 1,
      recipient_id: 1,
      step_id: 1,
      kind: 1,
      outcome: 1,
      category: 1,
      stage: 1,
    },
    unique: true,
  },
  // One field rollup document per cell, as for rollups. Also FieldRollupStore.query.
  {
    collection: COLLECTIONS.fieldRollups,
    name: 'field_rollups_cell_unique',
    key: Object.fromEntries(FIELD_ROLLUP_CELL.map((field) => [field, 1])),
    unique: true,
  },
  // RollupStore.activeAccounts.
  { collection: COLLECTIONS.rollups, name: 'rollups_hour_account', key: { hour: 1, account_id: 1 } },
  // SearchIndex.search: anchored prefix regexes and whole terms on the multikey terms array, per account.
  { collection: COLLECTIONS.search, name: 'search_account_terms', key: { account_id: 1, terms: 1 } },
  // SearchIndex.search without terms (newest first) and relevance ties.
  { collection: COLLECTIONS.search, name: 'search_account_seq', key: { account_id: 1, seq: 1 } },
  // SearchIndex.purgeExpired.
  { collection: COLLECTIONS.search, name: 'search_expires', key: { expires_at: 1 } },
  // ExportStore.list.
  { collection: COLLECTIONS.exports, name: 'exports_account_id', key: { account_id: 1, _id: 1 } },
  // JobStore.claim: pending jobs of a kind, earliest due first.
  {
    collection: COLLECTIONS.jobs,
    name: 'jobs_claim',
    key: { '_id.kind': 1, state: 1, due_at: 1, enqueued_at: 1, '_id.id': 1 },
  },
  // One certificate per ping token; CertificateStore.findByPingToken.
  {
    collection: COLLECTIONS.certificates,
    name: 'certificates_ping_token_unique',
    key: { ping_token: 1 },
    unique: true,
  },
  // AlertStore.listActive and accountsWithActive.
  { collection: COLLECTIONS.alerts, name: 'alerts_account_status', key: { account_id: 1, status: 1, _id: 1 } },
  { collection: COLLECTIONS.alerts, name: 'alerts_status_account', key: { status: 1, account_id: 1 } },
  // AlertStore.activity: one alert's timeline, newest first.
  {
    collection: COLLECTIONS.alertActivity,
    name: 'alert_activity_key_at',
    key: { account_id: 1, key: 1, at: 1, _id: 1 },
  },
];
