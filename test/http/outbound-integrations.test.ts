import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Call } from '../support/call';
import { startParty } from '../support/party';
import type { Fixture } from '../support/fixture';
import { type Stack, stackCases, startStack } from '../support/stack';

// #24.3 outbound integrations: a form POST, an XML POST and a GET besides JSON, with headers, Basic auth,
// templated bodies, answers read by JSONPath, XPath, a search term or a pattern, a timeout, and retries for
// connection errors only; against a real local recipient that speaks each format. Both bindings, memory and
// PostgreSQL.
const CASES = await stackCases('test/http/outbound-integrations.test.ts');
const xml = new XMLParser({ parseTagValue: false });

describe.each(CASES)('#24.3 outbound integrations through %s on %s', (bindingName, storageName) => {
  let stack: Stack;
  let f: Fixture;
  let buyer: Awaited<ReturnType<typeof startParty>>;
  let vendor: string;
  let buyerEntity: string;
  const req = (c: Call) => stack.req(c);
  const entity = async (body: Record<string, unknown>) =>
    (
      await req({
        path: '/entities',
        key: f.keys.demo,
        json: { module_ids: [], source: null, recipient: null, ...body },
      })
    ).body.id as string;
  /** A flow with one step of `module` and `config`; the lead submitted through it; its delivery event. */
  const deliver = async (module: string, config: Record<string, unknown>, lead: Record<string, unknown>, step = {}) => {
    const flow = await req({
      path: '/flows',
      key: f.keys.demo,
      json: {
        name: module,
        sources: [{ entity_id: vendor }],
        steps: [{ type: 'recipient', entity_id: buyerEntity, module_id: module, config, ...step }],
      },
    });
    expect(flow.status, flow.text).toBe(201);
    const answer = await req({ path: `/flows/${flow.body.id}/sources/${vendor}/submit`, json: lead });
    const rules = encodeURIComponent(
      JSON.stringify([
        { lhv: 'lead_id', op: 'is equal to', rhv: answer.body.lead.id },
        { lhv: 'type', op: 'is equal to', rhv: 'recipient' },
      ]),
    );
    const [event] = (await req({ path: `/events?rules=${rules}`, key: f.keys.demo })).body;
    return { answer: answer.body, event };
  };

  beforeAll(async () => {
    buyer = await startParty();
    stack = await startStack(bindingName, storageName, {});
    f = stack.f;
    vendor = await entity({ name: 'Vendor', source: 'seller' });
    buyerEntity = await entity({ name: 'Buyer', recipient: 'buyer' });
  });
  beforeEach(() => {
    buyer.seen.length = 0;
    buyer.resets = 0;
    buyer.delayMs = 0;
    buyer.answer = { status: 200, type: 'application/json', body: '{"outcome":"success"}' };
  });
  afterAll(async () => {
    await stack?.close();
    await buyer?.close();
  });

  it('POSTs a form with headers and Basic auth, recorded without their secrets', async () => {
    const { event } = await deliver(
      'platform-custom.outbound.form',
      {
        url: `${buyer.url}/form`,
        headers: { 'x-api-key': 'k-123', 'x-campaign': 'spring' },
        basic_auth: { username: 'acme', password: 's3cret' },
      },
      { first_name: 'Nora', email: 'nora@example.com' },
    );
    const [seen] = buyer.seen;
    expect(seen?.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(new URLSearchParams(seen?.body))).toMatchObject({
      first_name: 'Nora',
      email: 'nora@example.com',
    });
    expect(seen?.headers.authorization).toBe(`Basic ${Buffer.from('acme:s3cret').toString('base64')}`);
    expect([seen?.headers['x-api-key'], seen?.headers['x-campaign']]).toEqual(['k-123', 'spring']);
    expect(event.outcome).toBe('success');
    const recorded = JSON.stringify(event);
    expect(recorded).not.toContain('s3cret');
    expect(recorded).not.toContain('k-123');
    expect(event.transactions[0].request.headers).toMatchObject({
      authorization: '[redacted]',
      'x-api-key': '[redacted]',
      'x-campaign': 'spring',
    });
  });

  it('sends Basic auth and keys given in the URL, recorded without them', async () => {
    const { event } = await deliver(
      'platform-custom.outbound.get',
      { url: `${buyer.url.replace('://', '://acme:pw-in-url@')}/get?api_key=q-secret&campaign=9` },
      { first_name: 'Nora' },
    );
    const [seen] = buyer.seen;
    expect(seen?.headers.authorization).toBe(`Basic ${Buffer.from('acme:pw-in-url').toString('base64')}`);
    expect(seen?.query).toMatchObject({ api_key: 'q-secret', campaign: '9', first_name: 'Nora' });
    expect(event.outcome).toBe('success');
    const recorded = JSON.stringify(event);
    expect(recorded).not.toContain('pw-in-url');
    expect(recorded).not.toContain('q-secret');
    const url = new URL(event.transactions[0].request.url);
    expect([url.username, url.searchParams.get('api_key'), url.searchParams.get('campaign')]).toEqual([
      'acme',
      '[redacted]',
      '9',
    ]);
  });

  it('POSTs XML, or a templated body, and reads an XML answer by XPath', async () => {
    buyer.answer = {
      status: 200,
      type: 'application/xml',
      body: '<response><status>ACCEPTED</status><bid>12.5</bid><id>X-9</id><why>ok</why></response>',
    };
    const { event } = await deliver(
      'platform-custom.outbound.xml',
      {
        url: `${buyer.url}/xml`,
        xml_root: 'Lead',
        outcome_path: '/response/status',
        success_value: 'accepted',
        price_path: '/response/bid',
        reference_path: 'string(/response/id)',
      },
      { first_name: 'Nora', state: 'TX' },
    );
    expect(xml.parse(buyer.seen[0]?.body ?? '').Lead).toMatchObject({ first_name: 'Nora', state: 'TX' });
    expect(event).toMatchObject({ outcome: 'success', key: 'X-9' });
    expect(event.vars.price).toBe(12.5);
    buyer.seen.length = 0;
    await deliver(
      'platform-custom.outbound.xml',
      {
        url: `${buyer.url}/soap`,
        body_template: '<Envelope><Name>{{lead.first_name}}</Name><Ref>{{event_id}}</Ref></Envelope>',
      },
      { first_name: 'Ada' },
    );
    expect(buyer.seen[0]?.body).toMatch(/^<Envelope><Name>Ada<\/Name><Ref>[0-9a-f]{24}<\/Ref><\/Envelope>$/);
  });

  it('sends a GET with the lead in the query, and reads a text answer by search term and pattern', async () => {
    buyer.answer = { status: 200, type: 'text/plain', body: 'RESULT=Accepted|PRICE=7|REF=T-4' };
    const { event } = await deliver(
      'platform-custom.outbound.get',
      {
        url: `${buyer.url}/get?campaign=9`,
        outcome_search: 'accepted',
        price_pattern: 'PRICE=(\\d+)',
        reference_pattern: 'REF=([A-Z]-\\d+)',
      },
      { first_name: 'Nora', phone_1: '5125550142' },
    );
    const [seen] = buyer.seen;
    expect(seen).toMatchObject({ method: 'GET', body: '' });
    expect(seen?.query).toMatchObject({ campaign: '9', first_name: 'Nora', phone_1: '+15125550142' });
    expect(event).toMatchObject({ outcome: 'success', key: 'T-4' });
    expect(event.vars.price).toBe(7);
    buyer.answer = { status: 200, type: 'text/plain', body: 'RESULT=Rejected' };
    const rejected = await deliver(
      'platform-custom.outbound.get',
      { url: `${buyer.url}/get`, outcome_search: 'accepted' },
      {},
    );
    expect(rejected.event.outcome).toBe('failure');
  });

  it('reads a JSON answer by JSONPath', async () => {
    buyer.answer = {
      status: 200,
      type: 'application/json',
      body: '{"result":{"status":"ok","bids":[{"amount":21}],"note":"dup"}}',
    };
    const { event } = await deliver(
      'platform-custom.outbound.json',
      {
        url: `${buyer.url}/json`,
        outcome_path: '$.result.status',
        success_value: 'ok',
        price_path: '$.result.bids[0].amount',
      },
      { email: 'a@example.com' },
    );
    expect(event.outcome).toBe('success');
    expect(event.vars.price).toBe(21);
    // A JSONPath cannot run script, whatever it holds.
    const scripted = await deliver(
      'platform-custom.outbound.json',
      { url: `${buyer.url}/json`, outcome_path: '$..[?(@.constructor.constructor("return process")().exit())]' },
      {},
    );
    expect(scripted.event.outcome).not.toBe('success');
  });

  it('retries connection errors only, and times out a slow buyer', async () => {
    buyer.resets = 2;
    const retried = await deliver('platform-custom.outbound.json', { url: `${buyer.url}/r`, retries: 2 }, { n: 1 });
    expect(retried.event.outcome).toBe('success');
    expect(retried.event.transactions.map((t: { response: unknown }) => t.response === null)).toEqual([
      true,
      true,
      false,
    ]);
    buyer.seen.length = 0;
    buyer.answer = { status: 503, type: 'application/json', body: '{}' };
    const answered = await deliver('platform-custom.outbound.json', { url: `${buyer.url}/r`, retries: 3 }, { n: 2 });
    expect(answered.event.outcome).toBe('error');
    expect(buyer.seen).toHaveLength(1);
    buyer.answer = { status: 200, type: 'application/json', body: '{}' };
    buyer.delayMs = 1_000;
    const slow = await deliver(
      'platform-custom.outbound.form',
      { url: `${buyer.url}/slow` },
      { n: 3 },
      { timeout_ms: 100 },
    );
    expect(slow.event).toMatchObject({ outcome: 'error', reason: expect.stringMatching(/100 ms|in time/) });
  });

  it('refuses a configuration that cannot work, at its path', async () => {
    const res = await req({
      path: '/flows',
      key: f.keys.demo,
      json: {
        name: 'Bad',
        sources: [{ entity_id: vendor }],
        steps: [
          {
            type: 'recipient',
            entity_id: buyerEntity,
            module_id: 'platform-custom.outbound.get',
            config: { url: 'ftp://x', retries: 9 },
          },
          {
            type: 'recipient',
            entity_id: buyerEntity,
            module_id: 'platform-custom.outbound.xml',
            config: { url: 'https://b.example', price_pattern: '(a)\\1', body_template: '{{lead.x' },
          },
        ],
      },
    });
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: { path: string }) => e.path).sort()).toEqual([
      '/steps/0/config/retries',
      '/steps/0/config/url',
      '/steps/1/config/body_template',
      '/steps/1/config/price_pattern',
    ]);
  });
});
