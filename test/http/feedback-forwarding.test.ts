import { scriptedRecipient } from '@leadroute/core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Call } from '../support/call';
import { startParty } from '../support/party';
import type { Fixture } from '../support/fixture';
import { type Stack, stackCases, startStack } from '../support/stack';

// #24.6 feedback forwarded for real: a conversion or return reported by the buyer is delivered to the
// source's endpoint (a real local server) through an outbound integration, retried on connection
// errors, and what happened is recorded on the feedback-sent event. Both bindings, memory and PostgreSQL.
const CASES = await stackCases('test/http/feedback-forwarding.test.ts');

const SUCCESS = { status: 200, type: 'application/json', body: '{"outcome":"success"}' };
const UNKNOWN_LEAD = { status: 404, type: 'application/json', body: '{"outcome":"failure","reason":"Unknown lead"}' };

describe.each(CASES)('#24.6 feedback forwarded to the source through %s on %s', (bindingName, storageName) => {
  let stack: Stack;
  let f: Fixture;
  let vendorServer: Awaited<ReturnType<typeof startParty>>;
  /** What the vendor's endpoint received, parsed. */
  const received = () => vendorServer.seen.map((r) => JSON.parse(r.body) as Record<string, unknown>);
  const scripted = scriptedRecipient();
  scripted.respondWith({ outcome: 'success' });
  let flowId: string;
  let vendor: string;
  const req = (c: Call) => stack.req(c);
  const entity = async (body: Record<string, unknown>) =>
    (
      await req({
        path: '/entities',
        key: f.keys.demo,
        json: { module_ids: [], source: null, recipient: null, ...body },
      })
    ).body.id as string;
  /** Submits a lead, then reports feedback on its delivery as the buyer would; the feedback-sent event. */
  const feedbackOn = async (lead: Record<string, unknown>, feedback: Record<string, unknown>) => {
    const submitted = await req({ path: `/flows/${flowId}/sources/${vendor}/submit`, json: lead });
    const rules = (type: string) =>
      encodeURIComponent(
        JSON.stringify([
          { lhv: 'lead_id', op: 'is equal to', rhv: submitted.body.lead.id },
          { lhv: 'type', op: 'is equal to', rhv: type },
        ]),
      );
    const [delivery] = (await req({ path: `/events?rules=${rules('recipient')}`, key: f.keys.demo })).body;
    const answer = await req({ path: `/feedback?event_id=${delivery.id}`, json: feedback });
    const [sent] = (await req({ path: `/events?rules=${rules('feedback-sent')}`, key: f.keys.demo })).body;
    return { answer, sent, leadId: submitted.body.lead.id as string };
  };

  beforeAll(async () => {
    vendorServer = await startParty();
    stack = await startStack(bindingName, storageName, {
      integrations: [scripted],
    });
    f = stack.f;
    vendor = await entity({ name: 'Vendor', source: 'seller' });
    const buyer = await entity({ name: 'Buyer', recipient: 'buyer' });
    const res = await req({
      path: '/flows',
      key: f.keys.demo,
      json: {
        name: 'Forwarding',
        sources: [
          {
            entity_id: vendor,
            feedback: {
              enabled: true,
              rule_set: { op: 'and', rules: [{ lhv: 'feedback.type', op: 'is equal to', rhv: 'return' }] },
              forward_to: {
                module_id: 'platform-custom.outbound.json',
                config: { url: `${vendorServer.url}/feedback` },
                retries: 2,
              },
            },
          },
        ],
        steps: [{ type: 'recipient', entity_id: buyer, module_id: scripted.id, feedback: { enabled: true } }],
      },
    });
    expect(res.status, res.text).toBe(201);
    flowId = res.body.id;
  });
  beforeEach(() => {
    vendorServer.resets = 0;
    vendorServer.answer = SUCCESS;
    vendorServer.seen.length = 0;
  });
  afterAll(async () => {
    await stack?.close();
    await vendorServer?.close();
  });

  it("delivers a return to the source's endpoint and records its answer on the feedback-sent event", async () => {
    const { answer, sent, leadId } = await feedbackOn(
      { email: 'nora@example.com', vendor_ref: 'V-77' },
      { type: 'return', reason: 'Disconnected number' },
    );
    expect(answer.status).toBe(201);
    expect(received()).toEqual([
      expect.objectContaining({
        lead_id: leadId,
        type: 'return',
        reason: 'Disconnected number',
        vendor_ref: 'V-77',
        event_id: sent.id,
      }),
    ]);
    expect(sent).toMatchObject({
      type: 'feedback-sent',
      outcome: 'success',
      module_id: 'platform-custom.outbound.json',
    });
    expect(sent.transactions).toHaveLength(1);
    expect(sent.transactions[0].response.status).toBe(200);
  });

  it('tries again after connection errors, and records every attempt', async () => {
    vendorServer.resets = 2;
    const { sent } = await feedbackOn({ email: 'retry@example.com' }, { type: 'return', reason: 'Wrong number' });
    expect(received()).toHaveLength(1);
    expect(sent.outcome).toBe('success');
    expect(sent.transactions.map((t: { response: unknown }) => t.response === null)).toEqual([true, true, false]);
  });

  it('gives up after its retries, and never retries an answer', async () => {
    vendorServer.resets = 5;
    const down = await feedbackOn({ email: 'down@example.com' }, { type: 'return', reason: 'Wrong number' });
    expect(down.sent.outcome).toBe('error');
    expect(down.sent.transactions).toHaveLength(3);
    vendorServer.resets = 0;
    vendorServer.answer = UNKNOWN_LEAD;
    const refused = await feedbackOn({ email: 'refused@example.com' }, { type: 'return', reason: 'Wrong number' });
    expect(refused.sent).toMatchObject({ outcome: 'failure' });
    expect(refused.sent.transactions).toHaveLength(1);
    expect(received()).toHaveLength(1);
  });

  it("sends nothing when the source's criteria do not pass", async () => {
    const { sent } = await feedbackOn({ email: 'conv@example.com' }, { type: 'conversion', reason: 'sold' });
    expect(sent).toMatchObject({ outcome: 'failure' });
    expect(sent.transactions).toBeUndefined();
    expect(received()).toHaveLength(0);
  });

  it('refuses a flow whose forwarding names a module that is not installed or a bad configuration', async () => {
    const res = await req({
      path: '/flows',
      key: f.keys.demo,
      json: {
        name: 'Bad forwarding',
        sources: [
          {
            entity_id: vendor,
            feedback: { enabled: true, forward_to: { module_id: 'platform-nope.outbound.x', config: {} } },
          },
        ],
      },
    });
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual(['/sources/0/feedback/forward_to/module_id']);
    const badConfig = await req({
      path: '/flows',
      key: f.keys.demo,
      json: {
        name: 'Bad config',
        sources: [
          {
            entity_id: vendor,
            feedback: { enabled: true, forward_to: { module_id: 'platform-custom.outbound.json', config: {} } },
          },
        ],
      },
    });
    expect(badConfig.body.errors.map((e: { path: string }) => e.path)).toEqual([
      '/sources/0/feedback/forward_to/config/url',
    ]);
  });
});
