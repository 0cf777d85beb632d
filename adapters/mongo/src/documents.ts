import type {
  Account,
  ApiKeyRecord,
  EnqueueOptions,
  EntityAlias,
  EntityRecord,
  LeasedSpoolItem,
  SpoolEntry,
  SpoolItem,
  User,
} from '@leadroute/core';

/**
 * How each aggregate is stored. IDs are the documents' `_id` (the 24-hex string as
 * given), so lookups by ID use the primary index; times are BSON Dates, so they sort
 * and compare as times and a TTL index can expire them; the port types come back
 * out with `_id` stripped and times as ISO 8601 UTC strings.
 */

/** The collections the adapter owns, by aggregate. */
export const COLLECTIONS = {
  accounts: 'accounts',
  apiKeys: 'api_keys',
  entities: 'entities',
  aliases: 'entity_aliases',
  spool: 'spool',
  flows: 'flows',
  leads: 'leads',
  events: 'events',
  counters: 'counters',
  credentials: 'credentials',
  rollups: 'rollups',
  fieldRollups: 'field_rollups',
  rollupFields: 'rollup_fields',
  search: 'search_documents',
  sequences: 'sequences',
  exports: 'exports',
  jobs: 'jobs',
  certificates: 'certificates',
  alerts: 'alerts',
  alertActivity: 'alert_activity',
  alertSettings: 'alert_settings',
  seenSources: 'alert_seen_sources',
  leases: 'leases',
} as const;

export type CollectionName = (typeof COLLECTIONS)[keyof typeof COLLECTIONS];

/** An account: `_id` is the account ID. */
export interface AccountDoc {
  _id: string;
  name: string;
  plan: Account['plan'];
  time_zone: string;
  staff: boolean;
  notification_email?: string;
  created_at: Date;
}

/** An API key by its hash; `_id` is the driver's ObjectId, uniqueness comes from the `hash` index. */
export interface ApiKeyDoc {
  hash: string;
  account_id: string;
  user: User;
  created_at: Date;
}

/** An entity: the record's fields with `_id` for `id` and Dates for its times. */
export interface EntityDoc
  extends Omit<EntityRecord, 'id' | 'created_at' | 'updated_at' | 'invitation_expires_at' | 'flow_ids' | 'module_ids'> {
  _id: string;
  flow_ids: string[];
  module_ids: string[];
  invitation_expires_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** An entity alias: `_id` is the alias ID. */
export interface AliasDoc {
  _id: string;
  entity_id: string;
  entity_alias: string;
  account_id: string;
  created_at: Date;
  updated_at: Date;
}

/** A spooled delivery; `_id` is the driver's ObjectId, which also breaks ties between items due at once. */
export interface SpoolDoc {
  target: string;
  key: string;
  payload: string;
  route: Record<string, string>;
  due_at: Date;
  attempts: number;
  enqueued_at: Date;
  last_error?: string;
  /** Absent (or null) while nobody holds the item. */
  lease_id?: string | null;
  leased_until?: Date | null;
  /** Set once delivered: the item stays as a tombstone until purged. */
  delivered_at?: Date | null;
}

/** An ISO time as a Date; refuses what is not a time rather than storing an invalid date. */
export function toDate(iso: string): Date {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) throw new RangeError(`not an ISO time: ${JSON.stringify(iso)}`);
  return date;
}

const iso = (date: Date): string => date.toISOString();

export const accountDocument = (a: Account): AccountDoc => ({
  _id: a.id,
  name: a.name,
  plan: a.plan,
  time_zone: a.time_zone,
  staff: a.staff,
  ...(a.notification_email ? { notification_email: a.notification_email } : {}),
  created_at: toDate(a.created_at),
});

export const toAccount = (d: AccountDoc): Account => ({
  id: d._id,
  name: d.name,
  plan: d.plan,
  time_zone: d.time_zone,
  staff: d.staff,
  ...(d.notification_email ? { notification_email: d.notification_email } : {}),
  created_at: iso(d.created_at),
});

export const apiKeyDocument = (k: ApiKeyRecord): ApiKeyDoc => ({
  hash: k.hash,
  account_id: k.account_id,
  user: {
    id: k.user.id,
    first_name: k.user.first_name,
    last_name: k.user.last_name,
    email: k.user.email,
    sso_id: k.user.sso_id,
  },
  created_at: toDate(k.created_at),
});

export const toApiKey = (d: ApiKeyDoc): ApiKeyRecord => ({
  hash: d.hash,
  account_id: d.account_id,
  user: {
    id: d.user.id,
    first_name: d.user.first_name,
    last_name: d.user.last_name,
    email: d.user.email,
    sso_id: d.user.sso_id,
  },
  created_at: iso(d.created_at),
});

export const entityDocument = (e: EntityRecord): EntityDoc => ({
  _id: e.id,
  owner_account_id: e.owner_account_id,
  name: e.name,
  description: e.description,
  standard: e.standard,
  account: e.account,
  pending: e.pending,
  connected: e.connected,
  connected_account_id: e.connected_account_id,
  deprecated: e.deprecated,
  see: e.see,
  field_suffix: e.field_suffix,
  invitation_id: e.invitation_id,
  invitation_expires_at: e.invitation_expires_at === null ? null : toDate(e.invitation_expires_at),
  expired: e.expired,
  flow_ids: [...e.flow_ids],
  logo_url: e.logo_url,
  module_ids: [...e.module_ids],
  source: e.source,
  recipient: e.recipient,
  time_zone: e.time_zone,
  consent_certified_vendor: e.consent_certified_vendor,
  website: e.website,
  created_at: toDate(e.created_at),
  updated_at: toDate(e.updated_at),
});

// Field by field rather than `...rest`, so a field some other writer added to the
// document never leaks into what the port returns.
export const toEntity = (d: EntityDoc): EntityRecord => ({
  id: d._id,
  owner_account_id: d.owner_account_id,
  name: d.name,
  description: d.description,
  standard: d.standard,
  account: d.account,
  pending: d.pending,
  connected: d.connected,
  connected_account_id: d.connected_account_id,
  deprecated: d.deprecated,
  see: d.see,
  field_suffix: d.field_suffix,
  invitation_id: d.invitation_id,
  invitation_expires_at: d.invitation_expires_at === null ? null : iso(d.invitation_expires_at),
  expired: d.expired,
  flow_ids: [...d.flow_ids],
  logo_url: d.logo_url,
  module_ids: [...d.module_ids],
  source: d.source,
  recipient: d.recipient,
  time_zone: d.time_zone,
  consent_certified_vendor: d.consent_certified_vendor,
  website: d.website,
  created_at: iso(d.created_at),
  updated_at: iso(d.updated_at),
});

export const aliasDocument = (a: EntityAlias): AliasDoc => ({
  _id: a.id,
  entity_id: a.entity_id,
  entity_alias: a.entity_alias,
  account_id: a.account_id,
  created_at: toDate(a.created_at),
  updated_at: toDate(a.updated_at),
});

export const toAlias = (d: AliasDoc): EntityAlias => ({
  id: d._id,
  entity_id: d.entity_id,
  entity_alias: d.entity_alias,
  account_id: d.account_id,
  created_at: iso(d.created_at),
  updated_at: iso(d.updated_at),
});

/** The delivery to spool as its document: pending, unleased. */
export const spoolDocument = (entry: SpoolEntry, options: EnqueueOptions): SpoolDoc => ({
  target: entry.target,
  key: entry.key,
  payload: entry.payload,
  route: { ...entry.route },
  due_at: new Date(entry.dueAt),
  attempts: options.attempts ?? 0,
  enqueued_at: new Date(options.nowMs),
  ...(options.lastError === undefined ? {} : { last_error: options.lastError }),
  delivered_at: null,
});

export const toSpoolItem = (d: SpoolDoc): SpoolItem => ({
  target: d.target,
  key: d.key,
  payload: d.payload,
  route: { ...d.route },
  dueAt: d.due_at.getTime(),
  attempts: d.attempts,
  enqueuedAt: d.enqueued_at.getTime(),
  ...(d.last_error == null ? {} : { lastError: d.last_error }),
});

/** A document the lease just took; one without a lease means someone else's write raced ours. */
export const toLeasedSpoolItem = (d: SpoolDoc): LeasedSpoolItem => {
  if (d.lease_id == null || d.leased_until == null)
    throw new Error(`spool item ${d.target} ${d.key} came back without its lease`);
  return { ...toSpoolItem(d), leaseId: d.lease_id, leasedUntil: d.leased_until.getTime() };
};
