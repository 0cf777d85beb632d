import { okAsync, ResultAsync } from 'neverthrow';
import { setOwn } from '../data-copy';
import { errors, type LeadrouteError } from '../errors';
import type { EventCredential, Outcome, StoredEvent } from '../domain/events';
import { EVENT_RETENTION_MS, EVENT_SCHEMA_VERSION, HANDLER_VERSION } from '../domain/events';
import { withoutSecrets } from '../firehose/secrets';
import type { CredentialRecord } from '../ports/credentials';
import type { DeliveryRequest, DeliveryResult } from '../ports/integrations';
import { isoTime } from '../time';
import { eventCaps, type Reservation, releaseCaps, reserveCaps } from './caps';
import { type CompiledStep, deliveredValue } from './compile';
import { deliverWithin } from './deliver';
import { type LeadRun, pingLimitFields, timings } from './context';

/** What a step leaves behind: its event, and whether the lead goes on. */
export interface StepResult {
  readonly event: StoredEvent;
  /** A filter that matched stops the lead; its reason becomes the lead's. */
  readonly stop?: string;
}

const DEFAULT_TIMEOUT_MS = 10_000;

/**
 * One structured log line per step: IDs, outcome and timings only. Reasons can
 * quote lead values and vars hold the lead, so neither is logged at info level.
 */
export function logStep(run: LeadRun, event: StoredEvent): void {
  run.deps.logger.info(
    {
      lead_id: run.leadId,
      flow_id: run.flow.id,
      event_id: event.id,
      step_id: event.step_id ?? null,
      type: event.type,
      outcome: event.outcome,
      ms: event.ms,
      wait_ms: event.wait_ms,
    },
    'lead step',
  );
}

function baseEvent(run: LeadRun, id: string, start: number) {
  return {
    id,
    account_id: run.account.id,
    host: run.deps.host,
    handler_version: HANDLER_VERSION,
    version: EVENT_SCHEMA_VERSION,
    expires_at: isoTime(start + EVENT_RETENTION_MS),
    lead_id: run.leadId,
    flow_id: run.flow.id,
    source_id: run.source.id,
    ping_limit_reached: false,
    ...pingLimitFields(run),
    ...(run.compiled.flow.firehose ? { firehose: withoutSecrets(run.compiled.flow.firehose) } : {}),
  };
}

function vars(run: LeadRun, extra: Record<string, unknown>): Record<string, unknown> {
  return {
    lead: run.raw,
    source: run.source,
    flow: run.flow,
    submission: run.ctx.submission,
    // As it stands now: a later step's entry goes into a new object (see `LeadRun.appended`).
    appended: run.appended,
    purchase_price: run.purchasePrice,
    ...extra,
  };
}

/** The delivered lead: each field's normal form when valid (#24.2), with the step's matching mappings applied. */
function mappedLead(run: LeadRun, compiled: CompiledStep, ctx: Record<string, unknown>): Record<string, unknown> {
  const typed = run.ctx.lead as Record<string, unknown>;
  const lead: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(run.raw)) setOwn(lead, field, deliveredValue(typed[field] ?? value));
  for (const m of compiled.mappings) {
    if (m.applies && !m.applies(ctx, run.env).pass) continue;
    setOwn(lead, m.property, deliveredValue(m.value(ctx, run.env), m.raw));
  }
  return lead;
}

function eventCredential(c: CredentialRecord): EventCredential {
  return {
    id: c.id,
    name: c.name,
    type: c.type,
    package: c.package,
    created_at: c.created_at,
    updated_at: c.updated_at,
    username: c.username,
  };
}

/** Calls the step's module with the step's timeout. */
function deliverWithTimeout(
  run: LeadRun,
  compiled: CompiledStep,
  request: Omit<DeliveryRequest, 'signal'>,
): Promise<DeliveryResult> {
  const { module_id, timeout_ms, id } = compiled.step;
  return deliverWithin(
    run.deps.integrations.outbound(module_id),
    module_id,
    request,
    timeout_ms ?? DEFAULT_TIMEOUT_MS,
    { logger: run.deps.logger, context: { step: id } },
  );
}

/** A filter step: when its rule set matches (or it has none) the lead stops with failure. */
export function runFilter(run: LeadRun, compiled: CompiledStep): ResultAsync<StepResult, LeadrouteError> {
  const start = run.deps.clock.now();
  const id = run.ids.next(start);
  const matched = compiled.rule ? compiled.rule(run.ctx, run.env).pass : true;
  const reason = matched ? (compiled.step.rule_set?.reason ?? `Filtered by step ${compiled.step.id}`) : '';
  const event: StoredEvent = {
    ...baseEvent(run, id, start),
    ...timings(run, start, run.deps.clock.now(), 0),
    type: 'filter',
    outcome: matched ? 'failure' : 'success',
    reason,
    vars: vars(run, { event_id: id }),
    recipient_id: compiled.step.entity_id,
    step_id: compiled.step.id,
    cap_reached: false,
    ...(compiled.step.rule_set ? { rule_set: compiled.step.rule_set } : {}),
  };
  run.unit.add(event);
  logStep(run, event);
  return okAsync(matched ? { event, stop: reason } : { event });
}

/**
 * A recipient step: its rule set (else skip), its caps (else skip with
 * caps_reached), pricing, mappings, then delivery through its module.
 */
export function runRecipient(run: LeadRun, compiled: CompiledStep): ResultAsync<StepResult, LeadrouteError> {
  const { step } = compiled;
  const { deps } = run;
  const start = deps.clock.now();
  const id = run.ids.next(start);
  const recipient = { id: step.entity_id, name: '' };
  const finish = (o: {
    outcome: Outcome;
    reason: string;
    capsReached?: boolean;
    reservation?: Reservation;
    result?: DeliveryResult;
    sale?: number;
    revenue?: number;
    credential?: CredentialRecord;
    waitMs?: number;
    name: string;
  }) => {
    const end = deps.clock.now();
    const event: StoredEvent = {
      ...baseEvent(run, id, start),
      ...timings(run, start, end, o.waitMs ?? 0),
      type: 'recipient',
      outcome: o.outcome,
      reason: o.reason,
      vars: vars(run, { recipient: compiled.tag(o.name), price: o.sale ?? 0, event_id: id }),
      recipient_id: step.entity_id,
      step_id: step.id,
      module_id: step.module_id,
      package_version: deps.integrations.outbound(step.module_id)?.package_version ?? '0.0.0',
      cap_reached: o.capsReached ?? false,
      caps_reached: o.capsReached ?? false,
      caps: eventCaps(step.caps, o.reservation),
      ...(o.result?.reference ? { key: o.result.reference } : {}),
      cost: step.cost ?? 0,
      purchase_price: run.purchasePrice,
      sale_price: o.sale ?? 0,
      revenue: o.revenue ?? 0,
      ...(o.credential ? { credential: eventCredential(o.credential), credential_updated: false } : {}),
      ...(step.rule_set ? { rule_set: step.rule_set } : {}),
      mappings: step.mappings ?? [],
      ...(step.pricing ? { pricing: step.pricing } : {}),
      transactions: o.result?.transactions ?? [],
      ...(o.result?.appended ? { appended: o.result.appended } : {}),
    };
    run.appended = {
      ...run.appended,
      [step.id]: {
        recipient: o.name,
        outcome: o.outcome,
        reason: o.reason,
        price: o.revenue ?? 0,
        ...(o.result?.reference ? { reference: o.result.reference } : {}),
        ...o.result?.appended,
      },
    };
    run.ctx.appended = run.appended;
    run.unit.add(event);
    logStep(run, event);
    return okAsync<StepResult, LeadrouteError>({ event });
  };

  return ResultAsync.fromPromise(deps.entityName(run.account.id, step.entity_id), (e) =>
    errors.storageFailure('Cannot read the recipient entity.', e),
  ).andThen((name) => {
    recipient.name = name;
    const ctx = { ...run.ctx, recipient };
    if (compiled.rule) {
      const verdict = compiled.rule(ctx, run.env);
      if (!verdict.pass) return finish({ outcome: 'skip', reason: verdict.reason ?? 'Step criteria not met', name });
    }
    return reserveCaps(deps.storage.counters, `${run.flow.id}:${step.id}`, compiled.caps, ctx, run.env).andThen(
      (reservation: Reservation) => {
        if (reservation.full)
          return finish({
            outcome: 'skip',
            reason: `Cap reached: ${reservation.full.cap.name}`,
            capsReached: true,
            reservation,
            name,
          });
        // A post of a ping is sold at the bid its ping won with.
        const bid = run.auction?.stepId === step.id ? run.auction.price : undefined;
        const sale = bid ?? compiled.pricing?.price(ctx, run.env);
        const credential = step.credential_id
          ? deps.storage.credentials
              .get(step.credential_id)
              .map((c) => (c && c.account_id === run.account.id ? c : undefined))
          : okAsync<CredentialRecord | undefined, LeadrouteError>(undefined);
        return credential.andThen((cred) => {
          // Mappings and templates can name the delivery's own IDs (`{{event_id}}`, #19.1) beside the lead's fields.
          const lead = mappedLead(run, compiled, { ...ctx, event_id: id, lead_id: run.leadId, flow_id: run.flow.id });
          // The recipient learns the event ID now; feedback naming it waits for the lead's commit.
          run.unit.expect(id);
          const waitStart = performance.now();
          return ResultAsync.fromSafePromise(
            deliverWithTimeout(run, compiled, {
              lead,
              config: step.config,
              lead_id: run.leadId,
              event_id: id,
              ...(sale === undefined ? {} : { price: sale }),
              ...(cred
                ? {
                    credential: {
                      id: cred.id,
                      name: cred.name,
                      type: cred.type,
                      username: cred.username,
                      password: cred.password,
                    },
                  }
                : {}),
            }),
          ).andThen((result) => {
            const waitMs = performance.now() - waitStart;
            run.waitedMs += waitMs;
            const success = result.outcome === 'success';
            const fixed = bid !== undefined || compiled.pricing?.override === true;
            const revenue = success ? (fixed ? (sale ?? 0) : (result.price ?? sale ?? 0)) : 0;
            const give = success ? okAsync(undefined) : releaseCaps(deps.storage.counters, reservation.keys);
            return give.andThen(() =>
              finish({
                outcome: result.outcome,
                reason: result.reason ?? '',
                result,
                sale: sale ?? result.price ?? 0,
                revenue,
                waitMs,
                name,
                // A delivery that did not succeed gave its slots back.
                reservation: success ? reservation : { ...reservation, counted: [] },
                ...(cred ? { credential: cred } : {}),
              }),
            );
          });
        });
      },
    );
  });
}
