import type { FirehoseConfig } from './firehose';
import type { Id } from '../ids';
import type { FieldDeclaration, RuleSet } from './rules';

/** Calendar units of cap and ping-limit windows. */
export type DurationUnit = 'minutes' | 'hours' | 'days' | 'weeks' | 'months';

/** A ping limit (spec "Ping limit object"): at most `maximum` pings per window. Its counter shares its ID. */
export interface PingLimit {
  readonly id: Id;
  readonly name: string;
  readonly maximum: number;
  readonly duration: number;
  readonly duration_units: DurationUnit;
  readonly time_zone: string;
  readonly created_at: string;
}

/** A volume cap: at most `maximum` leads per window, counting only leads its rule set matches. */
export interface Cap {
  readonly id: string;
  readonly name: string;
  readonly maximum: number;
  readonly duration: number;
  readonly duration_units: DurationUnit;
  /** @default the account's time zone */
  readonly time_zone?: string;
  readonly rule_set?: RuleSet;
}

/** Prices by rule set; every price is evaluated and the last match wins. */
export interface Pricing {
  /** When true the configured price wins over a price the recipient reports. */
  readonly override: boolean;
  readonly prices: readonly { readonly id: string; readonly amount: number; readonly rule_set?: RuleSet }[];
}

/** Sets `property` of the delivered lead to the templated `value` when `rule_set` matches. */
export interface Mapping {
  readonly id: string;
  readonly property: string;
  readonly value: string;
  /** Send the value as received rather than its normal form (#24.2). @default false */
  readonly raw?: boolean;
  readonly rule_set?: RuleSet;
}

/** Feedback on a delivery step or a source. */
export interface FeedbackConfig {
  readonly enabled: boolean;
  /** Criteria the feedback (type, reason, lead data) must meet. */
  readonly rule_set?: RuleSet;
  /** Sources only: where forwarded feedback is delivered (#24.6). Without it, it is only recorded. */
  readonly forward_to?: FeedbackForwarding;
}

/** How a source's feedback is delivered to it: an outbound module and its configuration. */
export interface FeedbackForwarding {
  readonly module_id: string;
  readonly config: Readonly<Record<string, unknown>>;
  /** @default 10000 */
  readonly timeout_ms?: number;
  /** Tries again after a connection error (no answer at all), 0 to 5 times. @default 2 */
  readonly retries?: number;
}

/**
 * Duplicate checking (#24.1): a submitted lead whose chosen fields (their normal forms: an
 * e-mail address in lower case, a phone number's digits) match those of a lead the same
 * account accepted within the window is a duplicate. `reject` answers the source `failure`
 * with reason `Duplicate lead`; `flag` lets it through with `duplicate` true for rules.
 */
export interface DuplicateCheck {
  /** Lead fields, without `lead.`: `['email']`, or `['email', 'phone_1']`. */
  readonly fields: readonly string[];
  /** `all`: the combination must match (the default); `any`: one field matching is enough. */
  readonly match: 'all' | 'any';
  readonly duration: number;
  readonly duration_units: DurationUnit;
  readonly action: 'reject' | 'flag';
}

/** A source of a flow: the entity that submits leads, with its own criteria and limits. */
export interface FlowSource {
  readonly entity_id: Id;
  readonly acceptance_criteria?: RuleSet;
  readonly ping_limits?: readonly PingLimit[];
  readonly caps?: readonly Cap[];
  /** What the source is paid for an accepted lead. */
  readonly pricing?: Pricing;
  /** Whether feedback is forwarded to this source. */
  readonly feedback?: FeedbackConfig;
  /** This source's duplicate check, instead of the flow's. */
  readonly duplicate_check?: DuplicateCheck;
  /**
   * The answer this source expects back (#24.4): its field names, each a template over the
   * answer (`outcome`, `reason`, `price`, `lead.id`, `ping_id`, `expires_at`) and the lead's
   * fields (`lead.<field>`). A template that is one expression keeps its value's type.
   */
  readonly response_template?: Readonly<Record<string, string>>;
  /**
   * Whether the source must send its posting secret with every submit and ping
   * (`X-Posting-Secret` header, or the password of HTTP Basic). Setting it generates the
   * secret; a PUT that leaves it out keeps the current setting, `false` removes it.
   * @default false
   */
  readonly require_posting_secret?: boolean;
  /**
   * The posting secret in plaintext: only in the answer to the POST or PUT that generated
   * it (`require_posting_secret` newly true, or `rotate_posting_secret: true`), never again.
   */
  readonly posting_secret?: string;
  /** SHA-256 (hex) of the posting secret: what is stored and compared. Never shown. */
  readonly posting_secret_sha256?: string;
}

/** A step of a flow: deliver to a recipient, or filter leads out. */
export interface FlowStep {
  readonly id: string;
  readonly type: 'recipient' | 'filter';
  readonly entity_id: Id;
  /** For a recipient step: the outbound module that delivers; unused for filters. */
  readonly module_id: string;
  readonly config: Readonly<Record<string, unknown>>;
  /** Recipient: criteria to deliver (else skip). Filter: criteria that stop the lead. */
  readonly rule_set?: RuleSet;
  readonly caps?: readonly Cap[];
  readonly pricing?: Pricing;
  readonly mappings?: readonly Mapping[];
  readonly credential_id?: Id;
  readonly feedback?: FeedbackConfig;
  /** Delivery timeout. @default 10000 */
  readonly timeout_ms?: number;
  /** Cost of running the step for one lead (an enhancement's fee). @default 0 */
  readonly cost?: number;
}

/** A flow as configured by the account (the body of POST/PUT /flows). */
export interface FlowConfig {
  readonly name: string;
  readonly enabled: boolean;
  readonly fields: readonly FieldDeclaration[];
  readonly acceptance_criteria?: RuleSet;
  readonly ping_limits?: readonly PingLimit[];
  /** Duplicate checking for every source without a check of its own. */
  readonly duplicate_check?: DuplicateCheck;
  /** How long a ping's bid holds: a post naming its `ping_id` later is refused. @default 300 */
  readonly ping_validity_seconds?: number;
  readonly firehose?: FirehoseConfig;
  readonly sources: readonly FlowSource[];
  readonly steps: readonly FlowStep[];
}

/** A flow as the API shows it. */
export interface Flow extends FlowConfig {
  readonly id: Id;
  readonly version: number;
  readonly created_at: string;
  readonly updated_at: string;
}

/** A flow as stored. */
export interface FlowRecord extends Flow {
  readonly account_id: Id;
}
