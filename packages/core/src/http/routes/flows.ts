import type { TypedFlow, TypedFlowUpdate } from '../../flows/builder';
import { idempotentSubmit } from '../../flows/idempotency';
import type { IntakeOptions } from '../../flows/intake';
import type { Flow } from '../../domain/flows';
import type { RecordedRequest } from '../../ports/integrations';
import type { LeadService } from '../../service';
import { POSTING_SECRET_HEADER, presentedPostingSecret } from '../auth';
import { header } from '../headers';
import { json, JSON_XML_OR_FORM, negotiated } from '../reply';
import { isRecord } from '../../validation';
import { schemaRef } from '../schemas';
import { entityTag, writeConditions } from '../preconditions';
import type { Reply, Route, RouteContext } from '../types';
import { mapAsync } from '../../results';

const MAX_RECORDED_BODY = 64 * 1024;

/** The intake request as recorded on the source event (the parsed body, re-serialized and clipped). */
function recorded(c: RouteContext, now: number): RecordedRequest {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(c.request.headers)) {
    // Credentials never reach an event.
    const lower = name.toLowerCase();
    if (value === undefined || lower === 'authorization' || lower === 'cookie' || lower === POSTING_SECRET_HEADER)
      continue;
    headers[name] = typeof value === 'string' ? value : value.join(', ');
  }
  const body = c.body === undefined ? '' : JSON.stringify(c.body);
  return {
    method: c.request.method,
    url: c.request.url,
    version: '1.1',
    headers,
    body: body.slice(0, MAX_RECORDED_BODY),
    timestamp: now,
  };
}

/** A flow answer with its version as a strong ETag, for `If-Match` on the next write. */
const versioned =
  (status: number) =>
  (flow: Flow): Reply => ({ status, json: flow, headers: { etag: entityTag(flow.version) } });

/**
 * What a source is answered: the answer its `response_template` makes (#24.4), else the result
 * without that field. Replays of an Idempotency-Key read the stored result the same way.
 */
function sourceAnswer(result: unknown): unknown {
  if (!isRecord(result)) return result;
  const { answer, ...rest } = result;
  return isRecord(answer) ? answer : rest;
}

/** Flow configuration and lead intake. */
export function flowRoutes(service: LeadService): Route[] {
  const { flows, leads, clock } = service;
  const submitOnce = idempotentSubmit({
    storage: service.storage,
    clock,
    logger: service.logger,
    submit: leads.submit,
  });
  /** Submit with an Idempotency-Key: the first answer is stored and replayed to retries (flows/idempotency.ts). */
  const idempotent = (c: RouteContext, key: string, options: IntakeOptions) =>
    submitOnce(c.params.flow_id ?? '', c.params.source_id ?? '', c.body, key, options).map((answer) => {
      const reply = negotiated(c.mediaType, answer.status, 'result')(sourceAnswer(answer.body));
      return answer.replayed ? { ...reply, headers: { 'idempotent-replayed': 'true' } } : reply;
    });
  const intake = (kind: 'submit' | 'ping'): Route => ({
    method: 'POST',
    path: `/flows/:flow_id/sources/:source_id/${kind}`,
    // The posting URL authorizes intake, as vendors post without API keys.
    auth: 'none',
    readsBody: true,
    // The body is the lead: more fields than a lead may have are refused while it is read, not copied first.
    bodyLimits: { fields: service.leadLimits.fields },
    produces: JSON_XML_OR_FORM,
    summary: kind === 'submit' ? 'Submit a lead to a flow from a source' : 'Ping: price a lead without delivering it',
    doc: {
      body: schemaRef('LeadBody'),
      response: schemaRef('IntakeResult'),
      errors: {
        401: 'The source requires its posting secret (X-Posting-Secret header or HTTP Basic password) and it is missing or wrong.',
        404: "No such posting URL: the same answer for an unknown flow, another account's flow and a source not on the flow.",
        ...(kind === 'submit'
          ? {
              409: 'A request with the same Idempotency-Key is still in flight.',
              422: 'The lead is not an object of fields, or the Idempotency-Key was used with a different body.',
            }
          : { 422: 'The lead is not an object of fields.' }),
      },
    },
    handle: (c) => {
      const postingSecret = presentedPostingSecret(c.request);
      const options = { request: recorded(c, clock.now()), ...(postingSecret === undefined ? {} : { postingSecret }) };
      const key = kind === 'submit' ? header(c.request, 'idempotency-key') : undefined;
      if (key !== undefined) return idempotent(c, key, options);
      const answer = negotiated(c.mediaType, 201, 'result');
      return mapAsync(leads[kind](c.params.flow_id ?? '', c.params.source_id ?? '', c.body, options), (result) =>
        answer(sourceAnswer(result)),
      );
    },
  });
  return [
    {
      method: 'GET',
      path: '/flows',
      auth: 'key',
      summary: "List the account's flows",
      doc: { response: { type: 'array', items: schemaRef('Flow') } },
      handle: (c) => flows.list(c.principal).map(json(200)),
    },
    {
      method: 'POST',
      path: '/flows',
      auth: 'key',
      readsBody: true,
      summary: 'Create a flow',
      doc: { body: schemaRef('FlowInput'), response: schemaRef('Flow') },
      // Cast only to be handed on: the flow service validates the body.
      handle: (c) => flows.create(c.principal, c.body as TypedFlow).map(versioned(201)),
    },
    {
      method: 'GET',
      path: '/flows/:id',
      auth: 'key',
      summary: 'Get a flow (ETag: its version)',
      doc: { response: schemaRef('Flow') },
      handle: (c) => flows.get(c.principal, c.params.id ?? '').map(versioned(200)),
    },
    {
      method: 'PUT',
      path: '/flows/:id',
      auth: 'key',
      readsBody: true,
      summary: "Replace a flow's configuration (optimistic concurrency: If-Match or a body version)",
      doc: {
        body: schemaRef('FlowUpdateBody'),
        response: schemaRef('Flow'),
        errors: {
          409: 'The body names a version other than the current one, or another write got in first; the problem carries current_version.',
          412: 'If-Match names none of the current version; the problem carries current_version.',
        },
      },
      handle: (c) =>
        flows
          .update(c.principal, c.params.id ?? '', c.body as TypedFlowUpdate, writeConditions(c.request))
          .map(versioned(200)),
    },
    intake('submit'),
    intake('ping'),
  ];
}
