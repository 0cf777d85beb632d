import { type InboundFeedbackModule, scriptedRecipient } from '@leadroute/core';
import { manualClock } from '@leadroute/testkit';
import { err, ok } from 'neverthrow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Answer, type Call, call } from '../support/call';
import { createFixture, type Fixture } from '../support/fixture';
import { BINDINGS, type Binding, startBinding } from '../support/servers';

const LEAD = {
  first_name: 'Ada',
  last_name: 'Lovelace',
  email: 'ada@example.com',
  phone_1: '(305) 555-0142',
  state: 'FL',
};
const enc = (value: unknown) => encodeURIComponent(JSON.stringify(value));
const rules = (lhv: string, rhv: string) => enc([{ lhv, op: 'is equal to', rhv }]);

/** A host integration: `status` sold/refund and `acme_id`, answered in its own plain-text format. */
const acme: InboundFeedbackModule = {
  id: 'platform-test.inbound.feedback',
  package_version: '1.0.0',
  parse: (body) => {
    const b = body as Record<string, unknown> | undefined;
    if (!b || typeof b.status !== 'string') return err('Expected status and acme_id.');
    return ok({
      type: b.status === 'sold' ? 'conversion' : b.status === 'refund' ? 'return' : b.status,
      reason: b.note,
      recipient_record_id: b.acme_id,
    });
  },
  render: (status, result) => ({
    contentType: 'text/plain; charset=utf-8',
    body: `${status} ${result.outcome}${result.reason ? `: ${result.reason}` : ''}`,
  }),
};
/** Reports only on deliveries by platform-other.* modules, so it never finds the scripted recipient's. */
const other: InboundFeedbackModule = {
  id: 'platform-other.inbound.feedback',
  package_version: '1.0.0',
  parse: (body) => ok(body as Record<string, unknown>),
};

describe.each(BINDINGS)('feedback over HTTP through %s', (name) => {
  let binding: Binding;
  let f: Fixture;
  const scripted = scriptedRecipient();
  let references = 0;
  let ids: { vendor: string; buyer: string };
  let flows: { on: string; off: string; none: string; quiet: string };
  const req = (c: Call) => call(binding.url, c);
  const demo = () => f.keys.demo;

  const entity = async (body: Record<string, unknown>) =>
    (await req({ path: '/entities', key: demo(), json: { module_ids: [], source: null, recipient: null, ...body } }))
      .body.id as string;
  const flow = async (step: Record<string, unknown>, source: Record<string, unknown> = {}) => {
    const res = await req({
      path: '/flows',
      key: demo(),
      json: {
        name: 'Feedback flow',
        sources: [{ entity_id: ids.vendor, pricing: { prices: [{ amount: 7.5 }] }, ...source }],
        steps: [
          {
            type: 'recipient',
            entity_id: ids.buyer,
            module_id: scripted.id,
            pricing: { prices: [{ amount: 20 }] },
            ...step,
          },
        ],
      },
    });
    expect(res.status, res.text).toBe(201);
    return res.body.id as string;
  };
  /** Submits a lead and answers its delivery: the recipient event's ID and the recipient's record ID. */
  const deliver = async (flowId = flows.on, lead: Record<string, unknown> = LEAD) => {
    const res = await req({ path: `/flows/${flowId}/sources/${ids.vendor}/submit`, json: lead });
    expect(res.status, res.text).toBe(201);
    const leadId = res.body.lead.id as string;
    const events = await req({ path: `/events?type=recipient&rules=${rules('lead_id', leadId)}`, key: demo() });
    const event = events.body[0] as { id: string; key: string; source_id: string };
    expect(event.key).toMatch(/^REC-/);
    return { leadId, eventId: event.id, reference: event.key };
  };
  const feedbackEvents = async (leadId: string, type = 'feedback-received') =>
    // biome-ignore lint/suspicious/noExplicitAny: test assertions read event fields freely.
    (await req({ path: `/events?type=${type}&sort=asc&rules=${rules('lead_id', leadId)}`, key: demo() })).body as any[];
  const post = (eventId: string, json: unknown, headers: Record<string, string> = {}) =>
    req({ path: `/feedback?event_id=${eventId}`, json, headers });

  beforeAll(async () => {
    scripted.respondWith(() => ({ outcome: 'success', reference: `REC-${++references}` }));
    f = await createFixture({ integrations: [scripted], feedbackIntegrations: [acme, other] });
    binding = await startBinding(name, f.service);
    ids = {
      vendor: await entity({ name: 'Vendor', source: 'seller' }),
      buyer: await entity({ name: 'Buyer', recipient: 'buyer' }),
    };
    flows = {
      on: await flow(
        {
          feedback: {
            enabled: true,
            rule_set: {
              op: 'and',
              rules: [
                { lhv: 'feedback.reason', op: 'is not equal to', rhv: 'fraud' },
                { lhv: 'lead.state', op: 'is not equal to', rhv: 'NY' },
              ],
            },
          },
        },
        { feedback: { enabled: true } },
      ),
      off: await flow({ feedback: { enabled: false } }),
      none: await flow({}),
      quiet: await flow({ feedback: { enabled: true } }),
    };
  });
  afterAll(async () => {
    await binding.close();
  });

  describe('POST /feedback', () => {
    it('records a conversion: 201 with the result, a feedback-received event and one sent on to the source', async () => {
      const d = await deliver();
      const res = await post(d.eventId, { type: 'conversion', reason: 'Sold', occurred_at: '2026-01-10T09:30:00Z' });
      expect(res.status, res.text).toBe(201);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.body).toEqual({
        outcome: 'success',
        price: 7.5,
        lead: {
          id: d.leadId,
          first_name: 'Ada',
          last_name: 'Lovelace',
          email: 'ada@example.com',
          phone_1: '(305) 555-0142',
        },
      });
      const [received] = await feedbackEvents(d.leadId);
      expect(received).toMatchObject({
        type: 'feedback-received',
        outcome: 'success',
        reason: '',
        feedback: { type: 'conversion', reason: 'Sold', occurred_at: '2026-01-10T09:30:00.000Z', event_id: d.eventId },
        flow_id: flows.on,
        source_id: ids.vendor,
        recipient_id: ids.buyer,
        revenue: 20,
        purchase_price: 7.5,
      });
      expect(received?.vars).not.toHaveProperty('occurred_at_warning');
      const [sent] = await feedbackEvents(d.leadId, 'feedback-sent');
      expect(sent).toMatchObject({
        outcome: 'success',
        feedback: { type: 'conversion', reason: 'Sold', event_id: d.eventId },
        source_id: ids.vendor,
        step_id: received?.step_id,
      });
      const hit = await f.service.storage.leads.get(d.leadId);
      expect(hit._unsafeUnwrap()?.latest_event_id).toBe(sent?.id);
    });

    it('sends nothing on to a source without feedback, and nothing when the outcome is failure', async () => {
      const quiet = await deliver(flows.quiet);
      expect((await post(quiet.eventId, { type: 'conversion', reason: 'Sold' })).body.outcome).toBe('success');
      expect(await feedbackEvents(quiet.leadId, 'feedback-sent')).toEqual([]);
      const failed = await deliver();
      expect((await post(failed.eventId, { type: 'return', reason: 'fraud' })).body.outcome).toBe('failure');
      expect(await feedbackEvents(failed.leadId, 'feedback-sent')).toEqual([]);
    });

    it("answers 201 with outcome failure and the rule's reason when the step's feedback rules fail, and records that", async () => {
      const d = await deliver();
      const res = await post(d.eventId, { type: 'return', reason: 'fraud' });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ outcome: 'failure', price: 7.5, lead: { id: d.leadId } });
      expect(res.body.reason).toMatch(/feedback\.reason/);
      expect((await feedbackEvents(d.leadId))[0]).toMatchObject({
        outcome: 'failure',
        feedback: { type: 'return', reason: 'fraud' },
      });
      // Lead data feeds the rules too.
      const ny = await deliver(flows.on, { ...LEAD, state: 'NY' });
      const byLead = await post(ny.eventId, { type: 'conversion', reason: 'Sold' });
      expect(byLead.body).toMatchObject({ outcome: 'failure' });
      expect(byLead.body.reason).toMatch(/lead\.state/);
      // A failed return did not return the lead: a later return is accepted.
      expect((await post(d.eventId, { type: 'return', reason: 'Bad phone' })).body.outcome).toBe('success');
    });

    it('accepts a return once: the second return for the lead is 201 with outcome failure; conversions still count', async () => {
      const d = await deliver();
      const first = await post(d.eventId, { type: 'return', reason: 'Wrong number' });
      expect(first.body).toMatchObject({ outcome: 'success' });
      const second = await post(d.eventId, { type: 'return', reason: 'Wrong number' });
      expect(second.status).toBe(201);
      expect(second.body).toMatchObject({
        outcome: 'failure',
        reason: 'The lead has already been returned.',
        lead: { id: d.leadId },
      });
      expect((await post(d.eventId, { type: 'conversion', reason: 'Sold' })).body.outcome).toBe('success');
      const events = await feedbackEvents(d.leadId);
      // IDs made within one second are in no particular order (#18.1), so the events are compared as a set; the answers
      // above show which came first.
      expect(events.map((e) => `${e.feedback.type}:${e.outcome}`).sort()).toEqual([
        'conversion:success',
        'return:failure',
        'return:success',
      ]);
      expect((await f.service.storage.leads.get(d.leadId))._unsafeUnwrap()?.returned_at).not.toBeNull();
    });

    it('of concurrent returns for one lead exactly one succeeds', async () => {
      const d = await deliver();
      const answers = await Promise.all(
        Array.from({ length: 8 }, () => post(d.eventId, { type: 'return', reason: 'Duplicate' })),
      );
      expect(answers.map((a) => a.status)).toEqual(Array(8).fill(201));
      expect(answers.filter((a) => a.body.outcome === 'success')).toHaveLength(1);
      expect(
        answers.filter((a) => a.body.outcome === 'failure' && a.body.reason === 'The lead has already been returned.'),
      ).toHaveLength(7);
      const events = await feedbackEvents(d.leadId);
      expect(events.filter((e) => e.outcome === 'success')).toHaveLength(1);
      expect(await feedbackEvents(d.leadId, 'feedback-sent')).toHaveLength(1);
    });
  });

  describe('body formats and response formats', () => {
    const bodies: Record<string, (type: string) => string> = {
      'application/json': (type) => JSON.stringify({ type, reason: 'Qualified' }),
      'application/xml': (type) =>
        `<?xml version="1.0"?><feedback><type>${type}</type><reason>Qualified</reason></feedback>`,
      'text/xml; charset=utf-8': (type) => `<feedback><type>${type}</type><reason>Qualified</reason></feedback>`,
      'application/x-www-form-urlencoded': (type) => `type=${type}&reason=Qualified`,
    };
    const accepts = [
      { accept: undefined, type: /^application\/json/ },
      { accept: 'application/json', type: /^application\/json/ },
      { accept: 'application/xml', type: /^application\/xml/ },
      { accept: 'text/xml', type: /^text\/xml/ },
    ];
    const cases = Object.keys(bodies).flatMap((contentType) => accepts.map((a) => ({ contentType, ...a })));

    it.each(cases)('reads a $contentType body and answers in $accept', async ({ contentType, accept, type }) => {
      const d = await deliver();
      const render = bodies[contentType] as (t: string) => string;
      const headers: Record<string, string> = { 'content-type': contentType, ...(accept ? { accept } : {}) };
      const ok = await req({ path: `/feedback?event_id=${d.eventId}`, raw: render('conversion'), headers });
      expect(ok.status, ok.text).toBe(201);
      expect(ok.headers.get('content-type')).toMatch(type);
      const bad = await req({ path: `/feedback?event_id=${d.eventId}`, raw: render('refund'), headers });
      expect(bad.status).toBe(400);
      expect(bad.headers.get('content-type')).toMatch(type);
      if (type.source.includes('json')) {
        expect(ok.body).toMatchObject({ outcome: 'success', lead: { id: d.leadId } });
        // #18.1: a refused call shows nothing of the lead.
        expect(bad.body).toEqual({ outcome: 'error', reason: 'type must be conversion or return.', price: 0 });
      } else {
        expect(ok.text).toMatch(
          /^<\?xml[^>]*\?><result><outcome>success<\/outcome><price>7.5<\/price><lead><id>[0-9a-f]{24}<\/id><first_name>Ada<\/first_name>/,
        );
        expect(bad.text).toContain(
          '<result><outcome>error</outcome><reason>type must be conversion or return.</reason><price>0</price></result>',
        );
      }
      const [event] = await feedbackEvents(d.leadId);
      expect(event?.feedback).toMatchObject({ type: 'conversion', reason: 'Qualified' });
    });
  });

  describe('GET /feedback', () => {
    it('takes the fields as query parameters and answers 201', async () => {
      const d = await deliver();
      const res = await req({
        path: `/feedback?event_id=${d.eventId}&type=conversion&reason=Closed%20won&occurred_at=2026-01-02`,
      });
      expect(res.status, res.text).toBe(201);
      expect(res.body).toMatchObject({
        outcome: 'success',
        price: 7.5,
        lead: { id: d.leadId, email: 'ada@example.com' },
      });
      expect((await feedbackEvents(d.leadId))[0]?.feedback).toEqual({
        type: 'conversion',
        reason: 'Closed won',
        occurred_at: '2026-01-02T00:00:00.000Z',
        event_id: d.eventId,
      });
      const xml = await req({
        path: `/feedback?event_id=${d.eventId}&type=return`,
        headers: { accept: 'application/xml' },
      });
      expect(xml.status).toBe(201);
      expect(xml.text).toContain('<result><outcome>success</outcome>');
    });

    it.each([
      { case: 'a missing type is 400 with a result', query: (id: string) => `event_id=${id}`, status: 400 },
      { case: 'a wrong type is 400 with a result', query: (id: string) => `event_id=${id}&type=sale`, status: 400 },
      { case: 'a malformed event_id is 422', query: () => 'event_id=nope&type=return', status: 422 },
      { case: 'a missing event_id is 422', query: () => 'type=return', status: 422 },
      { case: 'an unknown event_id is 404', query: () => 'event_id=0123456789abcdef01234567&type=return', status: 404 },
    ])('$case', async ({ query, status }) => {
      const d = await deliver();
      const res = await req({ path: `/feedback?${query(d.eventId)}` });
      expect(res.status).toBe(status);
      if (status === 400) expect(res.body).toMatchObject({ outcome: 'error', price: 0 });
      if (status === 400) expect(res.body.lead).toBeUndefined();
      else expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    });

    it('answers 403, 409 and 406 as the POST form does', async () => {
      expect(
        (await req({ path: `/feedback?event_id=${(await deliver(flows.none)).eventId}&type=return` })).status,
      ).toBe(403);
      expect((await req({ path: `/feedback?event_id=${(await deliver(flows.off)).eventId}&type=return` })).status).toBe(
        409,
      );
      const d = await deliver();
      const refused = await req({
        path: `/feedback?event_id=${d.eventId}&type=return`,
        headers: { accept: 'text/csv' },
      });
      expect(refused.status).toBe(406);
      // Refused before processing: the return is still open.
      expect((await req({ path: `/feedback?event_id=${d.eventId}&type=return` })).body.outcome).toBe('success');
    });
  });

  describe('errors of POST /feedback', () => {
    const cases: {
      case: string;
      call: (d: { eventId: string; leadId: string; sourceEventId: string }) => Call;
      status: number;
      check?: (res: Answer) => void;
    }[] = [
      {
        case: 'a missing type is 400 with a feedback result, outcome error',
        call: (d) => ({ path: `/feedback?event_id=${d.eventId}`, json: { reason: 'x' } }),
        status: 400,
        check: (r) =>
          expect(r.body).toEqual({ outcome: 'error', reason: 'type is required: conversion or return.', price: 0 }),
      },
      {
        case: 'an empty body is 400 with a feedback result',
        call: (d) => ({ path: `/feedback?event_id=${d.eventId}`, method: 'POST' }),
        status: 400,
        check: (r) => expect(r.body.outcome).toBe('error'),
      },
      {
        case: 'a reason that is not text is 400 with a feedback result',
        call: (d) => ({ path: `/feedback?event_id=${d.eventId}`, json: { type: 'return', reason: { why: 1 } } }),
        status: 400,
        check: (r) => expect(r.body).toMatchObject({ outcome: 'error', reason: 'reason must be a string.' }),
      },
      {
        case: 'unparsable JSON is 400 in plain text',
        call: (d) => ({
          path: `/feedback?event_id=${d.eventId}`,
          raw: '{"type": "return",',
          headers: { 'content-type': 'application/json' },
        }),
        status: 400,
        check: (r) => {
          expect(r.headers.get('content-type')).toMatch(/^text\/plain/);
          expect(r.text).toMatch(/not valid JSON/);
        },
      },
      {
        case: 'unparsable XML is 400 in plain text',
        call: (d) => ({
          path: `/feedback?event_id=${d.eventId}`,
          raw: '<feedback><type>return</feedback>',
          headers: { 'content-type': 'text/xml' },
        }),
        status: 400,
        check: (r) => {
          expect(r.headers.get('content-type')).toMatch(/^text\/plain/);
          expect(r.text).toMatch(/Invalid XML/);
        },
      },
      {
        case: 'a step without feedback is 403',
        call: (d) => ({ path: `/feedback?event_id=${d.eventId}`, json: { type: 'return' } }),
        status: 403,
      },
      {
        case: 'an unknown event is 404',
        call: () => ({ path: '/feedback?event_id=65a0f0f0f0f0f0f0f0f0f0f0', json: { type: 'return' } }),
        status: 404,
      },
      {
        case: 'an Accept that cannot be produced is 406',
        call: (d) => ({
          path: `/feedback?event_id=${d.eventId}`,
          json: { type: 'return' },
          headers: { accept: 'text/html' },
        }),
        status: 406,
      },
      {
        case: 'an unsupported Content-Type is 406',
        call: (d) => ({
          path: `/feedback?event_id=${d.eventId}`,
          raw: 'type=return',
          headers: { 'content-type': 'text/plain' },
        }),
        status: 406,
        check: (r) => expect(r.body).toMatchObject({ status: 406, code: 'NotAcceptable' }),
      },
      {
        case: 'a Content-Type that cannot be parsed is 406',
        call: (d: { eventId: string }) => ({
          path: `/feedback?event_id=${d.eventId}`,
          raw: '{}',
          headers: { 'content-type': '???' },
        }),
        status: 406,
      },
      {
        case: 'a body over 10 MB is 413',
        call: (d) => ({
          path: `/feedback?event_id=${d.eventId}`,
          raw: `{"type":"return","reason":"${'x'.repeat(10 * 1024 * 1024)}"}`,
          headers: { 'content-type': 'application/json' },
        }),
        status: 413,
      },
      {
        case: 'a body without Content-Type is 415',
        call: (d) => ({ path: `/feedback?event_id=${d.eventId}`, raw: new TextEncoder().encode('{"type":"return"}') }),
        status: 415,
      },
      {
        case: 'a malformed event_id is 422',
        call: () => ({ path: '/feedback?event_id=12345', json: { type: 'return' } }),
        status: 422,
      },
      // #18.1 (departs from the spec's 422): the wrong kind of ID is answered as an unknown one.
      {
        case: 'a lead ID is 404, as an unknown ID',
        call: (d) => ({ path: `/feedback?event_id=${d.leadId}`, json: { type: 'return' } }),
        status: 404,
      },
      {
        case: 'a source event ID is 404, as an unknown ID',
        call: (d) => ({ path: `/feedback?event_id=${d.sourceEventId}`, json: { type: 'return' } }),
        status: 404,
      },
    ];

    it.each(cases)('$case', async ({ case: title, call: make, status, check }) => {
      const d = await deliver(title.includes('403') ? flows.none : flows.on);
      const sourceEventId = (
        await req({ path: `/events?type=source&rules=${rules('lead_id', d.leadId)}`, key: demo() })
      ).body[0].id as string;
      const res = await req(make({ ...d, sourceEventId }));
      expect(res.status, res.text).toBe(status);
      if (status !== 400) expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      check?.(res);
      // Nothing was processed.
      expect(await feedbackEvents(d.leadId)).toEqual([]);
    });

    it('answers 409 when feedback is configured but switched off', async () => {
      const d = await deliver(flows.off);
      const res = await post(d.eventId, { type: 'conversion' });
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({ code: 'Conflict' });
    });
  });

  describe('occurred_at', () => {
    it.each([
      { sent: '2026-01-15T10:00:00Z', read: '2026-01-15T10:00:00.000Z' },
      { sent: '2026-01-15T10:00:00+02:00', read: '2026-01-15T08:00:00.000Z' },
      { sent: '2026-01-15T10:00:00.250-0500', read: '2026-01-15T15:00:00.250Z' },
      { sent: '2026-01-15T10:00:00', read: '2026-01-15T10:00:00.000Z' },
      { sent: '2026-01-15T10:00', read: '2026-01-15T10:00:00.000Z' },
      { sent: '2026-01-15', read: '2026-01-15T00:00:00.000Z' },
      { sent: ' 2026-01-15 ', read: '2026-01-15T00:00:00.000Z' },
    ])('reads $sent as $read', async ({ sent, read }) => {
      const d = await deliver();
      expect((await post(d.eventId, { type: 'conversion', reason: 'Sold', occurred_at: sent })).status).toBe(201);
      const [event] = await feedbackEvents(d.leadId);
      expect(event?.feedback.occurred_at).toBe(read);
      expect(event?.vars).not.toHaveProperty('occurred_at_warning');
    });

    it.each(['yesterday', '2026-02-30', '2026-01-15T25:00', '15/01/2026', 1736935200000])(
      'ignores %s: receipt time is used and occurred_at_warning recorded',
      async (sent) => {
        const d = await deliver();
        const before = Date.now();
        const res = await post(d.eventId, { type: 'conversion', reason: 'Sold', occurred_at: sent });
        expect(res.status).toBe(201);
        expect(res.body.outcome).toBe('success');
        const [event] = await feedbackEvents(d.leadId);
        const at = Date.parse(event?.feedback.occurred_at);
        expect(at).toBeGreaterThanOrEqual(before - 1000);
        expect(at).toBeLessThanOrEqual(Date.now());
        expect(event?.vars.occurred_at_warning).toMatch(/not an ISO 8601 time/);
      },
    );
  });

  it('#19.11 takes a reason over 1,000 characters: keeps the first 1,000 and records that it was cut', async () => {
    const d = await deliver();
    const res = await post(d.eventId, { type: 'return', reason: `${'r'.repeat(1000)}${'s'.repeat(4000)}` });
    expect(res.status).toBe(201);
    const [event] = await feedbackEvents(d.leadId);
    expect(event?.feedback.reason).toBe('r'.repeat(1000));
    expect(event?.vars.reason_truncated_from).toBe(5000);
  });

  describe('POST /feedback/{recipient_name}', () => {
    it('finds the lead by recipient_record_id through the standard integration, the name matched case-insensitively', async () => {
      const d = await deliver();
      const res = await req({
        path: '/feedback/Standard',
        json: { type: 'conversion', reason: 'Sold', recipient_record_id: d.reference },
      });
      expect(res.status, res.text).toBe(201);
      expect(res.body).toMatchObject({ outcome: 'success', price: 7.5, lead: { id: d.leadId } });
      const [event] = await feedbackEvents(d.leadId);
      expect(event).toMatchObject({
        module_id: 'platform-standard.inbound.feedback',
        feedback: { type: 'conversion', reason: 'Sold', event_id: d.eventId },
      });
    });

    it.each([
      {
        contentType: 'application/xml',
        body: (ref: string) =>
          `<feedback><type>return</type><reason>Bad</reason><recipient_record_id>${ref}</recipient_record_id></feedback>`,
      },
      {
        contentType: 'text/xml',
        body: (ref: string) =>
          `<feedback><type>return</type><reason>Bad</reason><recipient_record_id>${ref}</recipient_record_id></feedback>`,
      },
      {
        contentType: 'application/x-www-form-urlencoded',
        body: (ref: string) => `type=return&reason=Bad&recipient_record_id=${ref}`,
      },
    ])('reads a $contentType body and answers XML when asked', async ({ contentType, body }) => {
      const d = await deliver();
      const res = await req({
        path: '/feedback/standard',
        raw: body(d.reference),
        headers: { 'content-type': contentType, accept: 'application/xml' },
      });
      expect(res.status, res.text).toBe(201);
      expect(res.text).toContain(`<result><outcome>success</outcome><price>7.5</price><lead><id>${d.leadId}</id>`);
      const again = await req({
        path: '/feedback/standard',
        raw: body(d.reference),
        headers: { 'content-type': contentType },
      });
      expect(again.body).toMatchObject({ outcome: 'failure', reason: 'The lead has already been returned.' });
    });

    it('answers 404 with a feedback result for a missing or unknown recipient_record_id, and a problem for an unknown integration', async () => {
      const missing = await req({ path: '/feedback/standard', json: { type: 'return' } });
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ outcome: 'failure', reason: 'recipient_record_id is required.', price: 0 });
      const unknown = await req({
        path: '/feedback/standard',
        json: { type: 'return', recipient_record_id: 'NOPE-1' },
      });
      expect(unknown.status).toBe(404);
      expect(unknown.body).toMatchObject({
        outcome: 'failure',
        reason: 'No delivered lead has recipient_record_id NOPE-1.',
      });
      const d = await deliver();
      const noModule = await req({
        path: '/feedback/nobody',
        json: { type: 'return', recipient_record_id: d.reference },
      });
      expect(noModule.status).toBe(404);
      expect(noModule.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      // An integration reports only on deliveries by its own outbound modules.
      const foreign = await req({
        path: '/feedback/other',
        json: { type: 'return', recipient_record_id: d.reference },
      });
      expect(foreign.status).toBe(404);
      expect(foreign.body.outcome).toBe('failure');
      expect(await feedbackEvents(d.leadId)).toEqual([]);
    });

    it('uses a host integration: its body format and its own rendering of every result', async () => {
      const d = await deliver();
      const res = await req({ path: '/feedback/TEST', json: { status: 'sold', note: 'Closed', acme_id: d.reference } });
      expect(res.status).toBe(201);
      expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(res.text).toBe('201 success');
      const bad = await req({ path: '/feedback/test', json: { status: 'lost', acme_id: d.reference } });
      expect(bad.status).toBe(400);
      expect(bad.text).toBe('400 error: type must be conversion or return.');
      const unparsable = await req({ path: '/feedback/test', json: { acme_id: d.reference } });
      expect(unparsable.status).toBe(400);
      expect(unparsable.text).toBe('Expected status and acme_id.');
      const off = await deliver(flows.off);
      const refused = await req({ path: '/feedback/test', json: { status: 'sold', acme_id: off.reference } });
      expect(refused.status).toBe(409);
      expect(refused.text).toBe('409 failure: Feedback is switched off on the delivering step.');
    });

    const statusCases: { case: string; call: (ref: string) => Call; status: number; check: (res: Answer) => void }[] = [
      {
        case: 'a bad type is 400 with a result',
        call: (ref) => ({ path: '/feedback/standard', json: { type: 'sold', recipient_record_id: ref } }),
        status: 400,
        check: (r) =>
          expect(r.body).toEqual({ outcome: 'error', reason: 'type must be conversion or return.', price: 0 }),
      },
      {
        case: 'an unparsable body is 400 in plain text',
        call: () => ({ path: '/feedback/standard', raw: '<x>', headers: { 'content-type': 'application/xml' } }),
        status: 400,
        check: (r) => expect(r.headers.get('content-type')).toMatch(/^text\/plain/),
      },
      {
        case: 'a step without feedback is 403 with a result',
        call: (ref) => ({ path: '/feedback/standard', json: { type: 'return', recipient_record_id: ref } }),
        status: 403,
        check: (r) =>
          expect(r.body).toEqual({
            outcome: 'failure',
            reason: 'Feedback is not configured on the delivering step.',
            price: 0,
          }),
      },
      {
        case: 'feedback switched off is 409 with a result',
        call: (ref) => ({ path: '/feedback/standard', json: { type: 'return', recipient_record_id: ref } }),
        status: 409,
        check: (r) =>
          expect(r.body).toEqual({
            outcome: 'failure',
            reason: 'Feedback is switched off on the delivering step.',
            price: 0,
          }),
      },
      {
        case: 'an unproducible Accept is 406',
        call: (ref) => ({
          path: '/feedback/standard',
          json: { type: 'return', recipient_record_id: ref },
          headers: { accept: 'image/png' },
        }),
        status: 406,
        check: (r) => expect(r.body.code).toBe('NotAcceptable'),
      },
      {
        case: 'an unsupported Content-Type is 406',
        call: () => ({ path: '/feedback/standard', raw: 'type=return', headers: { 'content-type': 'text/csv' } }),
        status: 406,
        check: (r) => expect(r.body.code).toBe('NotAcceptable'),
      },
      {
        case: 'a body over 10 MB is 413',
        call: () => ({
          path: '/feedback/standard',
          raw: `type=return&reason=${'x'.repeat(10 * 1024 * 1024)}`,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        }),
        status: 413,
        check: (r) => expect(r.body.code).toBe('PayloadTooLarge'),
      },
      {
        case: 'a body without Content-Type is 415',
        call: (ref) => ({
          path: '/feedback/standard',
          raw: new TextEncoder().encode(JSON.stringify({ type: 'return', recipient_record_id: ref })),
        }),
        status: 415,
        check: (r) => expect(r.body.code).toBe('UnsupportedMediaType'),
      },
    ];
    it.each(statusCases)('$case', async ({ case: title, call: make, status, check }) => {
      const d = await deliver(title.includes('403') ? flows.none : title.includes('409') ? flows.off : flows.on);
      const res = await req(make(d.reference));
      expect(res.status, res.text).toBe(status);
      check(res);
      expect(await feedbackEvents(d.leadId)).toEqual([]);
    });
  });
});

describe.each(BINDINGS)('feedback and the 90-day retention through %s', (name) => {
  it('answers 404 for an event past expires_at before any purge, by event_id and by recipient_record_id', async () => {
    const clock = manualClock('2026-01-01T12:00:00Z');
    const scripted = scriptedRecipient();
    scripted.respondWith({ outcome: 'success', reference: 'OLD-1' });
    const f = await createFixture({ integrations: [scripted], clock });
    const binding = await startBinding(name, f.service);
    try {
      const req = (c: Call) => call(binding.url, c);
      const entity = async (body: Record<string, unknown>) =>
        (
          await req({
            path: '/entities',
            key: f.keys.demo,
            json: { module_ids: [], source: null, recipient: null, ...body },
          })
        ).body.id as string;
      const vendor = await entity({ name: 'Vendor', source: 'seller' });
      const buyer = await entity({ name: 'Buyer', recipient: 'buyer' });
      const flow = (
        await req({
          path: '/flows',
          key: f.keys.demo,
          json: {
            name: 'Old',
            sources: [{ entity_id: vendor }],
            steps: [{ type: 'recipient', entity_id: buyer, module_id: scripted.id, feedback: { enabled: true } }],
          },
        })
      ).body;
      const lead = (await req({ path: `/flows/${flow.id}/sources/${vendor}/submit`, json: LEAD })).body.lead
        .id as string;
      const eventId = (await req({ path: `/events?type=recipient&rules=${rules('lead_id', lead)}`, key: f.keys.demo }))
        .body[0].id as string;

      clock.advance(90 * 24 * 3600 * 1000 - 60_000);
      expect((await req({ path: `/feedback?event_id=${eventId}&type=conversion` })).status).toBe(201);
      clock.advance(60_000);
      const gone = await req({ path: `/feedback?event_id=${eventId}`, json: { type: 'return' } });
      expect(gone.status).toBe(404);
      const byRecord = await req({
        path: '/feedback/standard',
        json: { type: 'return', recipient_record_id: 'OLD-1' },
      });
      expect(byRecord.status).toBe(404);
      expect(byRecord.body).toMatchObject({ outcome: 'failure' });
      // The lead ID of an expired lead is unknown too, not the wrong kind.
      expect((await req({ path: `/feedback?event_id=${lead}`, json: { type: 'return' } })).status).toBe(404);
    } finally {
      await binding.close();
    }
  });
});

// Issue #18 item 12: a lead's records are committed together after its last step, so
// a recipient that posts feedback at once (even before answering the delivery) names
// an event not yet stored. In the process recording it, the look-up waits for the
// lead's commit instead of answering 404.
describe.each(BINDINGS)('feedback on a delivery not yet committed, through %s', (name) => {
  it('#18.12 feedback posted before the recipient has answered waits for the lead to be recorded, then succeeds', async () => {
    const eager = scriptedRecipient('platform-test.outbound.eager');
    let feedback: Promise<Answer> | undefined;
    let url = '';
    eager.respondWith(async (request) => {
      // Posts feedback before answering, and answers a moment later: the event is not stored yet when it arrives.
      feedback = call(url, {
        path: `/feedback?event_id=${request.event_id}`,
        json: { type: 'return', reason: 'duplicate' },
      });
      await new Promise((r) => setTimeout(r, 300));
      return { outcome: 'success', reference: 'EAGER-1' };
    });
    const f = await createFixture({ integrations: [eager] });
    const binding = await startBinding(name, f.service);
    url = binding.url;
    try {
      const key = f.keys.demo;
      const entity = async (body: Record<string, unknown>) =>
        (await call(url, { path: '/entities', key, json: { module_ids: [], source: null, recipient: null, ...body } }))
          .body.id as string;
      const vendor = await entity({ name: 'Vendor', source: 'seller' });
      const buyer = await entity({ name: 'Buyer', recipient: 'buyer' });
      const flow = await call(url, {
        path: '/flows',
        key,
        json: {
          name: 'Eager feedback',
          sources: [{ entity_id: vendor }],
          steps: [{ type: 'recipient', entity_id: buyer, module_id: eager.id, feedback: { enabled: true } }],
        },
      });
      expect(flow.status, flow.text).toBe(201);
      const submitted = await call(url, {
        path: `/flows/${flow.body.id as string}/sources/${vendor}/submit`,
        json: LEAD,
      });
      expect(submitted.status).toBe(201);
      const answer = await (feedback as Promise<Answer>);
      expect(answer.status, answer.text).toBe(201);
      expect(answer.body.outcome).toBe('success');
    } finally {
      await binding.close();
    }
  });
});
