import { errAsync } from 'neverthrow';
import { errors, type LeadrouteError } from '../../errors';
import type { FeedbackError, FeedbackResult, InboundFeedbackModule } from '../../feedback';
import type { LeadService } from '../../service';
import { isRecord } from '../../validation';
import { header } from '../headers';
import { JSON_OR_XML, negotiated } from '../reply';
import { schemaRef } from '../schemas';
import {
  type FeedbackBody,
  FeedbackEventQuery,
  FeedbackQueryParams,
  RecipientFeedbackQuery,
} from '../../schemas/feedback';
import { problemOf, statusOf } from '../status';
import type { Reply, Route, RouteDoc, RouteErrorContext } from '../types';
import { mapAsync } from '../../results';

const PLAIN_TEXT = 'text/plain; charset=utf-8';

const ERRORS = {
  400: 'type missing or not conversion/return (a feedback result, outcome error), or a body that cannot be parsed (plain text).',
  403: 'Feedback is not configured on the delivering step.',
  404:
    'No live delivery event for event_id: unknown, more than 90 days old, or not a delivery event (a lead ID, a source event). All are answered alike, ' +
    'with no ID echoed, so an ID cannot be classified; the spec answers the wrong kind with 422 (SECURITY.md, issue #18.1).',
  406: 'Accept asks for a format that cannot be produced, or Content-Type names an unsupported type.',
  409: 'Feedback is configured but switched off.',
  413: 'Body larger than 10 MB.',
  415: 'Body present without Content-Type, or with a charset that cannot be decoded.',
  422: 'event_id is missing or not a 24-hex ID. (Departs from the spec: the wrong kind of ID is the 404 above.)',
};
const RESULT = schemaRef('FeedbackResult');
const BY_EVENT: RouteDoc = {
  status: 201,
  query: FeedbackEventQuery,
  body: schemaRef('FeedbackBody'),
  response: RESULT,
  errors: ERRORS,
};
const BY_QUERY: RouteDoc = {
  status: 201,
  query: FeedbackQueryParams,
  response: RESULT,
  errors: {
    400: 'type missing or not conversion/return (a feedback result, outcome error).',
    403: ERRORS[403],
    404: ERRORS[404],
    406: 'Accept asks for a format that cannot be produced.',
    409: ERRORS[409],
    422: ERRORS[422],
  },
};
const BY_RECIPIENT: RouteDoc = {
  status: 201,
  query: RecipientFeedbackQuery,
  body: schemaRef('RecipientFeedbackBody'),
  response: RESULT,
  errors: {
    ...ERRORS,
    400: 'type missing or invalid (a feedback result), or the integration cannot parse the body.',
    403: 'Feedback is not configured on the delivering step (body produced by the integration).',
    404:
      'No such inbound feedback integration; or no recipient_record_id, or no delivered lead matches it, or it matches deliveries of more than one ' +
      'account, recipient or lead and nothing was changed (a feedback result, outcome failure).',
    422: 'recipient_id is not a 24-hex ID.',
  },
};

/** A feedback result in the negotiated type (root `result` in XML), or as the integration renders it. */
function resultReply(
  status: number,
  result: FeedbackResult,
  mediaType: string | undefined,
  module?: InboundFeedbackModule,
): Reply {
  const rendered = module?.render?.(status, result);
  if (rendered) return { status, text: rendered.body, contentType: rendered.contentType };
  return negotiated(mediaType ?? 'application/json', status, 'result')(result);
}

/**
 * The statuses and bodies the spec fixes for feedback: a body that cannot be
 * parsed is a plain-text 400; a Content-Type naming an unsupported type is 406
 * (a body without one stays 415); errors that carry a feedback result answer
 * with it when `withResult` says so. Everything else keeps the generic problem.
 */
function feedbackErrors(
  withResult: (error: LeadrouteError) => boolean,
  module?: (ctx: RouteErrorContext) => InboundFeedbackModule | undefined,
) {
  return (error: LeadrouteError, ctx: RouteErrorContext): Reply | undefined => {
    const result = (error as FeedbackError).result;
    if (result && withResult(error)) return resultReply(statusOf(error), result, ctx.mediaType, module?.(ctx));
    if (error.type === 'BadRequest') return { status: 400, text: error.message, contentType: PLAIN_TEXT };
    // An unreadable charset stays 415: the type is one the spec lists, its bytes are what cannot be read.
    if (
      error.type === 'UnsupportedMediaType' &&
      error.charset === undefined &&
      (header(ctx.request, 'content-type') ?? '').trim() !== ''
    ) {
      const problem = problemOf(errors.notAcceptable(error.message));
      return {
        status: problem.status,
        json: problem,
        headers: { 'content-type': 'application/problem+json; charset=utf-8' },
      };
    }
    return undefined;
  };
}

/**
 * Feedback from recipients: by delivery event ID (POST and GET /feedback) and through inbound integrations. No API key:
 * the ID authorizes.
 */
export function feedbackRoutes(service: LeadService): Route[] {
  const { feedback } = service;
  // By event ID only a bad type answers with a feedback result; other errors are problems.
  const byEventId = feedbackErrors((e) => e.type === 'BadRequest');
  const recipientModule = (ctx: RouteErrorContext) => feedback.integrations.get(ctx.params.recipient_name ?? '');
  return [
    {
      method: 'POST',
      path: '/feedback',
      auth: 'none',
      readsBody: true,
      produces: JSON_OR_XML,
      summary: 'Report a conversion or return for the delivery event event_id',
      doc: BY_EVENT,
      mapError: byEventId,
      handle: (c) =>
        mapAsync(
          feedback.submit(c.query.get('event_id') ?? undefined, (isRecord(c.body) ? c.body : {}) as FeedbackBody),
          negotiated(c.mediaType, 201, 'result'),
        ),
    },
    {
      method: 'GET',
      path: '/feedback',
      auth: 'none',
      produces: JSON_OR_XML,
      summary: 'Report feedback in query parameters, for senders that cannot send a body',
      doc: BY_QUERY,
      mapError: byEventId,
      handle: (c) =>
        feedback
          .submit(c.query.get('event_id') ?? undefined, {
            type: c.query.get('type') ?? undefined,
            reason: c.query.get('reason') ?? undefined,
            occurred_at: c.query.get('occurred_at') ?? undefined,
          } as FeedbackBody)
          .map(negotiated(c.mediaType, 201, 'result')),
    },
    {
      method: 'POST',
      path: '/feedback/:recipient_name',
      auth: 'none',
      readsBody: true,
      produces: JSON_OR_XML,
      summary: 'Report feedback through an inbound feedback integration, by recipient_record_id (and recipient_id)',
      doc: BY_RECIPIENT,
      // Every result-bearing error answers with the result: the integration produces these bodies.
      mapError: feedbackErrors(() => true, recipientModule),
      handle: (c) => {
        const name = c.params.recipient_name ?? '';
        const module = feedback.integrations.get(name);
        if (!module)
          return errAsync(
            errors.notFound('inbound feedback integration', `platform-${name.slice(0, 64)}.inbound.feedback`),
          );
        const recipientId = c.query.get('recipient_id') ?? undefined;
        return feedback
          .submitByRecipient(name, c.body, { recipientId })
          .map((result) => resultReply(201, result, c.mediaType, module));
      },
    },
  ];
}
