import { errAsync, type ResultAsync } from 'neverthrow';
import { errors } from '../errors';
import { type FeedbackIntegrationRegistry, STANDARD_FEEDBACK_NAME } from './integrations';
import { deliveryByEventId, deliveryByRecordId, type FeedbackDeps } from './lookup';
import { checkedFeedback, processFeedback } from './process';
import type { FeedbackBody, RecipientFeedbackQuery } from '../schemas/feedback';
import type { FeedbackError, FeedbackResult, InboundFeedbackModule } from './types';

/** The `feedback` sub-API: what recipients report about delivered leads. */
export interface FeedbackApi {
  /**
   * Feedback for the delivery event `eventId` (POST and GET /feedback): 422 for a
   * malformed ID; one 404, alike for all, for an ID that names no live delivery
   * event (unknown, expired, a lead ID, a non-delivery event); 403/409 when the
   * step's feedback is not configured or switched off, 400 for a bad type. Only
   * processed feedback (ok, the spec's 201) shows the lead. The input is typed by its schema
   * (schemas/feedback.ts) and checked by it here, after the delivery is known.
   */
  submit(eventId: string | undefined, input: FeedbackBody): ResultAsync<FeedbackResult, FeedbackError>;
  /**
   * Feedback through the inbound integration `platform-<recipientName>.inbound.feedback`
   * (POST /feedback/{recipient_name}): the integration reads `body`, and the lead is
   * found by its recipient_record_id among delivered leads, only among deliveries
   * to the recipient entity `options.recipientId` when given. A record ID that
   * matches deliveries of more than one account, recipient or lead is refused
   * (404, nothing changed).
   */
  submitByRecipient(
    recipientName: string,
    body: unknown,
    options?: { readonly recipientId?: RecipientFeedbackQuery['recipient_id'] },
  ): ResultAsync<FeedbackResult, FeedbackError>;
  /** The installed inbound feedback integrations. */
  readonly integrations: FeedbackIntegrationRegistry;
}

/** The module ID recorded on feedback-received events of the event_id form. */
const EVENT_ID_FORM = `platform-${STANDARD_FEEDBACK_NAME}.inbound.feedback`;

export function createFeedbackApi(deps: FeedbackDeps): FeedbackApi {
  const integration = (name: string): InboundFeedbackModule | undefined => deps.integrations.get(name);
  return {
    submit(eventId, input) {
      const feedback = checkedFeedback(deps, input);
      if (feedback.isErr()) return errAsync(feedback.error);
      return deliveryByEventId(deps, eventId).andThen((delivery) =>
        processFeedback(deps, delivery, feedback.value, EVENT_ID_FORM),
      );
    },
    submitByRecipient(recipientName, body, options = {}) {
      const module = integration(recipientName);
      if (!module)
        return errAsync(
          errors.notFound('inbound feedback integration', `platform-${recipientName.slice(0, 64)}.inbound.feedback`),
        );
      let parsed: ReturnType<InboundFeedbackModule['parse']>;
      try {
        parsed = module.parse(body);
      } catch (e) {
        // A host module that throws is treated as one that cannot read the body, not as a crash.
        deps.logger.warn({ module: module.id, err: e }, 'inbound feedback module threw');
        return errAsync(errors.badRequest(`The ${module.id} integration cannot read the body.`));
      }
      if (parsed.isErr()) return errAsync(errors.badRequest(parsed.error));
      const { recipient_record_id, ...input } = parsed.value;
      const feedback = checkedFeedback(deps, input);
      if (feedback.isErr()) return errAsync(feedback.error);
      return deliveryByRecordId(deps, module, {
        recordId: recipient_record_id,
        recipientId: options.recipientId,
      }).andThen((delivery) => processFeedback(deps, delivery, feedback.value, module.id));
    },
    integrations: deps.integrations,
  };
}
