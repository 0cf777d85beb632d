import type { ResultAsync } from 'neverthrow';
import type { Id } from '../ids';
import type { StoreError } from './store-error';

/** The alert types of the spec. */
export const ALERT_TYPES = [
  'recipient-failure',
  'recipient-skip',
  'source-rejects',
  'no-leads',
  'new-source',
  'duplicate-leads',
  'invalid-email',
  'invalid-phone',
  'missing-tf-cert',
  'tf-failures',
] as const;
export type AlertType = (typeof ALERT_TYPES)[number];

/** Most severe first: the order GET /alerts sorts by. */
export const ALERT_SEVERITIES = ['critical', 'serious', 'warning', 'info'] as const;
export type AlertSeverity = (typeof ALERT_SEVERITIES)[number];

/** Timeline entry kinds; the first five are written by the detector, the rest by people (`addActivity`). */
export const ACTIVITY_KINDS = [
  'created',
  'severity_change',
  'relabel',
  'message_change',
  'resolved',
  'config_change',
  'verification_started',
  'verification_check',
  'verification_failed',
  'ack',
  'comment',
  'viewed',
  'investigate_clicked',
] as const;
export type ActivityKind = (typeof ACTIVITY_KINDS)[number];
export const ACTIVITY_SOURCES = ['ui', 'slack', 'api', 'collector'] as const;
export type ActivitySource = (typeof ACTIVITY_SOURCES)[number];
export type ActivityVisibility = 'customer' | 'internal';

/** An alert as the API shows it (spec "Alert"). */
export interface Alert {
  readonly key: string;
  readonly type: AlertType;
  readonly kind: string | null;
  readonly severity: AlertSeverity;
  readonly message: string;
  readonly detail: string;
  readonly flow_id: Id | null;
  readonly flow_name: string | null;
  readonly entity_id: string | null;
  readonly entity_name: string | null;
  readonly recipient_id: string | null;
  readonly outcome: string | null;
  readonly time_zone: string;
  readonly first_seen_at: string;
  readonly last_seen_at: string;
  /** Aggregate numbers only (rate, baseline_rate, total, ...), never lead data. */
  readonly data: Readonly<Record<string, number>>;
}

/** An alert as stored: the API fields plus what the lifecycle needs. */
export interface StoredAlert extends Alert {
  readonly account_id: Id;
  readonly status: 'active' | 'resolved';
  readonly resolved_at: string | null;
  /** Leads the condition touched on `affected_day` (local date of the account): GET /alerts' second sort key. */
  readonly affected_today: number;
  /** `yyyy-MM-dd` in the account's time zone. */
  readonly affected_day: string;
  /** The highest severity e-mailed in this episode; e-mail goes out only above it. */
  readonly notified_severity: AlertSeverity | null;
}

/** One timeline entry (spec "Alert Activity Entry"). */
export interface AlertActivityEntry {
  readonly at: string;
  readonly kind: ActivityKind;
  readonly actor: { readonly type: string; readonly id: string; readonly name: string };
  readonly visibility: ActivityVisibility;
  readonly source: ActivitySource;
  readonly data: Readonly<Record<string, unknown>> | null;
}

/** A timeline entry as stored: `id` orders entries written in the same millisecond. */
export interface StoredActivity extends AlertActivityEntry {
  readonly id: Id;
  readonly account_id: Id;
  readonly key: string;
}

/** One page of a timeline, newest first. */
export interface ActivityQuery {
  readonly account_id: Id;
  readonly key: string;
  /** Only entries strictly older: `at` earlier, or the same `at` and a smaller `id` when `id` is given. */
  readonly before?: { readonly at: string; readonly id?: string };
  readonly kind?: ActivityKind;
  /** Leave out `internal` entries (callers who are not operator staff). */
  readonly customerOnly: boolean;
  readonly limit: number;
}

/**
 * Storage of alerts, their timelines, operator settings overrides, each account's
 * seen sources (for new-source) and the lease that keeps one detector pass per
 * account at a time when several processes run detection.
 */
export interface AlertStore {
  /** Inserts or replaces the alert with this key. */
  put(alert: StoredAlert): ResultAsync<void, StoreError>;
  get(key: string): ResultAsync<StoredAlert | undefined, StoreError>;
  /** The account's active alerts, in no particular order. */
  listActive(accountId: Id): ResultAsync<StoredAlert[], StoreError>;
  /** Accounts with at least one active alert. */
  accountsWithActive(): ResultAsync<Id[], StoreError>;
  addActivity(entry: StoredActivity): ResultAsync<void, StoreError>;
  /** A page of one alert's timeline, newest first (`at` then `id`, both descending). */
  activity(query: ActivityQuery): ResultAsync<StoredActivity[], StoreError>;
  /** Operator overrides of the alert settings: scope `platform` (all accounts) or an account ID. */
  getSettings(scope: string): ResultAsync<Readonly<Record<string, unknown>> | undefined, StoreError>;
  setSettings(scope: string, overrides: Readonly<Record<string, unknown>>): ResultAsync<void, StoreError>;
  /** Remembers that the account has seen the source; true only the first time (atomically). */
  markSourceSeen(accountId: Id, sourceId: string, at: string): ResultAsync<boolean, StoreError>;
  /**
   * Takes the named lease for `owner` until `until` when it is free, expired (its
   * `until` ≤ `now`) or already held by `owner`; false when another owner holds it.
   */
  tryLease(name: string, owner: string, now: string, until: string): ResultAsync<boolean, StoreError>;
  /** Gives the lease up if `owner` holds it. */
  releaseLease(name: string, owner: string): ResultAsync<void, StoreError>;
}
