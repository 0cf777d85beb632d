import { errAsync, okAsync, type Result, ResultAsync } from 'neverthrow';
import { errors, type LeadrouteError } from '../errors';
import type { StoredEvent } from '../domain/events';
import type { FeedbackForwarding } from '../domain/flows';
import type { Transaction } from '../domain/transactions';
import { deliverWithin, noAnswer } from '../flows/deliver';
import type { DeliveryResult } from '../ports/integrations';
import { newId } from '../ids';
import type { LeadRecord } from '../ports/leads';
import { compileRuleSet, type EvalEnv, type RuleOutcome, type RuleSet, typeLead } from '../rules';
import { feedbackEvent } from './events';
import { type ValidFeedback, validateFeedback } from './input';
import type { Delivery, FeedbackDeps } from './lookup';
import type { FeedbackError, FeedbackInput, FeedbackResult, LeadSummary } from './types';
import { mapAsync } from '../results';

const PASS: RuleOutcome = { pass: true };

const asText = (value: unknown): string =>
  typeof value === 'string' ? value : typeof value === 'number' && Number.isFinite(value) ? String(value) : '';

/** The lead as a feedback result shows it. */
export function leadSummary(lead: LeadRecord): LeadSummary {
  const f = lead.fields;
  return {
    id: lead.id,
    first_name: asText(f.first_name),
    last_name: asText(f.last_name),
    email: asText(f.email),
    phone_1: asText(f.phone_1),
  };
}

/** The rule context is built only when there is a rule set to evaluate (typing the lead is most of the cost). */
type LazyContext = () => Record<string, unknown>;

function evaluate(ruleSet: RuleSet | undefined, ctx: LazyContext, env: EvalEnv): RuleOutcome {
  return ruleSet ? compileRuleSet(ruleSet)(ctx(), env) : PASS;
}

/** Pause before the first retry of a forwarded feedback; each further retry waits twice as long. */
export const FORWARD_RETRY_MS = 200;

/**
 * Delivers feedback to the source's endpoint through its outbound module: the lead ID, the
 * flow, the feedback and the lead's fields as the source sent them. A connection error (no
 * answer at all) is tried again, `retries` times with doubling pauses; an answer, whatever it
 * says, is final.
 */
async function send(
  deps: FeedbackDeps,
  to: FeedbackForwarding,
  delivery: Delivery,
  feedback: ValidFeedback,
  eventId: string,
): Promise<DeliveryResult> {
  const { lead } = delivery;
  const body = {
    ...lead.fields,
    lead_id: lead.id,
    flow_id: lead.flow_id,
    type: feedback.type,
    reason: feedback.reason,
    occurred_at: feedback.occurred_at,
    event_id: eventId,
  };
  const transactions: Transaction[] = [];
  const retries = to.retries ?? 2;
  for (let attempt = 0; ; attempt++) {
    const result = await deliverWithin(
      deps.outbound?.(to.module_id),
      to.module_id,
      { lead: body, config: to.config, lead_id: lead.id, event_id: eventId },
      to.timeout_ms ?? 10_000,
      { logger: deps.logger, context: { forwarded_to: delivery.event.source_id } },
    );
    transactions.push(...(result.transactions ?? []));
    if (attempt >= retries || !noAnswer(result)) return { ...result, transactions };
    await new Promise((resolve) => setTimeout(resolve, FORWARD_RETRY_MS * 2 ** attempt));
  }
}

/**
 * Forwards successful feedback to the lead's source when the flow's source has
 * feedback enabled: a feedback-sent event, failure when the source's feedback
 * rule set fails; with `forward_to`, delivered to the source's endpoint and its
 * outcome what the endpoint answered. Undefined when nothing is forwarded.
 */
function forward(
  deps: FeedbackDeps,
  delivery: Delivery,
  feedback: ValidFeedback,
  ctx: LazyContext,
  env: EvalEnv,
): ResultAsync<StoredEvent | undefined, LeadrouteError> {
  const source = delivery.flow?.sources.find((s) => s.entity_id === delivery.event.source_id);
  if (!source?.feedback?.enabled) return okAsync(undefined);
  const start = deps.clock.now();
  const id = newId(start);
  const verdict = evaluate(source.feedback.rule_set, ctx, env);
  const to = source.feedback.forward_to;
  const sent: ResultAsync<DeliveryResult | undefined, LeadrouteError> =
    verdict.pass && to ? ResultAsync.fromSafePromise(send(deps, to, delivery, feedback, id)) : okAsync(undefined);
  return sent.andThen((result) => {
    const outcome = !verdict.pass
      ? 'failure'
      : result
        ? result.outcome === 'skip'
          ? 'failure'
          : result.outcome
        : 'success';
    const event = feedbackEvent(delivery, {
      id,
      type: 'feedback-sent',
      outcome,
      reason: verdict.pass ? (result?.reason ?? '') : (verdict.reason ?? 'Source feedback criteria not met.'),
      feedback,
      start,
      end: deps.clock.now(),
      host: deps.host,
      ...(to ? { moduleId: to.module_id } : {}),
      ...(result?.transactions ? { transactions: result.transactions } : {}),
      extraVars: { forwarded_to: { id: source.entity_id } },
    });
    return deps.recorder.record(event).map(() => event);
  });
}

/** An error with the feedback result that explains it, without the lead. */
const explained = (error: LeadrouteError, outcome: 'failure' | 'error'): FeedbackError => ({
  ...error,
  result: { outcome, reason: error.message, price: 0 },
});

/**
 * The feedback checked, before its delivery is looked up: a bad type or reason is answered 400 whether or not the
 * event exists, so it cannot tell a caller which event IDs are real (answered after the look-up, a real ID got 400 and
 * an unknown one 404, and neither is a failed look-up the throttle counts).
 */
export function checkedFeedback(deps: FeedbackDeps, input: FeedbackInput): Result<ValidFeedback, FeedbackError> {
  return validateFeedback(input, deps.clock.now()).mapErr((message) => explained(errors.badRequest(message), 'error'));
}

/**
 * Processes checked feedback ({@link checkedFeedback}) for a known delivery: 403 when the delivering step has no
 * feedback configuration, 409 when it is switched off; otherwise a feedback-received event (success, or failure when
 * the step's feedback rule set fails or a return repeats one) and the result.
 * Every error carries the feedback result that explains it, without the lead.
 * @param moduleId the inbound integration that read the feedback, recorded on the event.
 */
export function processFeedback(
  deps: FeedbackDeps,
  delivery: Delivery,
  feedback: ValidFeedback,
  moduleId: string,
): ResultAsync<FeedbackResult, FeedbackError> {
  const received = deps.clock.now();
  const { lead, flow, event } = delivery;
  const summary = leadSummary(lead);
  const price = lead.purchase_price;
  // A refused call shows nothing of the lead, not even its price (issue #18.1): only a processed result (the spec's
  // 201) carries it.
  const step = flow?.steps.find((s) => s.id === event.step_id);
  if (!flow || !step?.feedback)
    return errAsync(explained(errors.forbidden('Feedback is not configured on the delivering step.'), 'failure'));
  if (!step.feedback.enabled)
    return errAsync(explained(errors.conflict('Feedback is switched off on the delivering step.'), 'failure'));

  const env: EvalEnv = { now: received, timeZone: delivery.account.time_zone };
  let built: Record<string, unknown> | undefined;
  const ctx: LazyContext = () =>
    (built ??= {
      ...event.vars,
      lead: typeLead(lead.fields, flow.fields, env),
      feedback: { type: feedback.type, reason: feedback.reason, occurred_at: feedback.occurred_at },
    });
  const verdict = evaluate(step.feedback.rule_set, ctx, env);
  const decided: ResultAsync<{ outcome: 'success' | 'failure'; reason: string }, LeadrouteError> = !verdict.pass
    ? okAsync({ outcome: 'failure', reason: verdict.reason ?? 'Feedback criteria not met.' })
    : feedback.type === 'return'
      ? // Atomic in every store: of concurrent returns for one lead exactly one succeeds.
        deps.storage.leads
          .markReturned(lead.id, feedback.occurred_at)
          .map((first) =>
            first
              ? { outcome: 'success', reason: '' }
              : { outcome: 'failure', reason: 'The lead has already been returned.' },
          )
      : okAsync({ outcome: 'success', reason: '' });

  return decided.andThen(({ outcome, reason }) => {
    const receivedEvent = feedbackEvent(delivery, {
      id: newId(received),
      type: 'feedback-received',
      outcome,
      reason,
      feedback,
      start: received,
      end: deps.clock.now(),
      host: deps.host,
      moduleId,
    });
    const recorded = deps.recorder
      .record(receivedEvent)
      .andThen(() => (outcome === 'success' ? forward(deps, delivery, feedback, ctx, env) : okAsync(undefined)))
      .andThen((sent) => deps.storage.leads.setLatestEvent(lead.id, (sent ?? receivedEvent).id));
    return mapAsync(recorded, (): FeedbackResult => ({ outcome, ...(reason ? { reason } : {}), price, lead: summary }));
  });
}
