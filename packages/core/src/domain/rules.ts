/**
 * Shapes shared by every part of the rules engine: rules, rule sets, typed field
 * values and the data context rules are evaluated against.
 */

/** A value a rule's `rhv` may hold (spec: string, number, boolean or array of strings). */
export type Rhv = string | number | boolean | readonly (string | number | boolean)[];

/** One condition: `lhv op rhv`, ANDed with its own optional `rule_set`. */
export interface Rule {
  /** 6-character alphanumeric ID. */
  readonly id: string;
  /** Dotted path into the context (`lead.state`, `lead.phone_1.area`) or a template. */
  readonly lhv: string;
  /** Canonical (lower-case) operator name, e.g. `is equal to`. */
  readonly op: string;
  /** Required for binary operators, absent for unary ones; strings may hold templates. */
  readonly rhv?: Rhv;
  /** Further conditions that must also pass for this rule to pass. */
  readonly rule_set?: RuleSet;
}

/** `and`: every element must pass; `or`: at least one must. */
export type RuleSetOp = 'and' | 'or';

/** A validated rule set: IDs assigned, operators known, never empty. */
export interface RuleSet {
  readonly id: string;
  readonly op: RuleSetOp;
  readonly rules: readonly RuleElement[];
  /** Reason reported instead of the failed rules' own reasons when this set fails. */
  readonly reason?: string;
}

/** An element of a rule set: a rule or a nested rule set. */
export type RuleElement = Rule | RuleSet;

/** A rule as callers write it: the ID is optional and assigned by validation. */
export interface RuleInput {
  readonly id?: string;
  readonly lhv: string;
  readonly op: string;
  readonly rhv?: Rhv;
  readonly rule_set?: RuleSetInput;
}

/** A rule set as callers write it: IDs optional at every depth. */
export interface RuleSetInput {
  readonly id?: string;
  readonly op: RuleSetOp;
  readonly rules: readonly (RuleInput | RuleSetInput)[];
  readonly reason?: string;
}

/** Whether an element of a validated rule set is a nested rule set rather than a rule. */
export function isRuleSet(element: RuleElement): element is RuleSet {
  return 'rules' in element;
}

/** Every type a lead field can carry. */
export type FieldType =
  | 'string'
  | 'number'
  | 'boolean'
  | 'phone'
  | 'email'
  | 'postal_code'
  | 'state'
  | 'street'
  | 'date'
  | 'time'
  | 'dob'
  | 'range'
  | 'gender'
  | 'url'
  | 'ip'
  | 'ssn'
  | 'trustedform_cert_url';

/** A scalar normal form. */
export type Scalar = string | number | boolean | null;

/**
 * A lead value parsed for its type. Parsing never rejects: an unusable value has
 * `valid: false` and a best-effort `normal`. Type-specific components (`area`,
 * `domain`, `age`, `min`...) sit beside these fields and are read by paths such as
 * `lead.phone_1.area`.
 */
export interface ParsedValue {
  readonly type: FieldType;
  /** The value exactly as received. */
  readonly raw: unknown;
  /** Whether the value is well-formed for its type (what `format is valid` tests). */
  readonly valid: boolean;
  /** The form comparisons use (E.164 phone, lower-case e-mail, 2-letter state...). */
  readonly normal: Scalar | readonly Scalar[];
  readonly [component: string]: unknown;
}

/** A flow's declaration of a non-standard field's type: `{ id: "lead.loan_amount", type: "number" }`. */
export interface FieldDeclaration {
  readonly id: string;
  readonly type: FieldType;
}

/**
 * What rules read: `{ lead, source, flow, recipient?, feedback?, ... }`. Lead values
 * are {@link ParsedValue}s when the lead went through `typeLead`.
 */
export type RuleContext = Readonly<Record<string, unknown>>;

/** Per-evaluation environment; `now` comes from the service clock, never the wall clock. */
export interface EvalEnv {
  /** Current time in epoch milliseconds. */
  readonly now: number;
  /** IANA zone used for dates written without an offset and for calendar arithmetic. */
  readonly timeZone: string;
}

/** Result of evaluating a rule set. */
export interface RuleOutcome {
  readonly pass: boolean;
  /** Human-readable reason, present when `pass` is false. */
  readonly reason?: string;
}
