import { errAsync, okAsync, ResultAsync } from 'neverthrow';
import { errors, type LeadrouteError } from '../errors';
import {
  EVENT_RETENTION_MS,
  EVENT_SCHEMA_VERSION,
  HANDLER_VERSION,
  type Outcome,
  type StoredEvent,
} from '../domain/events';
import { copyData } from '../data-copy';
import { withoutSecrets } from '../firehose/secrets';
import { type Id, idSequence, isId, newId } from '../ids';
import type { RecordedRequest } from '../ports/integrations';
import { typeLead } from '../rules';
import { isoTime } from '../time';
import { isRecord } from '../validation';
import { capsFull, releaseCaps, reserveCaps } from './caps';
import { type Bid, bestBid, DEFAULT_PING_VALIDITY_SECONDS, type PostOfPing, resolvePing } from './auction';
import { checkDuplicate, DUPLICATE_REASON } from './duplicates';
import type { CompiledSource } from './compile';
import {
  DEFAULT_LEAD_LIMITS,
  type IntakeDeps,
  type LeadRun,
  leadTooLarge,
  NOTHING_APPENDED,
  pingLimitFields,
  timings,
} from './context';
import { logStep, runFilter, runRecipient, type StepResult } from './step';
import type { PingLimit } from '../domain/flows';
import { postingSecretMatches } from './posting-secret';
import { limitWindow } from './windows';
import { mapAsync, orElseAsync } from '../results';

/** What a source is answered after a submit or a ping (like a feedback result). */
export interface IntakeResult {
  readonly outcome: 'success' | 'failure' | 'error';
  readonly reason?: string;
  readonly lead: { readonly id: Id };
  /** Submit: the purchase price paid for the lead. Ping: the price a post would get. */
  readonly price: number;
  /** Ping: what a post sends as `ping_id` to be delivered to the winning bidder at its bid (#24.5). */
  readonly ping_id?: Id;
  /** Ping: until when a post naming `ping_id` is taken. */
  readonly expires_at?: string;
  /**
   * The answer in the shape the source asked for (its `response_template`, #24.4): what the
   * HTTP API sends instead of the fields above when the source has a template.
   */
  readonly answer?: Readonly<Record<string, unknown>>;
}

/** The result with the answer the source's template makes of it, when it has one. */
function answered(run: LeadRun, source: CompiledSource, result: IntakeResult): IntakeResult {
  if (!source.response) return result;
  const ctx = { reason: '', ...result, lead: { ...run.raw, id: run.leadId } };
  return { ...result, answer: source.response(ctx, run.env) };
}

/** Options of a submission. */
export interface IntakeOptions {
  /** The HTTP request as received, recorded on the source event. */
  readonly request?: RecordedRequest;
  /** The posting secret the source presented; checked when the source requires one. */
  readonly postingSecret?: string;
}

/** The `leads` sub-API: intake of leads into flows. */
export interface LeadsApi {
  /** Runs a lead through the flow: acceptance criteria, then every step in order, recording each as an event. */
  submit(
    flowId: string,
    sourceId: string,
    lead: unknown,
    options?: IntakeOptions,
  ): ResultAsync<IntakeResult, LeadrouteError>;
  /** Prices a lead without delivering it; ping limits apply. */
  ping(
    flowId: string,
    sourceId: string,
    lead: unknown,
    options?: IntakeOptions,
  ): ResultAsync<IntakeResult, LeadrouteError>;
}

interface Prepared {
  readonly run: LeadRun;
  readonly source: CompiledSource;
}

/**
 * The one answer for a posting URL that leads nowhere: an unknown flow, another account's,
 * a source not (or no longer) on the flow, an ID of another kind. Telling them apart would
 * let a caller walk IDs until one answers differently.
 */
/** A ping's answer when no recipient step would take the lead. */
export const NO_BID = 'No bid: no recipient would take the lead.';

export const NO_SUCH_POSTING_URL: LeadrouteError = { type: 'NotFound', message: 'No such posting URL.' };

/** The answer when a source requires its posting secret and the request lacks it or gives another. */
export const POSTING_SECRET_REQUIRED: LeadrouteError = errors.unauthorized(
  'This source requires its posting secret: send it in the X-Posting-Secret header or as the HTTP Basic password.',
);

function prepare(
  deps: IntakeDeps,
  flowId: string,
  sourceId: string,
  body: unknown,
  postingSecret: string | undefined,
): ResultAsync<Prepared, LeadrouteError> {
  // The body is checked first: its answer must not depend on whether the IDs exist.
  if (body !== undefined && !isRecord(body))
    return errAsync(errors.validation([{ path: '', message: 'A lead must be an object of fields.' }]));
  const tooLarge = body === undefined ? undefined : leadTooLarge(body, deps.leadLimits ?? DEFAULT_LEAD_LIMITS);
  if (tooLarge !== undefined) return errAsync(errors.badRequest(tooLarge));
  // The lead's records keep the fields: a copy of its own, which the caller cannot change afterwards (the records are
  // handed to the store as they are, see LeadWrites). A class instance among them is kept as its JSON, as every store
  // that keeps JSON keeps it.
  let raw: Record<string, unknown>;
  try {
    raw = copyData(body ?? {}, { json: true });
  } catch {
    return errAsync(errors.validation([{ path: '', message: "A lead's fields must be JSON values." }]));
  }
  if (!isId(flowId) || !isId(sourceId)) return errAsync(NO_SUCH_POSTING_URL);
  return deps.flow(flowId.toLowerCase()).andThen((flow) => {
    if (!flow) return errAsync(NO_SUCH_POSTING_URL);
    const compiled = deps.compile(flow);
    const source = compiled.sources.get(sourceId.toLowerCase());
    if (!source) return errAsync(NO_SUCH_POSTING_URL);
    const digest = source.source.posting_secret_sha256;
    if (
      source.source.require_posting_secret === true &&
      (digest === undefined || !postingSecretMatches(digest, postingSecret))
    )
      return errAsync(POSTING_SECRET_REQUIRED);
    return deps.account(flow.account_id).andThen((account) => {
      if (!account) return errAsync(NO_SUCH_POSTING_URL);
      const now = deps.clock.now();
      const env = { now, timeZone: account.time_zone };
      return mapAsync(
        ResultAsync.fromSafePromise(deps.entityName(account.id, source.source.entity_id)),
        (sourceName) => {
          const submission = { timestamp: isoTime(now) };
          const sourceInfo = source.tag(sourceName);
          const flowInfo = compiled.tag;
          const ctx: Record<string, unknown> = {
            lead: typeLead(raw, compiled.fields, env),
            source: sourceInfo,
            flow: flowInfo,
            submission,
            appended: NOTHING_APPENDED,
          };
          const purchasePrice = source.pricing?.price(ctx, env) ?? 0;
          const run: LeadRun = {
            deps,
            account,
            compiled,
            leadId: newId(now),
            ids: idSequence(),
            submittedAt: now,
            env,
            raw,
            ctx,
            source: sourceInfo,
            flow: flowInfo,
            appended: NOTHING_APPENDED,
            purchasePrice,
            unit: deps.recorder.unit(),
            waitedMs: 0,
            pingLimits: { flow: compiled.flow.ping_limits ?? [], source: source.source.ping_limits ?? [] },
          };
          return { run, source };
        },
      );
    });
  });
}

/** Flow then source acceptance criteria; the first failure's reason, or undefined when accepted. */
function rejection(run: LeadRun, source: CompiledSource): string | undefined {
  if (!run.compiled.flow.enabled) return 'The flow is disabled.';
  for (const criteria of [run.compiled.acceptance, source.acceptance]) {
    const verdict = criteria?.(run.ctx, run.env);
    if (verdict && !verdict.pass) return verdict.reason ?? 'Acceptance criteria not met';
  }
  return undefined;
}

/** The headers recorded with every source event's response: one object for all of them (#22.9). */
const JSON_HEADERS: Readonly<Record<string, string>> = Object.freeze({ 'content-type': 'application/json' });

function sourceEvent(
  run: LeadRun,
  source: CompiledSource,
  id: string,
  fields: {
    type: 'source' | 'ping';
    outcome: Outcome;
    reason: string;
    steps: number;
    request?: RecordedRequest;
    price: number;
    extra?: Partial<StoredEvent>;
    /** A ping's winning bid: what a post naming it is delivered at. */
    bid?: Bid;
  },
): StoredEvent {
  const duplicate = run.ctx.duplicate;
  const end = run.deps.clock.now();
  const response = {
    outcome: fields.outcome,
    ...(fields.reason ? { reason: fields.reason } : {}),
    lead: { id: run.leadId },
    price: fields.price,
  };
  return {
    id,
    account_id: run.account.id,
    type: fields.type,
    outcome: fields.outcome,
    reason: fields.reason,
    // vars as at the source event's moment, the submission: nothing the steps appended later (#19.8).
    vars: {
      lead: run.raw,
      source: run.source,
      flow: run.flow,
      submission: run.ctx.submission,
      appended: NOTHING_APPENDED,
      purchase_price: run.purchasePrice,
      price: fields.price,
      event_id: id,
      ...(typeof duplicate === 'boolean' ? { duplicate } : {}),
      ...(fields.bid ? { bid: fields.bid } : {}),
    },
    host: run.deps.host,
    // wait_ms: the time the lead spent waiting on its recipients (#19.8).
    ...timings(run, run.submittedAt, end, run.waitedMs),
    ...pingLimitFields(run),
    ...(run.compiled.flow.firehose ? { firehose: withoutSecrets(run.compiled.flow.firehose) } : {}),
    handler_version: HANDLER_VERSION,
    version: EVENT_SCHEMA_VERSION,
    cap_reached: false,
    ping_limit_reached: false,
    expires_at: isoTime(run.submittedAt + EVENT_RETENTION_MS),
    lead_id: run.leadId,
    flow_id: run.flow.id,
    source_id: run.source.id,
    recipient_id: null,
    module_id: 'platform-leadroute.inbound.standard',
    package_version: HANDLER_VERSION,
    acceptance_criteria: {
      ...(run.compiled.flow.acceptance_criteria ? { rule_set: run.compiled.flow.acceptance_criteria } : {}),
      ...(source.source.acceptance_criteria ? { source_rule_set: source.source.acceptance_criteria } : {}),
      outcome: fields.outcome === 'success' ? 'success' : 'failure',
      reason: fields.outcome === 'success' ? '' : fields.reason,
    },
    step_count: fields.steps,
    appended: run.appended,
    // The request as recorded: a copy, which whoever handed it over cannot change afterwards.
    ...(fields.request ? { request: copyData(fields.request) } : {}),
    response: {
      status: 201,
      status_text: 'Created',
      version: '1.1',
      headers: JSON_HEADERS,
      body: JSON.stringify(response),
      timestamp: end,
    },
    purchase_price: run.purchasePrice,
    ...fields.extra,
  };
}

function runSteps(run: LeadRun): ResultAsync<{ count: number; stop?: string; revenue: number }, LeadrouteError> {
  const steps = run.compiled.steps;
  const next = (
    i: number,
    revenue: number,
  ): ResultAsync<{ count: number; stop?: string; revenue: number }, LeadrouteError> => {
    const compiled = steps[i];
    if (!compiled) return okAsync({ count: i, revenue });
    // A post of a ping goes to the bidder alone: the other recipients do not see it.
    if (run.auction && compiled.step.type === 'recipient' && compiled.step.id !== run.auction.stepId)
      return next(i + 1, revenue);
    const step: ResultAsync<StepResult, LeadrouteError> =
      compiled.step.type === 'filter' ? runFilter(run, compiled) : runRecipient(run, compiled);
    return step.andThen((result) =>
      result.stop !== undefined
        ? okAsync({ count: i + 1, stop: result.stop, revenue })
        : next(i + 1, revenue + (result.event.revenue ?? 0)),
    );
  };
  return next(0, 0);
}

function checkPingLimits(
  deps: IntakeDeps,
  limits: readonly PingLimit[],
  now: number,
): ResultAsync<boolean, LeadrouteError> {
  return limits.reduce<ResultAsync<boolean, LeadrouteError>>(
    (acc, limit) =>
      acc.andThen((reached) => {
        if (reached) return okAsync(true);
        const window = limitWindow(now, limit.duration, limit.duration_units, limit.time_zone);
        // The counter is its own record sharing the limit's ID.
        return deps.storage.counters
          .tryIncrement(`ping:${limit.id}:${window.start}`, limit.maximum, window.end)
          .map((counted) => !counted);
      }),
    okAsync(false),
  );
}

/**
 * The lead's work, its recording unit given up should the work throw rather than answer an error (a store or module
 * that throws): otherwise the unit's delivery event IDs stayed announced for good, and feedback naming one waited the
 * full `UNCOMMITTED_EVENT_WAIT_MS` (10 s) for a commit that never comes. The throw goes on to the caller.
 */
function givenUpOnThrow<T>(run: LeadRun, work: () => ResultAsync<T, LeadrouteError>): ResultAsync<T, LeadrouteError> {
  const giveUp = (e: unknown): never => {
    run.unit.abandon();
    throw e;
  };
  try {
    return new ResultAsync(Promise.resolve(work()).catch(giveUp));
  } catch (e) {
    return giveUp(e);
  }
}

export function createLeadsApi(deps: IntakeDeps): LeadsApi {
  return {
    submit(flowId, sourceId, body, options = {}) {
      return prepare(deps, flowId, sourceId, body, options.postingSecret).andThen(({ run, source }) =>
        givenUpOnThrow(run, () => {
          const sourceEventId = run.ids.next(run.submittedAt);
          const finish = (
            outcome: Outcome,
            reason: string,
            steps: number,
            revenue: number,
            extra: Partial<StoredEvent> = {},
          ) => {
            const price = source.pricing ? run.purchasePrice : revenue;
            const event = sourceEvent(run, source, sourceEventId, {
              type: 'source',
              outcome,
              reason,
              steps,
              price,
              ...(options.request ? { request: options.request } : {}),
              extra,
            });
            logStep(run, event);
            run.unit.add(event);
            // One unit: the lead, its step events, its source event, their rollups and its search document, stored
            // together or not at all.
            return mapAsync(
              run.unit.commit({
                id: run.leadId,
                account_id: run.account.id,
                flow_id: run.flow.id,
                flow_name: run.flow.name,
                source_id: run.source.id,
                source_name: run.source.name,
                submission_timestamp: isoTime(run.submittedAt),
                fields: run.raw,
                purchase_price: run.purchasePrice,
                latest_event_id: event.id,
                returned_at: null,
                expires_at: event.expires_at,
              }),
              (): IntakeResult =>
                answered(run, source, {
                  outcome: outcome === 'success' ? 'success' : 'failure',
                  ...(reason ? { reason } : {}),
                  lead: { id: run.leadId },
                  price,
                }),
            );
          };
          const rejected = rejection(run, source);
          if (rejected) return finish('failure', rejected, 0, 0);
          const pingId = run.raw.ping_id;
          const ofPing: ResultAsync<PostOfPing | undefined, LeadrouteError> =
            pingId === undefined ? okAsync(undefined) : resolvePing(run, source.source.entity_id, pingId);
          const check = source.source.duplicate_check ?? run.compiled.flow.duplicate_check;
          const lead = run.ctx.lead as Record<string, unknown>;
          return ofPing.andThen((post) => {
            if (post && !post.accepted) return finish('failure', post.reason, 0, 0);
            if (post) run.auction = { stepId: post.bid.step_id, price: post.bid.price };
            return checkDuplicate(deps.storage.counters, check, run.account.id, lead, run.submittedAt).andThen(
              (dup) => {
                if (check) run.ctx.duplicate = dup.duplicate;
                // A lead that is not accepted gives back what it claimed (its duplicate keys, its ping): it makes no later
                // lead a duplicate, and its ping can be posted again.
                const claimed = [...(post?.claimed ?? []), ...dup.claimed];
                const refuse = (reason: string, steps: number, revenue: number, extra: Partial<StoredEvent> = {}) =>
                  releaseCaps(deps.storage.counters, claimed).andThen(() =>
                    finish('failure', reason, steps, revenue, extra),
                  );
                if (dup.duplicate && check?.action === 'reject') return refuse(DUPLICATE_REASON, 0, 0);
                const reserved = reserveCaps(
                  deps.storage.counters,
                  `${run.flow.id}:source:${source.source.entity_id}`,
                  source.caps,
                  run.ctx,
                  run.env,
                ).andThen((reservation) => {
                  if (reservation.full)
                    return refuse(`Cap reached: ${reservation.full.cap.name}`, 0, 0, { cap_reached: true });
                  return runSteps(run).andThen((steps) =>
                    steps.stop !== undefined
                      ? releaseCaps(deps.storage.counters, reservation.keys).andThen(() =>
                          refuse(steps.stop as string, steps.count, steps.revenue),
                        )
                      : finish('success', '', steps.count, steps.revenue),
                  );
                });
                return orElseAsync(reserved, (e) => {
                  // A step failed before the lead could be recorded: nothing of it is stored, and no feedback waits on it;
                  // its duplicate keys go back too, so the source can send it again.
                  run.unit.abandon();
                  return releaseCaps(deps.storage.counters, claimed)
                    .orElse(() => okAsync(undefined))
                    .andThen(() => errAsync(e));
                });
              },
            );
          });
        }),
      );
    },

    ping(flowId, sourceId, body, options = {}) {
      return prepare(deps, flowId, sourceId, body, options.postingSecret).andThen(({ run, source }) => {
        const id = run.ids.next(run.submittedAt);
        const validity = run.compiled.flow.ping_validity_seconds ?? DEFAULT_PING_VALIDITY_SECONDS;
        const answer = (outcome: Outcome, reason: string, price: number, limited: boolean, bid?: Bid) => {
          const event = sourceEvent(run, source, id, {
            type: 'ping',
            outcome,
            reason,
            steps: 0,
            price,
            ...(options.request ? { request: options.request } : {}),
            ...(bid ? { bid } : {}),
            extra: { ping_limit_reached: limited },
          });
          return deps.recorder.record(event).map((): IntakeResult => {
            logStep(run, event);
            return answered(run, source, {
              outcome: outcome === 'success' ? 'success' : 'failure',
              ...(reason ? { reason } : {}),
              lead: { id: run.leadId },
              price,
              ...(bid ? { ping_id: run.leadId, expires_at: isoTime(run.submittedAt + validity * 1000) } : {}),
            });
          });
        };
        return checkPingLimits(deps, [...run.pingLimits.flow, ...run.pingLimits.source], run.submittedAt).andThen(
          (limited) => {
            if (limited) return answer('failure', 'Ping limit reached.', 0, true);
            const rejected = rejection(run, source);
            if (rejected) return answer('failure', rejected, 0, false);
            // Each recipient step that would take the lead bids its price, without delivering or reserving caps; a
            // filter that would stop the lead leaves the steps after it out. The highest bid wins (#24.5).
            const stop = run.compiled.steps.findIndex(
              (s) => s.step.type === 'filter' && (!s.rule || s.rule(run.ctx, run.env).pass),
            );
            const bids = run.compiled.steps
              .slice(0, stop === -1 ? undefined : stop)
              .filter((s) => s.step.type === 'recipient')
              .map((s): ResultAsync<Bid | undefined, LeadrouteError> => {
                const ctx = { ...run.ctx, recipient: { id: s.step.entity_id } };
                if (s.rule && !s.rule(ctx, run.env).pass) return okAsync(undefined);
                return capsFull(deps.storage.counters, `${run.flow.id}:${s.step.id}`, s.caps, ctx, run.env).map(
                  (full) =>
                    full
                      ? undefined
                      : {
                          step_id: s.step.id,
                          recipient_id: s.step.entity_id,
                          price: s.pricing?.price(ctx, run.env) ?? 0,
                        },
                );
              });
            return ResultAsync.combine(bids).andThen((offers) => {
              const bid = bestBid(offers);
              // A flow without recipient steps holds no auction: the ping prices the lead for the source alone.
              if (bids.length === 0) return answer('success', '', run.purchasePrice, false);
              if (!bid) return answer('failure', NO_BID, 0, false);
              return answer('success', '', source.pricing ? run.purchasePrice : bid.price, false, bid);
            });
          },
        );
      });
    },
  };
}
