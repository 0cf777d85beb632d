import { idempotentSubmit } from '../../flows/idempotency';
import type { RecordedRequest } from '../../ports/integrations';
import type { LeadService } from '../../service';
import { header } from '../headers';
import { json, JSON_OR_XML, negotiated } from '../reply';
import { schemaRef } from '../schemas';
import type { Route, RouteContext } from '../types';

const MAX_RECORDED_BODY = 64 * 1024;

/** The intake request as recorded on the source event (the parsed body, re-serialized and clipped). */
function recorded(c: RouteContext, now: number): RecordedRequest {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(c.request.headers)) {
    // Credentials never reach an event.
    if (value === undefined || name === 'authorization' || name === 'cookie') continue;
    headers[name] = typeof value === 'string' ? value : value.join(', ');
  }
  const body = c.body === undefined ? '' : JSON.stringify(c.body);
  return { method: c.request.method, url: c.request.url, version: '1.1', headers, body: body.slice(0, MAX_RECORDED_BODY), timestamp: now };
}

/** Flow configuration and lead intake. */
export function flowRoutes(service: LeadService): Route[] {
  const { flows, leads, clock } = service;
  const submitOnce = idempotentSubmit({ storage: service.storage, clock, logger: service.logger, submit: leads.submit });
  /** Submit with an Idempotency-Key: the first answer is stored and replayed to retries (flows/idempotency.ts). */
  const idempotent = (c: RouteContext, key: string) =>
    submitOnce(c.params.flow_id ?? '', c.params.source_id ?? '', c.body, key, { request: recorded(c, clock.now()) }).map((answer) => {
      const reply = negotiated(c.mediaType, answer.status, 'result')(answer.body);
      return answer.replayed ? { ...reply, headers: { 'idempotent-replayed': 'true' } } : reply;
    });
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
      ...(kind === 'submit'
        ? { errors: { 409: 'A request with the same Idempotency-Key is still in flight.', 422: 'The Idempotency-Key was used with a different body.' } }
        : {}),
    },
    handle: (c) => {
      const key = kind === 'submit' ? header(c.request, 'idempotency-key') : undefined;
      if (key !== undefined) return idempotent(c, key);
      const request = recorded(c, clock.now());
      return leads[kind](c.params.flow_id ?? '', c.params.source_id ?? '', c.body, { request }).map(negotiated(c.mediaType, 201, 'result'));
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
