import type { RecordedRequest } from '../../ports/integrations';
import type { LeadService } from '../../service';
import { POSTING_SECRET_HEADER, presentedPostingSecret } from '../auth';
import { json, JSON_OR_XML, negotiated } from '../reply';
import { schemaRef } from '../schemas';
import type { Route, RouteContext } from '../types';

const MAX_RECORDED_BODY = 64 * 1024;

/** The intake request as recorded on the source event (the parsed body, re-serialized and clipped). */
function recorded(c: RouteContext, now: number): RecordedRequest {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(c.request.headers)) {
    // Credentials never reach an event.
    const lower = name.toLowerCase();
    if (value === undefined || lower === 'authorization' || lower === 'cookie' || lower === POSTING_SECRET_HEADER) continue;
    headers[name] = typeof value === 'string' ? value : value.join(', ');
  }
  const body = c.body === undefined ? '' : JSON.stringify(c.body);
  return { method: c.request.method, url: c.request.url, version: '1.1', headers, body: body.slice(0, MAX_RECORDED_BODY), timestamp: now };
}

/** Flow configuration and lead intake. */
export function flowRoutes(service: LeadService): Route[] {
  const { flows, leads, clock } = service;
  const intake = (kind: 'submit' | 'ping'): Route => ({
    method: 'POST',
    path: `/flows/:flow_id/sources/:source_id/${kind}`,
    // The posting URL authorizes intake, as vendors post without API keys.
    auth: 'none',
    readsBody: true,
    produces: JSON_OR_XML,
    summary: kind === 'submit' ? 'Submit a lead to a flow from a source' : 'Ping: price a lead without delivering it',
    doc: {
      body: { type: 'object', description: 'Lead fields.' },
      response: schemaRef('IntakeResult'),
      errors: {
        401: 'The source requires its posting secret (X-Posting-Secret header or HTTP Basic password) and it is missing or wrong.',
        404: 'No such posting URL: the same answer for an unknown flow, another account\'s flow and a source not on the flow.',
        422: 'The lead is not an object of fields.',
      },
    },
    handle: (c) => {
      const postingSecret = presentedPostingSecret(c.request);
      const options = { request: recorded(c, clock.now()), ...(postingSecret === undefined ? {} : { postingSecret }) };
      return leads[kind](c.params.flow_id ?? '', c.params.source_id ?? '', c.body, options).map(negotiated(c.mediaType, 201, 'result'));
    },
  });
  return [
    { method: 'GET', path: '/flows', auth: 'key', summary: "List the account's flows", doc: { response: { type: 'array', items: schemaRef('Flow') } }, handle: (c) => flows.list(c.principal).map(json(200)) },
    { method: 'POST', path: '/flows', auth: 'key', readsBody: true, summary: 'Create a flow', doc: { body: schemaRef('FlowInput'), response: schemaRef('Flow') }, handle: (c) => flows.create(c.principal, c.body).map(json(201)) },
    { method: 'GET', path: '/flows/:id', auth: 'key', summary: 'Get a flow', doc: { response: schemaRef('Flow') }, handle: (c) => flows.get(c.principal, c.params.id ?? '').map(json(200)) },
    { method: 'PUT', path: '/flows/:id', auth: 'key', readsBody: true, summary: "Replace a flow's configuration", doc: { body: schemaRef('FlowInput'), response: schemaRef('Flow'), errors: { 409: 'The flow changed since it was read.' } }, handle: (c) => flows.update(c.principal, c.params.id ?? '', c.body).map(json(200)) },
    intake('submit'),
    intake('ping'),
  ];
}
