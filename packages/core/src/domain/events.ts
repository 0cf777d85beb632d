import type { FirehoseConfig } from './firehose';
import type { Cap, Mapping, PingLimit, Pricing } from './flows';
import type { Id } from '../ids';
import type { RecordedRequest, RecordedResponse, Transaction } from './transactions';
import type { RuleSet } from './rules';

/** Kinds of event the service records. Statistics count source, recipient, the feedback kinds and ping. */
export type EventType = 'source' | 'recipient' | 'filter' | 'ping' | 'feedback-received' | 'feedback-sent';

/** Step and lead outcomes. */
export type Outcome = 'success' | 'failure' | 'error' | 'skip';

/** A credential as events show it: the secret is never recorded. */
export interface EventCredential {
  readonly id: string;
  readonly name: string;
  readonly type: string;
  readonly package: string | null;
  readonly created_at: string;
  readonly updated_at: string;
  readonly username: string | null;
}

/**
 * An event record (spec "Event record"): a self-contained snapshot of the lead at
 * the moment it visited a step. Fields beyond the common ones are present on the
 * event types that have them.
 */
export interface EventRecord {
  readonly id: Id;
  readonly type: EventType;
  readonly outcome: Outcome;
  readonly reason: string;
  readonly vars: Readonly<Record<string, unknown>>;
  readonly host: string;
  readonly start_timestamp: number;
  readonly end_timestamp: number;
  readonly firehose?: FirehoseConfig;
  readonly ms: number;
  readonly wait_ms: number;
  readonly overhead_ms: number;
  readonly lag_ms: number;
  readonly total_ms: number;
  readonly handler_version: string;
  readonly version: string;
  readonly cap_reached: boolean;
  readonly flow_ping_limits?: readonly PingLimit[];
  readonly source_ping_limits?: readonly PingLimit[];
  readonly ping_limit_reached: boolean;
  readonly expires_at: string;
  // Where the event belongs (not in the spec's list; what listing, statistics and search filter on).
  readonly lead_id: Id;
  readonly flow_id: Id;
  readonly source_id: Id;
  readonly recipient_id: Id | null;
  // Source events
  readonly module_id?: string;
  readonly package_version?: string;
  /**
   * The flow's criteria (`rule_set`) and the source's own (`source_rule_set`), and what they said of the lead (#19.8).
   */
  readonly acceptance_criteria?: {
    readonly rule_set?: RuleSet;
    readonly source_rule_set?: RuleSet;
    readonly outcome: Outcome;
    readonly reason: string;
  };
  readonly step_count?: number;
  readonly appended?: Readonly<Record<string, unknown>>;
  readonly request?: RecordedRequest;
  readonly response?: RecordedResponse;
  // Recipient events
  readonly step_id?: string;
  /** The step's volume caps and what each did for this lead, by cap ID (the spec's `caps (object)`, #19.7). */
  readonly caps?: Readonly<Record<string, EventCap>>;
  readonly caps_reached?: boolean;
  /** The recipient's own record ID for the lead (feedback by recipient_record_id finds it). */
  readonly key?: string;
  readonly cost?: number;
  readonly purchase_price?: number;
  readonly sale_price?: number;
  readonly revenue?: number;
  readonly credential?: EventCredential;
  readonly credential_updated?: boolean;
  readonly rule_set?: RuleSet;
  readonly mappings?: readonly Mapping[];
  readonly pricing?: Pricing;
  readonly transactions?: readonly Transaction[];
  // Feedback events
  readonly feedback?: {
    readonly type: 'conversion' | 'return';
    readonly reason: string;
    readonly occurred_at: string;
    /** The delivery (recipient) event the feedback refers to. */
    readonly event_id: Id;
  };
}

/** A volume cap of a recipient step as its event records it: the cap, and what it did for this lead. */
export interface EventCap {
  readonly name: string;
  readonly maximum: number;
  readonly duration: number;
  readonly duration_units: Cap['duration_units'];
  readonly time_zone?: string;
  /** The lead took a slot of this cap (its rule set matched and the cap had room). */
  readonly counted: boolean;
  /** This cap was full, so the step skipped the lead. */
  readonly reached: boolean;
}

/** An event as stored: the record plus the owning account. */
export interface StoredEvent extends EventRecord {
  readonly account_id: Id;
}

/** The schema version of event records. */
export const EVENT_SCHEMA_VERSION = '1.0.0';
/** The lead handler's version. */
export const HANDLER_VERSION = '0.1.0';
/** Events are deleted this long after creation (spec: 90 days). */
export const EVENT_RETENTION_MS = 90 * 24 * 60 * 60 * 1000;
