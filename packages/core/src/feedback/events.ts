import {
  EVENT_RETENTION_MS,
  EVENT_SCHEMA_VERSION,
  HANDLER_VERSION,
  type Outcome,
  type StoredEvent,
} from '../domain/events';
import { timings } from '../flows/context';
import type { Transaction } from '../domain/transactions';
import type { Id } from '../ids';
import { isoTime } from '../time';
import type { ValidFeedback } from './input';
import type { Delivery } from './lookup';

/** One feedback event to record: received from the recipient, or sent on to the source. */
export interface FeedbackEventInput {
  readonly id: Id;
  readonly type: 'feedback-received' | 'feedback-sent';
  readonly outcome: Outcome;
  readonly reason: string;
  readonly feedback: ValidFeedback;
  readonly start: number;
  readonly end: number;
  readonly host: string;
  /** The inbound integration that read it (received events). */
  readonly moduleId?: string;
  readonly extraVars?: Readonly<Record<string, unknown>>;
  /** Feedback sent: each request made to the source's endpoint and its answer. */
  readonly transactions?: readonly Transaction[];
}

/**
 * A feedback event for a delivery. It carries what statistics count by: type,
 * outcome, `feedback.type` and `feedback.reason` (the stage of a conversion),
 * the flow, source, recipient and step of the delivery, and its revenue and
 * purchase price.
 */
export function feedbackEvent(delivery: Delivery, input: FeedbackEventInput): StoredEvent {
  const { event, lead, flow } = delivery;
  const submittedAt = Date.parse(lead.submission_timestamp);
  const feedback = {
    type: input.feedback.type,
    reason: input.feedback.reason,
    occurred_at: input.feedback.occurred_at,
  };
  return {
    id: input.id,
    account_id: event.account_id,
    type: input.type,
    outcome: input.outcome,
    reason: input.reason,
    vars: {
      ...event.vars,
      feedback,
      event_id: input.id,
      delivery_event_id: event.id,
      // The warning belongs to the received event (spec), not to what is sent on.
      ...(input.feedback.warning && input.type === 'feedback-received'
        ? { occurred_at_warning: input.feedback.warning }
        : {}),
      // A reason over 1,000 characters was kept cut (#19.11): how long it was as received.
      ...(input.feedback.reasonCutFrom !== undefined && input.type === 'feedback-received'
        ? { reason_truncated_from: input.feedback.reasonCutFrom }
        : {}),
      ...input.extraVars,
    },
    host: input.host,
    ...timings({ submittedAt: Number.isNaN(submittedAt) ? input.start : submittedAt }, input.start, input.end, 0),
    ...(flow?.firehose ? { firehose: flow.firehose } : {}),
    handler_version: HANDLER_VERSION,
    version: EVENT_SCHEMA_VERSION,
    cap_reached: false,
    ping_limit_reached: false,
    expires_at: isoTime(input.start + EVENT_RETENTION_MS),
    lead_id: event.lead_id,
    flow_id: event.flow_id,
    source_id: event.source_id,
    recipient_id: event.recipient_id,
    ...(event.step_id === undefined ? {} : { step_id: event.step_id }),
    ...(input.moduleId ? { module_id: input.moduleId } : {}),
    revenue: event.revenue ?? 0,
    purchase_price: event.purchase_price ?? lead.purchase_price,
    feedback: { ...feedback, event_id: event.id },
    ...(input.transactions ? { transactions: input.transactions } : {}),
  };
}
