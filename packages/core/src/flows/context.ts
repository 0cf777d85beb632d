import type { ResultAsync } from 'neverthrow';
import type { LeadrouteError } from '../errors';
import type { IdSequence } from '../ids';
import type { Account } from '../ports/accounts';
import type { Clock } from '../ports/clock';
import type { Logger } from '../ports/logger';
import type { Storage } from '../ports/storage';
import type { EventRecorder, RecordingUnit } from '../events/recorder';
import type { IntegrationRegistry } from '../integrations/registry';
import type { CompiledFlow, NameTag } from './compile';
import type { FlowRecord, PingLimit } from '../domain/flows';

/** A lead's `appended` before any step appended to it: one object for every lead, as nothing changes it in place. */
export const NOTHING_APPENDED: Readonly<Record<string, unknown>> = Object.freeze({});

/** What the lead handler runs on. */
export interface IntakeDeps {
  readonly storage: Storage;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly integrations: IntegrationRegistry;
  readonly recorder: EventRecorder;
  readonly compile: (flow: FlowRecord) => CompiledFlow;
  /** The display name of an entity for events (`source.name`, `recipient.name`). */
  readonly entityName: (accountId: string, entityId: string) => Promise<string>;
  /** A flow by ID, as read at most a few seconds ago (a change made through this service at once). */
  readonly flow: (id: string) => ResultAsync<FlowRecord | undefined, LeadrouteError>;
  /** The account a flow belongs to, as read at most a few seconds ago. */
  readonly account: (id: string) => ResultAsync<Account | undefined, LeadrouteError>;
  /** Recorded as `host` on events. */
  readonly host: string;
  /** How large a lead may be. @default DEFAULT_LEAD_LIMITS */
  readonly leadLimits?: LeadLimits;
}

/**
 * How large a lead may be. Every event of a lead keeps its fields, so one lead's size is paid again by every read of
 * them (a page of events, an export, a search hit): a key-less lead of 100,000 fields held the process for seconds at
 * intake and again at each read of that account's events.
 */
export interface LeadLimits {
  /** The most keys and array items in a lead, nested ones included. @default 1000 */
  readonly fields: number;
  /** The most characters in all of a lead's keys and strings together. @default 1000000 */
  readonly characters: number;
}

export const DEFAULT_LEAD_LIMITS: LeadLimits = { fields: 1000, characters: 1_000_000 };

/**
 * Why a lead is larger than `limits` allow, or undefined. Reading stops at the first field past a limit, so a lead far
 * larger costs no more to refuse.
 */
export function leadTooLarge(lead: Readonly<Record<string, unknown>>, limits: LeadLimits): string | undefined {
  let fields = 0;
  let characters = 0;
  // The objects being read, outermost first: a lead that holds itself is not large but not JSON either, which copying
  // it refuses (422) once this is done with it.
  const within: object[] = [];
  const over = (value: unknown): boolean => {
    if (typeof value === 'string') return (characters += value.length) > limits.characters;
    if (typeof value !== 'object' || value === null || within.includes(value)) return false;
    within.push(value);
    const past = Array.isArray(value) ? itemsOver(value) : keysOver(value as Record<string, unknown>);
    within.pop();
    return past;
  };
  const itemsOver = (items: readonly unknown[]): boolean => {
    if ((fields += items.length) > limits.fields) return true;
    for (const item of items) if (over(item)) return true;
    return false;
  };
  const keysOver = (record: Record<string, unknown>): boolean => {
    for (const key in record) {
      if (!Object.hasOwn(record, key)) continue;
      if (++fields > limits.fields || (characters += key.length) > limits.characters) return true;
      if (over(record[key])) return true;
    }
    return false;
  };
  if (!over(lead)) return undefined;
  return fields > limits.fields
    ? `A lead has at most ${limits.fields} fields (keys and array items, nested ones included).`
    : `A lead has at most ${limits.characters} characters in its field names and values together.`;
}

/** One lead's journey through a flow: what every step reads and appends to. */
export interface LeadRun {
  readonly deps: IntakeDeps;
  readonly account: Account;
  readonly compiled: CompiledFlow;
  readonly leadId: string;
  /** IDs of the lead's events, drawn in the order the events happen so they list in that order. */
  readonly ids: IdSequence;
  readonly submittedAt: number;
  readonly env: { readonly now: number; readonly timeZone: string };
  /** Lead fields as received. */
  readonly raw: Readonly<Record<string, unknown>>;
  /** What rules read: `{ lead (typed), source, flow, submission, appended }`. */
  readonly ctx: Record<string, unknown>;
  readonly source: NameTag;
  readonly flow: NameTag;
  /**
   * Data appended by steps, keyed by step ID; later steps and the source event see it. Never changed in place: a step
   * that appends replaces it (and `ctx.appended`) with a new object, so an event keeps the one it was recorded with
   * rather than a copy of its own (#22.9).
   */
  appended: Readonly<Record<string, unknown>>;
  readonly purchasePrice: number;
  /** The lead's records: steps add their events here, and intake writes them with the lead as one unit. */
  readonly unit: RecordingUnit;
  /** Milliseconds spent waiting on recipients so far: the source event's `wait_ms` (#19.8). */
  waitedMs: number;
  /** A post of a ping (#24.5): only this recipient step delivers, at this price. */
  auction?: { readonly stepId: string; readonly price: number };
  /** The flow's and the source's ping limits, recorded on every event of the lead when there are any (#19.8). */
  readonly pingLimits: { readonly flow: readonly PingLimit[]; readonly source: readonly PingLimit[] };
}

/** `flow_ping_limits`/`source_ping_limits` for an event of the lead: present when the flow or source has limits. */
export function pingLimitFields(run: Pick<LeadRun, 'pingLimits'>): {
  flow_ping_limits?: readonly PingLimit[];
  source_ping_limits?: readonly PingLimit[];
} {
  const { flow, source } = run.pingLimits;
  return flow.length === 0 && source.length === 0 ? {} : { flow_ping_limits: flow, source_ping_limits: source };
}

/** Timings of a step (spec: ms, wait_ms, overhead_ms, lag_ms, total_ms). */
export function timings(run: Pick<LeadRun, 'submittedAt'>, start: number, end: number, waitMs: number) {
  const ms = Math.max(0, end - start);
  const wait_ms = Math.min(ms, Math.max(0, Math.round(waitMs)));
  return {
    start_timestamp: start,
    end_timestamp: end,
    ms,
    wait_ms,
    overhead_ms: ms - wait_ms,
    lag_ms: Math.max(0, start - run.submittedAt),
    total_ms: Math.max(0, end - run.submittedAt),
  };
}
