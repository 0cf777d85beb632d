import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeliveryRequest } from '../ports/integrations';
import { customJsonModule, EVENT_ID_HEADER } from './custom-json';

// The built-in JSON delivery against a local recipient that answers what each test
// queues, and records what it received.
let server: Server;
let url: string;
let answer: { status: number; body: string } = { status: 200, body: '{}' };
const received: { headers: IncomingHttpHeaders; body: string }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (c: string) => void (body += c));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/leads`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

const EVENT = '6543210fedcba9876543210f';
const deliver = (config: Record<string, unknown> = {}, lead: Record<string, unknown> = { first_name: 'Ada' }) => {
  const request: DeliveryRequest = {
    lead,
    config: { url, ...config },
    lead_id: 'a'.repeat(24),
    event_id: EVENT,
    signal: new AbortController().signal,
  };
  return customJsonModule().deliver(request);
};
const answering = (status: number, body: unknown) => {
  answer = { status, body: typeof body === 'string' ? body : JSON.stringify(body) };
};

describe('the JSON delivery sends the delivery event ID (#19.1)', () => {
  it('#19.1 in the X-Leadroute-Event-Id header and the event_id body field, beside the mapped lead', async () => {
    answering(200, {});
    await deliver();
    const last = received.at(-1);
    expect(last?.headers[EVENT_ID_HEADER]).toBe(EVENT);
    expect(JSON.parse(last?.body ?? '')).toEqual({ first_name: 'Ada', event_id: EVENT });
  });

  it("#19.1 under a field name of the step's choosing, or only in the header with event_id_field: false", async () => {
    answering(200, {});
    await deliver({ event_id_field: 'leadroute_id' });
    expect(JSON.parse(received.at(-1)?.body ?? '')).toEqual({ first_name: 'Ada', leadroute_id: EVENT });
    await deliver({ event_id_field: false });
    expect(JSON.parse(received.at(-1)?.body ?? '')).toEqual({ first_name: 'Ada' });
    expect(received.at(-1)?.headers[EVENT_ID_HEADER]).toBe(EVENT);
  });

  it('#19.1 never overwrites a mapped field of the same name', async () => {
    answering(200, {});
    await deliver({}, { first_name: 'Ada', event_id: 'mapped' });
    expect(JSON.parse(received.at(-1)?.body ?? '')).toEqual({ first_name: 'Ada', event_id: 'mapped' });
  });

  it('#19.1 refuses an event_id_field that is not a name or false', () => {
    const problems = customJsonModule().validateConfig?.({ url, event_id_field: 3 }) ?? [];
    expect(problems.map((p) => p.path)).toEqual(['/event_id_field']);
  });
});

describe('the JSON delivery reads an answer without configured paths (#19.2)', () => {
  it.each([
    [
      'a failure with its reason, reference and price',
      200,
      { outcome: 'failure', reason: 'duplicate', reference: 'CRM-1', price: 12 },
      { outcome: 'failure', reason: 'duplicate', reference: 'CRM-1', price: 12 },
    ],
    [
      'a success with a price as text and a reference',
      200,
      { outcome: 'Success', price: '7.50', reference: 'R-9' },
      { outcome: 'success', price: 7.5, reference: 'R-9' },
    ],
    [
      'an error it reports itself',
      200,
      { outcome: 'error', reason: 'queue full' },
      { outcome: 'error', reason: 'queue full' },
    ],
    ['a 2xx without an outcome: success', 200, { id: 5 }, { outcome: 'success' }],
    ['a 2xx that is not JSON: success', 200, 'OK', { outcome: 'success' }],
    [
      'a 4xx: failure, with the reason it gives',
      422,
      { reason: 'bad phone' },
      { outcome: 'failure', reason: 'bad phone' },
    ],
    [
      'a 4xx that claims success is still a failure',
      400,
      { outcome: 'success' },
      { outcome: 'failure', reason: 'The recipient answered 400 Bad Request' },
    ],
    ['a 5xx: error', 503, 'down', { outcome: 'error', reason: 'The recipient answered 503 Service Unavailable' }],
  ])('#19.2 %s', async (_name, status, body, expected) => {
    answering(status, body);
    const result = await deliver();
    expect({
      outcome: result.outcome,
      reason: result.reason,
      price: result.price,
      reference: result.reference,
    }).toEqual({
      reason: undefined,
      price: undefined,
      reference: undefined,
      ...expected,
    });
  });

  it('#19.2 configured paths still win over the defaults', async () => {
    answering(200, { result: 'accepted', why: 'ok', cost: 3, id: 'X', outcome: 'failure' });
    const result = await deliver({
      outcome_path: 'result',
      success_value: 'accepted',
      price_path: 'cost',
      reference_path: 'id',
    });
    expect(result).toMatchObject({ outcome: 'success', price: 3, reference: 'X' });
  });
});
