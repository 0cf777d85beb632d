import type {
  CertificateClaim,
  CertificateRecord,
  Job,
  NewJob,
  RollupRow,
  SearchDocument,
  StoredActivity,
  StoredAlert,
} from '@leadroute/core';
import { toDate } from './documents';
import { fromJson, toJson } from './json';

/** Documents of certificates, jobs, counters, rollups, search, alerts and leases (see records.ts for the approach). */

const iso = (date: Date): string => date.toISOString();

/** A certificate: `claims` and `expires_at` are fields (a claim `$push`es and `$max`es them), the visit is the body. */
export interface CertificateDoc {
  _id: string;
  ping_token: string;
  expires_at: Date;
  claims: CertificateClaim[];
  body: string;
}

export function certificateDocument(c: CertificateRecord): CertificateDoc {
  const { expires_at, claims, ...visit } = c;
  return {
    _id: c.id,
    ping_token: c.ping_token,
    expires_at: toDate(expires_at),
    claims: claims.map(claimDocument),
    body: toJson(visit),
  };
}

export const claimDocument = (claim: CertificateClaim): CertificateClaim => ({
  at: claim.at,
  event_id: claim.event_id,
  lead_id: claim.lead_id,
});

export const toCertificate = (d: CertificateDoc): CertificateRecord => ({
  ...fromJson<Omit<CertificateRecord, 'expires_at' | 'claims'>>(d.body),
  expires_at: iso(d.expires_at),
  claims: d.claims.map(claimDocument),
});

/** A job: `_id` is `{ kind, id }`, which makes `(kind, id)` unique with no index of its own. */
export interface JobDoc {
  _id: { kind: string; id: string };
  payload: string;
  state: Job['state'];
  due_at: Date;
  attempts: number;
  enqueued_at: Date;
  lease_id: string | null;
  leased_until: Date | null;
  error: string | null;
}

export const jobDocument = (job: NewJob, nowMs: number): JobDoc => ({
  _id: { kind: job.kind, id: job.id },
  payload: toJson(job.payload ?? {}),
  state: 'pending',
  due_at: new Date(job.dueAt),
  attempts: 0,
  enqueued_at: new Date(nowMs),
  lease_id: null,
  leased_until: null,
  error: null,
});

export const toJob = (d: JobDoc): Job => ({
  kind: d._id.kind,
  id: d._id.id,
  payload: fromJson<Job['payload']>(d.payload),
  state: d.state,
  dueAt: d.due_at.getTime(),
  attempts: d.attempts,
  enqueuedAt: d.enqueued_at.getTime(),
  ...(d.lease_id == null ? {} : { leaseId: d.lease_id }),
  ...(d.leased_until == null ? {} : { leasedUntil: d.leased_until.getTime() }),
  ...(d.error == null ? {} : { error: d.error }),
});

/** A cap or ping-limit window's counter: `_id` is the key; the TTL index drops it after `expires_at`. */
export interface CounterDoc {
  _id: string;
  count: number;
  expires_at: Date;
}

/** A rollup cell: the cell's fields (unique together) and the four sums. */
export interface RollupDoc extends Omit<RollupRow, 'hour'> {
  hour: Date;
}

export const toRollupRow = (d: RollupDoc): RollupRow => ({
  account_id: d.account_id,
  hour: iso(d.hour),
  flow_id: d.flow_id,
  source_id: d.source_id,
  recipient_id: d.recipient_id,
  step_id: d.step_id,
  kind: d.kind,
  outcome: d.outcome,
  category: d.category,
  stage: d.stage,
  count: d.count,
  cost: d.cost,
  revenue: d.revenue,
  purchase_price: d.purchase_price,
});

/**
 * A lead in the search index: its normalized `terms` (a multikey index answers
 * anchored prefix regexes), `phrase_text` for exact phrases, one sort key per
 * sortable field, and `seq`, the order indexed (newest highest).
 */
export interface SearchDoc {
  _id: { account_id: string; lead_id: string };
  account_id: string;
  terms: string[];
  phrase_text: string;
  sort_keys: Record<string, string>;
  seq: number;
  expires_at: Date;
  document: SearchDocument;
}

/** A named sequence (the search index's `seq`). */
export interface SequenceDoc {
  _id: string;
  value: number;
}

/** An alert: the record as stored, keyed by its key; `data` holds aggregate numbers under keys core chose. */
export interface AlertDoc {
  _id: string;
  account_id: string;
  status: StoredAlert['status'];
  body: string;
}

export const alertDocument = (a: StoredAlert): AlertDoc => ({
  _id: a.key,
  account_id: a.account_id,
  status: a.status,
  body: toJson(a),
});
export const toAlert = (d: AlertDoc): StoredAlert => fromJson<StoredAlert>(d.body);

/** A timeline entry; `at` is a Date beside the body, so pages sort and compare by time. */
export interface ActivityDoc {
  _id: string;
  account_id: string;
  key: string;
  at: Date;
  kind: StoredActivity['kind'];
  visibility: StoredActivity['visibility'];
  body: string;
}

export const activityDocument = (e: StoredActivity): ActivityDoc => ({
  _id: e.id,
  account_id: e.account_id,
  key: e.key,
  at: toDate(e.at),
  kind: e.kind,
  visibility: e.visibility,
  body: toJson(e),
});
export const toActivity = (d: ActivityDoc): StoredActivity => fromJson<StoredActivity>(d.body);

/** Operator overrides of the alert settings for one scope. */
export interface SettingsDoc {
  _id: string;
  overrides: string;
}

/** A source an account has seen; `_id` makes the pair unique. */
export interface SeenSourceDoc {
  _id: { account_id: string; source_id: string };
  seen_at: string;
}

export const seenSourceDocument = (accountId: string, sourceId: string, at: string): SeenSourceDoc => ({
  _id: { account_id: accountId, source_id: sourceId },
  seen_at: at,
});

/** A named lease (the detector's): who holds it and until when. */
export interface LeaseDoc {
  _id: string;
  owner: string;
  until: Date;
}
