import { errAsync } from 'neverthrow';
import { errors, type LeadrouteError } from '../../errors';
import type { FeedbackError, FeedbackResult, InboundFeedbackModule } from '../../feedback';
import type { LeadService } from '../../service';
import { isRecord } from '../../validation';
import { header } from '../headers';
import { JSON_OR_XML, negotiated } from '../reply';
import { problemOf, statusOf } from '../status';
import type { Reply, Route, RouteErrorContext } from '../types';

const PLAIN_TEXT = 'text/plain; charset=utf-8';

/** A feedback result in the negotiated type (root `result` in XML), or as the integration renders it. */
function resultReply(status: number, result: FeedbackResult, mediaType: string | undefined, module?: InboundFeedbackModule): Reply {
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
function feedbackErrors(withResult: (error: LeadrouteError) => boolean, module?: (ctx: RouteErrorContext) => InboundFeedbackModule | undefined) {
  return (error: LeadrouteError, ctx: RouteErrorContext): Reply | undefined => {
    const result = (error as FeedbackError).result;
    if (result && withResult(error)) return resultReply(statusOf(error), result, ctx.mediaType, module?.(ctx));
    if (error.type === 'BadRequest') return { status: 400, text: error.message, contentType: PLAIN_TEXT };
    if (error.type === 'UnsupportedMediaType' && (header(ctx.request, 'content-type') ?? '').trim() !== '') {
      const problem = problemOf(errors.notAcceptable(error.message));
      return { status: problem.status, json: problem, headers: { 'content-type': 'application/problem+json; charset=utf-8' } };
    }
    return undefined;
  };
}

/** Feedback from recipients: by delivery event ID (POST and GET /feedback) and through inbound integrations. No API key: the ID authorizes. */
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
      mapError: byEventId,
      handle: (c) => feedback.submit(c.query.get('event_id') ?? undefined, isRecord(c.body) ? c.body : {}).map(negotiated(c.mediaType, 201, 'result')),
    },
    {
      method: 'GET',
      path: '/feedback',
      auth: 'none',
      produces: JSON_OR_XML,
      summary: 'Report feedback in query parameters, for senders that cannot send a body',
      mapError: byEventId,
      handle: (c) =>
        feedback
          .submit(c.query.get('event_id') ?? undefined, { type: c.query.get('type') ?? undefined, reason: c.query.get('reason') ?? undefined, occurred_at: c.query.get('occurred_at') ?? undefined })
          .map(negotiated(c.mediaType, 201, 'result')),
    },
    {
      method: 'POST',
      path: '/feedback/:recipient_name',
      auth: 'none',
      readsBody: true,
      produces: JSON_OR_XML,
      summary: 'Report feedback through an inbound feedback integration, by recipient_record_id',
      // Every result-bearing error answers with the result: the integration produces these bodies.
      mapError: feedbackErrors(() => true, recipientModule),
      handle: (c) => {
        const name = c.params.recipient_name ?? '';
        const module = feedback.integrations.get(name);
        if (!module) return errAsync(errors.notFound('inbound feedback integration', `platform-${name.slice(0, 64)}.inbound.feedback`));
        return feedback.submitByRecipient(name, c.body).map((result) => resultReply(201, result, c.mediaType, module));
      },
    },
  ];
}
