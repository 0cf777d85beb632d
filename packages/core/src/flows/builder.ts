/**
 * Typed flows: the body of `service.flows.create` / `update` (and of POST/PUT /flows) as
 * TypeScript types whose operator names, step types, module IDs and module configurations
 * are unions, so a misspelled operator, step type or config key fails to compile instead of
 * failing validation at run time. Everything here is types and identity helpers: a typed
 * flow is the plain object the API takes, accepted unchanged by `flows.create`.
 *
 * Arrays are mutable in these types on purpose: a mutable array is assignable both to the
 * readonly arrays of the domain types and to the mutable arrays of a schema's static type.
 * @example
 * const flow = defineFlow({
 *   name: 'Auto',
 *   acceptance_criteria: allOf(rule('lead.state', 'is included in', ['TX', 'OK']), rule('lead.phone_1', 'format is
 * valid')),
 *   sources: [{ entity_id: vendorId }],
 *   steps: [{ type: 'recipient', entity_id: buyerId, module_id: 'platform-custom.outbound.json', config: { url } }],
 * });
 * await service.flows.create(principal, flow);
 */
import type { CustomGetConfig, CustomJsonConfig } from '../integrations/custom-json';
import type { BinaryOperatorName, FieldType, RuleSetOp, UnaryOperatorName } from '../rules';
import type { DurationUnit } from '../domain/flows';

/** A value a rule's `rhv` may hold: text (templates allowed), a number, a boolean, or a list of them. */
export type TypedRuleValue = string | number | boolean | (string | number | boolean)[];

interface RuleBase {
  /** 6-character alphanumeric ID; assigned by the server when absent. */
  readonly id?: string;
  /** Dotted path into the context (`lead.state`, `lead.phone_1.area`) or a template. */
  readonly lhv: string;
  /** Further conditions that must also pass for this rule to pass. */
  readonly rule_set?: TypedRuleSet;
}

/** A rule with an operator that takes no rhv (`lead.phone_1 format is valid`). */
export interface TypedUnaryRule extends RuleBase {
  readonly op: UnaryOperatorName;
  readonly rhv?: undefined;
}

/** A rule with an operator that needs an rhv (`lead.state is equal to TX`). */
export interface TypedBinaryRule extends RuleBase {
  readonly op: BinaryOperatorName;
  readonly rhv: TypedRuleValue;
}

/** One condition; its operator is one of the built-ins, and only binary operators take an rhv. */
export type TypedRule = TypedUnaryRule | TypedBinaryRule;

/** A rule set as the API takes it: IDs optional at every depth. */
export interface TypedRuleSet {
  readonly id?: string;
  readonly op: RuleSetOp;
  readonly rules: (TypedRule | TypedRuleSet)[];
  /** Reason reported instead of the failed rules' own reasons when this set fails. */
  readonly reason?: string;
}

/** A lead field's declared type: `{ id: 'lead.loan_amount', type: 'number' }`. */
export interface TypedField {
  readonly id: string;
  readonly type: FieldType;
}

interface WindowInput {
  /** Kept on update when it names a limit the flow already has; assigned otherwise. */
  readonly id?: string;
  readonly name?: string;
  readonly maximum: number;
  /** @default 1 */
  readonly duration?: number;
  readonly duration_units: DurationUnit;
  /** IANA zone of the calendar window. @default the account's time zone */
  readonly time_zone?: string;
}

/** A ping limit: at most `maximum` pings per window. */
export interface TypedPingLimit extends WindowInput {}

/** A volume cap: at most `maximum` leads per window, counting only leads its rule set matches. */
export interface TypedCap extends WindowInput {
  readonly rule_set?: TypedRuleSet;
}

/** Prices by rule set; every price is evaluated and the last match wins. */
export interface TypedPricing {
  /** When true the configured price wins over a price the recipient reports. @default false */
  readonly override?: boolean;
  readonly prices: { readonly amount: number; readonly rule_set?: TypedRuleSet }[];
}

/** Sets `property` of the delivered lead to the templated `value` when `rule_set` matches. */
export interface TypedMapping {
  readonly property: string;
  /** A template (`{{ lead.phone_1 }}`) or a literal. */
  readonly value: string | number | boolean;
  /** Send the value as received instead of its normal form. @default false */
  readonly raw?: boolean;
  readonly rule_set?: TypedRuleSet;
}

/** Feedback on a delivery step or a source. */
export interface TypedFeedback {
  readonly enabled: boolean;
  readonly rule_set?: TypedRuleSet;
}

/** Duplicate checking: a lead matching one the account accepted within the window (docs: DuplicateCheck). */
export interface TypedDuplicateCheck {
  /** Lead fields, `email` or `lead.email`: 1 to 5, each once. */
  readonly fields: string[];
  /** @default 'all' */
  readonly match?: 'all' | 'any';
  readonly duration: number;
  readonly duration_units: DurationUnit;
  /** @default 'reject' */
  readonly action?: 'reject' | 'flag';
}

/** Where a source's feedback is delivered: an outbound module with that module's configuration. */
export type TypedFeedbackForwarding = {
  [Id in OutboundModuleId]: {
    readonly module_id: Id;
    readonly config: OutboundModuleConfig<Id>;
    /** 50 to 120000. @default 10000 */
    readonly timeout_ms?: number;
    /** Tries again after a connection error, 0 to 5 times. @default 2 */
    readonly retries?: number;
  };
}[OutboundModuleId];

/** Feedback forwarded to a source. */
export interface TypedSourceFeedback extends TypedFeedback {
  readonly forward_to?: TypedFeedbackForwarding;
}

/** A source of a flow: the entity that submits leads, with its own criteria and limits. */
export interface TypedSource {
  readonly entity_id: string;
  readonly acceptance_criteria?: TypedRuleSet;
  readonly ping_limits?: TypedPingLimit[];
  readonly caps?: TypedCap[];
  readonly pricing?: TypedPricing;
  readonly feedback?: TypedSourceFeedback;
  /** This source's duplicate check, instead of the flow's. */
  readonly duplicate_check?: TypedDuplicateCheck;
  /** Require the source's posting secret on every submit and ping; setting it generates the secret. */
  readonly require_posting_secret?: boolean;
  /** Generate a new posting secret (needs `require_posting_secret`). */
  readonly rotate_posting_secret?: boolean;
}

/** A step's module configuration that takes no keys. */
export type TypedNoConfig = { readonly [key: string]: never };

/**
 * The configuration of each outbound module a step may name, by module ID. A host that
 * installs modules of its own adds them by declaration merging:
 * @example
 * declare module '@leadroute/core' {
 *   interface OutboundModuleConfigs {
 *     'platform-acme.outbound.post': { readonly endpoint: string };
 *   }
 * }
 */
export interface OutboundModuleConfigs {
  /** The built-in JSON webhook. */
  'platform-custom.outbound.json': CustomJsonConfig;
  /** The lead POSTed as a form (`application/x-www-form-urlencoded`). */
  'platform-custom.outbound.form': CustomJsonConfig;
  /** The lead POSTed as XML under `xml_root`. */
  'platform-custom.outbound.xml': CustomJsonConfig;
  /** The lead as the query of a GET. */
  'platform-custom.outbound.get': CustomGetConfig;
  /** The built-in consent-certificate step (needs the certificate service). */
  'platform-certificate.outbound.claim': TypedNoConfig;
  /** `scriptedRecipient()` and other test modules: they record whatever configuration they are given. */
  [testModule: `platform-test.outbound.${string}`]: Readonly<Record<string, unknown>>;
}

/** A module ID a typed step may name: a key of {@link OutboundModuleConfigs}. */
export type OutboundModuleId = keyof OutboundModuleConfigs & string;

/** The configuration module `Id` takes. */
export type OutboundModuleConfig<Id extends OutboundModuleId> = OutboundModuleConfigs[Id];

interface StepBase {
  /** Kept on update when it names a step the flow already has; assigned otherwise. */
  readonly id?: string;
  readonly entity_id: string;
  /** Recipient: criteria to deliver (else skip). Filter: criteria that stop the lead (none stops every lead). */
  readonly rule_set?: TypedRuleSet;
  readonly caps?: TypedCap[];
  readonly pricing?: TypedPricing;
  readonly mappings?: TypedMapping[];
  readonly feedback?: TypedFeedback;
  /** Delivery timeout, 50 to 120000. @default 10000 */
  readonly timeout_ms?: number;
  /** Cost of running the step for one lead. @default 0 */
  readonly cost?: number;
}

/** `config` is required when the module's configuration has required keys, optional otherwise. */
type ConfigOf<Id extends OutboundModuleId> =
  Record<never, never> extends OutboundModuleConfig<Id>
    ? { readonly config?: OutboundModuleConfig<Id> }
    : { readonly config: OutboundModuleConfig<Id> };

/**
 * A recipient step: delivers through the outbound module `module_id` with that module's
 * configuration. One union member per module, so `config` is checked against the module named.
 */
export type TypedRecipientStep<Id extends OutboundModuleId = OutboundModuleId> = Id extends OutboundModuleId
  ? StepBase & {
      readonly type: 'recipient';
      readonly module_id: Id;
      readonly credential_id?: string;
    } & ConfigOf<Id>
  : never;

/** A filter step: stops the leads its rule set matches. It names no module. */
export interface TypedFilterStep extends StepBase {
  readonly type: 'filter';
  readonly module_id?: undefined;
  readonly config?: undefined;
}

/** A step of a typed flow. */
export type TypedStep = TypedRecipientStep | TypedFilterStep;

/** A flow's `firehose`: the service form (or the legacy flat AWS form). */
export type TypedFirehose =
  | {
      readonly enabled?: boolean;
      readonly services?: {
        readonly aws?: {
          readonly enabled?: boolean;
          readonly credential_id: string;
          readonly bucket: string;
          readonly prefix?: string;
        };
        readonly azure?: {
          readonly enabled?: boolean;
          readonly credential_id?: string;
          readonly connection_string?: string;
          readonly bucket: string;
          readonly prefix?: string;
        };
      };
    }
  | {
      readonly enabled?: boolean;
      readonly credential_id: string;
      readonly bucket: string;
      readonly prefix?: string;
    };

/** A flow as the API takes it (the body of `flows.create`, POST /flows). */
export interface TypedFlow {
  readonly name: string;
  /** @default true */
  readonly enabled?: boolean;
  /** Types of the lead fields beyond the standard ones. */
  readonly fields?: TypedField[];
  readonly acceptance_criteria?: TypedRuleSet;
  readonly ping_limits?: TypedPingLimit[];
  /** Duplicate checking for every source without a check of its own. */
  readonly duplicate_check?: TypedDuplicateCheck;
  /** How long a ping's bid holds, 1 to 86400 seconds. @default 300 */
  readonly ping_validity_seconds?: number;
  readonly firehose?: TypedFirehose;
  readonly sources: TypedSource[];
  readonly steps?: TypedStep[];
}

/** A flow update (`flows.update`, PUT /flows/:id): a whole flow, optionally with the version it was read at. */
export interface TypedFlowUpdate extends TypedFlow {
  readonly version?: number;
}

// Not generic on purpose: an argument checked against a type parameter's constraint escapes
// excess-property checks, and those are what catch a misspelled key.

/** Checks a flow against the typed shape and returns it unchanged. */
export function defineFlow(flow: TypedFlow): TypedFlow {
  return flow;
}

/** Checks a step against the typed shape and returns it unchanged. */
export function defineStep(step: TypedStep): TypedStep {
  return step;
}

/** A rule whose operator takes no rhv: `rule('lead.phone_1', 'format is valid')`. */
export function rule(lhv: string, op: UnaryOperatorName): TypedUnaryRule;
/** A rule whose operator needs an rhv: `rule('lead.state', 'is equal to', 'TX')`. */
export function rule(lhv: string, op: BinaryOperatorName, rhv: TypedRuleValue): TypedBinaryRule;
export function rule(lhv: string, op: UnaryOperatorName | BinaryOperatorName, rhv?: TypedRuleValue): TypedRule {
  return (rhv === undefined ? { lhv, op } : { lhv, op, rhv }) as TypedRule;
}

/** A rule set that passes when every element passes. */
export function allOf(...rules: (TypedRule | TypedRuleSet)[]): TypedRuleSet {
  return { op: 'and', rules };
}

/** A rule set that passes when at least one element passes. */
export function anyOf(...rules: (TypedRule | TypedRuleSet)[]): TypedRuleSet {
  return { op: 'or', rules };
}
