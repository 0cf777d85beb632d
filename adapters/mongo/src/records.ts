import type { CredentialRecord, FlowRecord, LeadRecord, StoredEvent, StoredExport } from '@leadroute/core';
import { toDate } from './documents';
import { fromJson, toJson } from './json';

/**
 * Documents of flows, leads, events, credentials and exports. What a query filters,
 * sorts or changes in place is a field of its own (times as BSON Dates); the rest
 * of the record is JSON text in `body` (see json.ts), and reading a record back lays
 * the fields over the body.
 */

const iso = (date: Date): string => date.toISOString();

/** A flow: `version` beside the body, so an update can require the version it read. */
export interface FlowDoc {
  _id: string;
  account_id: string;
  version: number;
  body: string;
}

export const flowDocument = (flow: FlowRecord): FlowDoc => ({
  _id: flow.id,
  account_id: flow.account_id,
  version: flow.version,
  body: toJson(flow),
});
export const toFlow = (d: FlowDoc): FlowRecord => fromJson<FlowRecord>(d.body);

/** A lead: the fields feedback changes (`latest_event_id`, `returned_at`) live outside the body. */
export interface LeadDoc {
  _id: string;
  account_id: string;
  latest_event_id: string;
  returned_at: Date | null;
  expires_at: Date;
  body: string;
}

export function leadDocument(lead: LeadRecord): LeadDoc {
  const { latest_event_id, returned_at, ...rest } = lead;
  return {
    _id: lead.id,
    account_id: lead.account_id,
    latest_event_id,
    returned_at: returned_at === null ? null : toDate(returned_at),
    expires_at: toDate(lead.expires_at),
    body: toJson(rest),
  };
}

export const toLead = (d: LeadDoc): LeadRecord => ({
  ...fromJson<Omit<LeadRecord, 'latest_event_id' | 'returned_at'>>(d.body),
  latest_event_id: d.latest_event_id,
  returned_at: d.returned_at === null ? null : iso(d.returned_at),
});

/**
 * An event: append-only; the fields the events API pages and filters on, feedback's `key`, and the TTL's `expires_at`.
 */
export interface EventDoc {
  _id: string;
  account_id: string;
  type: string;
  start_timestamp: number;
  lead_id: string;
  flow_id: string;
  key: string | null;
  expires_at: Date;
  body: string;
}

export const eventDocument = (e: StoredEvent): EventDoc => ({
  _id: e.id,
  account_id: e.account_id,
  type: e.type,
  start_timestamp: e.start_timestamp,
  lead_id: e.lead_id,
  flow_id: e.flow_id,
  key: e.key ?? null,
  expires_at: toDate(e.expires_at),
  body: toJson(e),
});
export const toEvent = (d: EventDoc): StoredEvent => fromJson<StoredEvent>(d.body);

/** A credential: every field is known and plain, so it is stored as is. */
export interface CredentialDoc {
  _id: string;
  account_id: string;
  name: string;
  type: string;
  package: string | null;
  username: string | null;
  password: string | null;
  created_at: Date;
  updated_at: Date;
}

export const credentialDocument = (c: CredentialRecord): CredentialDoc => ({
  _id: c.id,
  account_id: c.account_id,
  name: c.name,
  type: c.type,
  package: c.package,
  username: c.username,
  password: c.password,
  created_at: toDate(c.created_at),
  updated_at: toDate(c.updated_at),
});

export const toCredential = (d: CredentialDoc): CredentialRecord => ({
  id: d._id,
  account_id: d.account_id,
  name: d.name,
  type: d.type,
  package: d.package,
  username: d.username,
  password: d.password,
  created_at: iso(d.created_at),
  updated_at: iso(d.updated_at),
});

/** The export fields the job changes as it runs; they live outside the body. */
export const EXPORT_PROGRESS = ['status', 'exported_docs', 'file_name', 'file_key', 'reason', 'error'] as const;

/** An export: its request in `body`, its progress and download log as fields (`$set`, `$push`). */
export interface ExportDoc {
  _id: string;
  account_id: string;
  expires_at: Date;
  status: StoredExport['status'];
  exported_docs: number;
  file_name?: string;
  file_key?: string;
  reason?: { message: string };
  error?: string;
  downloads: StoredExport['downloads'][number][];
  body: string;
}

export function exportDocument(e: StoredExport): ExportDoc {
  const { status, exported_docs, file_name, file_key, reason, error, downloads, ...request } = e;
  return {
    _id: e.id,
    account_id: e.account_id,
    expires_at: toDate(e.expires_at),
    status,
    exported_docs,
    ...(file_name === undefined ? {} : { file_name }),
    ...(file_key === undefined ? {} : { file_key }),
    ...(reason === undefined ? {} : { reason: { message: reason.message } }),
    ...(error === undefined ? {} : { error }),
    downloads: downloads.map((d) => ({ at: d.at, user: { ...d.user } })),
    body: toJson(request),
  };
}

export const toExport = (d: ExportDoc): StoredExport => ({
  ...fromJson<Omit<StoredExport, (typeof EXPORT_PROGRESS)[number] | 'downloads'>>(d.body),
  status: d.status,
  exported_docs: d.exported_docs,
  ...(d.file_name == null ? {} : { file_name: d.file_name }),
  ...(d.file_key == null ? {} : { file_key: d.file_key }),
  ...(d.reason == null ? {} : { reason: { message: d.reason.message } }),
  ...(d.error == null ? {} : { error: d.error }),
  downloads: d.downloads.map((x) => ({ at: x.at, user: { ...x.user } })),
});
