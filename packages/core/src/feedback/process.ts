import { errAsync, okAsync, type ResultAsync } from 'neverthrow';
import { errors, type LeadrouteError } from '../errors';
import type { StoredEvent } from '../domain/events';
import { newId } from '../ids';
import type { LeadRecord } from '../ports/leads';
import { compileRuleSet, type EvalEnv, type RuleOutcome, type RuleSet, typeLead } from '../rules';
import { feedbackEvent } from './events';
import { type ValidFeedback, validateFeedback } from './input';
import type { Delivery, FeedbackDeps } from './lookup';
import type { FeedbackError, FeedbackInput, FeedbackResult, LeadSummary } from './types';

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

/**
 * Forwards successful feedback to the lead's source when the flow's source has
 * feedback enabled: a feedback-sent event, success when the source's feedback
 * rule set passes. Undefined when nothing is forwarded.
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
  const verdict = evaluate(source.feedback.rule_set, ctx, env);
  const event = feedbackEvent(delivery, {
    id: newId(start),
    type: 'feedback-sent',
    outcome: verdict.pass ? 'success' : 'failure',
    reason: verdict.pass ? '' : (verdict.reason ?? 'Source feedback criteria not met.'),
    feedback,
    start,
    end: deps.clock.now(),
    host: deps.host,
    extraVars: { forwarded_to: { id: source.entity_id } },
  });
  return deps.recorder.record(event).map(() => event);
}

/**
 * Processes feedback for a known delivery: 403 when the delivering step has no
 * feedback configuration, 409 when it is switched off, 400 for a bad type or
 * reason; otherwise a feedback-received event (success, or failure when the
 * step's feedback rule set fails or a return repeats one) and the result.
 * Every error carries the feedback result that explains it, without the lead.
 * @param moduleId the inbound integration that read the feedback, recorded on the event.
 */
export function processFeedback(
  deps: FeedbackDeps,
  delivery: Delivery,
  input: FeedbackInput,
  moduleId: string,
): ResultAsync<FeedbackResult, FeedbackError> {
  const received = deps.clock.now();
  const { lead, flow, event } = delivery;
  const summary = leadSummary(lead);
  const price = lead.purchase_price;
  // A refused call shows nothing of the lead, not even its price (issue #18.1): only a processed result (the spec's
  // 201) carries it.
  const explained = (error: LeadrouteError, outcome: 'failure' | 'error'): FeedbackError => ({
    ...error,
    result: { outcome, reason: error.message, price: 0 },
  });

  const step = flow?.steps.find((s) => s.id === event.step_id);
  if (!flow || !step?.feedback)
    return errAsync(explained(errors.forbidden('Feedback is not configured on the delivering step.'), 'failure'));
  if (!step.feedback.enabled)
    return errAsync(explained(errors.conflict('Feedback is switched off on the delivering step.'), 'failure'));
  const valid = validateFeedback(input, received);
  if (valid.isErr()) return errAsync(explained(errors.badRequest(valid.error), 'error'));
  const feedback = valid.value;

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
    return deps.recorder
      .record(receivedEvent)
      .andThen(() => (outcome === 'success' ? forward(deps, delivery, feedback, ctx, env) : okAsync(undefined)))
      .andThen((sent) => deps.storage.leads.setLatestEvent(lead.id, (sent ?? receivedEvent).id))
      .map((): FeedbackResult => ({ outcome, ...(reason ? { reason } : {}), price, lead: summary }));
  });
}
