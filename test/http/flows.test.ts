import { scriptedRecipient } from '@leadroute/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Call, call } from '../support/call';
import { createFixture, type Fixture } from '../support/fixture';
import { type RecipientServer, startRecipientServer } from '../support/recipient-server';
import { BINDINGS, type Binding, startBinding } from '../support/servers';

describe.each(BINDINGS)('flows, intake and events over HTTP through %s', (name) => {
  let binding: Binding;
  let f: Fixture;
  let recipient: RecipientServer;
  const scripted = scriptedRecipient();
  let ids: { vendor: string; buyer: string; webhook: string; otherVendor: string };
  const req = (c: Call) => call(binding.url, c);
  const demo = () => f.keys.demo;
  const entity = async (key: string, body: Record<string, unknown>) =>
    (await req({ path: '/entities', key, json: { module_ids: [], source: null, recipient: null, ...body } })).body
      .id as string;
  const createFlow = async (body: Record<string, unknown>, key = demo()) => {
    const res = await req({ path: '/flows', key, json: body });
    expect(res.status, res.text).toBe(201);
    return res.body as { id: string; steps: { id: string }[]; version: number };
  };
  const submit = (flowId: string, lead: Record<string, unknown>, sourceId = ids.vendor, kind = 'submit') =>
    req({ path: `/flows/${flowId}/sources/${sourceId}/${kind}`, json: lead });

  beforeAll(async () => {
    f = await createFixture({ integrations: [scripted] });
    binding = await startBinding(name, f.service);
    recipient = await startRecipientServer();
    ids = {
      vendor: await entity(demo(), { name: 'Vendor A', source: 'seller' }),
      buyer: await entity(demo(), { name: 'Buyer B', recipient: 'buyer' }),
      webhook: await entity(demo(), {
        name: 'Webhook Buyer',
        recipient: 'buyer',
        module_ids: ['platform-custom.outbound.json'],
      }),
      otherVendor: await entity(f.keys.other, { name: 'Other vendor', source: 'seller' }),
    };
  });
  afterAll(async () => {
    await binding.close();
    await recipient.close();
  });

  describe('flow configuration', () => {
    it('creates a flow, assigning step and rule IDs, and reads it back', async () => {
      const flow = await createFlow({
        name: 'Auto leads',
        sources: [{ entity_id: ids.vendor }],
        steps: [
          {
            type: 'recipient',
            entity_id: ids.buyer,
            module_id: scripted.id,
            rule_set: { op: 'and', rules: [{ lhv: 'lead.state', op: 'is equal to', rhv: 'TX' }] },
          },
        ],
      });
      expect(flow.steps[0]?.id).toMatch(/^[0-9a-f]{24}$/);
      const got = await req({ path: `/flows/${flow.id}`, key: demo() });
      expect(got.status).toBe(200);
      expect(got.body.steps[0].rule_set.rules[0].id).toMatch(/^[0-9a-zA-Z]{6}$/);
      expect(got.body).toMatchObject({ name: 'Auto leads', enabled: true, version: 1 });
      expect((await req({ path: '/flows', key: demo() })).body.map((x: { id: string }) => x.id)).toContain(flow.id);
    });

    it('rejects invalid flows with 422 and the path of each problem', async () => {
      const res = await req({
        path: '/flows',
        key: demo(),
        json: {
          name: '',
          sources: [{ entity_id: ids.otherVendor }],
          steps: [
            {
              type: 'recipient',
              entity_id: ids.buyer,
              module_id: 'platform-nope.outbound.x',
              rule_set: { op: 'and', rules: [{ lhv: 'lead.x', op: 'is shiny' }] },
            },
          ],
        },
      });
      expect(res.status).toBe(422);
      const paths = res.body.errors.map((e: { path: string }) => e.path);
      expect(paths).toEqual(expect.arrayContaining(['/name', '/steps/0/rule_set/rules/0/op']));
      const refs = await req({
        path: '/flows',
        key: demo(),
        json: {
          name: 'X',
          sources: [{ entity_id: ids.otherVendor }],
          steps: [{ type: 'recipient', entity_id: ids.buyer, module_id: 'platform-nope.outbound.x' }],
        },
      });
      expect(refs.status).toBe(422);
      expect(refs.body.errors.map((e: { path: string }) => e.path).sort()).toEqual([
        '/sources/0/entity_id',
        '/steps/0/module_id',
      ]);
      const restricted = await req({
        path: '/flows',
        key: demo(),
        json: { name: 'X', steps: [{ type: 'recipient', entity_id: ids.webhook, module_id: scripted.id }] },
      });
      expect(restricted.body.errors[0].message).toMatch(/may only use platform-custom.outbound.json/);
    });

    it('updates a flow, keeping step IDs named in the body and bumping the version', async () => {
      const flow = await createFlow({
        name: 'V1',
        sources: [{ entity_id: ids.vendor }],
        steps: [{ type: 'recipient', entity_id: ids.buyer, module_id: scripted.id }],
      });
      const stepId = flow.steps[0]?.id;
      const res = await req({
        method: 'PUT',
        path: `/flows/${flow.id}`,
        key: demo(),
        json: {
          name: 'V2',
          sources: [{ entity_id: ids.vendor }],
          steps: [
            { id: stepId, type: 'recipient', entity_id: ids.buyer, module_id: scripted.id },
            { type: 'filter', entity_id: ids.buyer },
          ],
        },
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ name: 'V2', version: 2 });
      expect(res.body.steps[0].id).toBe(stepId);
      expect(res.body.steps[1].id).not.toBe(stepId);
    });

    it("answers 404 for another account's flow and 401 without a key", async () => {
      const flow = await createFlow({ name: 'Mine', sources: [{ entity_id: ids.vendor }] });
      expect((await req({ path: `/flows/${flow.id}`, key: f.keys.other })).status).toBe(404);
      expect(
        (await req({ method: 'PUT', path: `/flows/${flow.id}`, key: f.keys.other, json: { name: 'Stolen' } })).status,
      ).toBe(404);
      expect((await req({ path: '/flows' })).status).toBe(401);
    });
  });

  describe('intake', () => {
    it('accepts a lead, delivers it through the scripted recipient with mappings and pricing, and answers the price', async () => {
      scripted.respondWith({ outcome: 'success', reference: 'BUY-1' });
      const flow = await createFlow({
        name: 'Priced',
        sources: [
          {
            entity_id: ids.vendor,
            pricing: {
              prices: [
                { amount: 3 },
                { amount: 5, rule_set: { op: 'and', rules: [{ lhv: 'lead.state', op: 'is equal to', rhv: 'CA' }] } },
              ],
            },
          },
        ],
        steps: [
          {
            type: 'recipient',
            entity_id: ids.buyer,
            module_id: scripted.id,
            pricing: {
              override: true,
              prices: [
                { amount: 10 },
                { amount: 20, rule_set: { op: 'and', rules: [{ lhv: 'lead.state', op: 'is equal to', rhv: 'CA' }] } },
              ],
            },
            mappings: [
              { property: 'full_name', value: '{{ lead.first_name }} {{ lead.last_name }}' },
              {
                property: 'tier',
                value: 'gold',
                rule_set: { op: 'and', rules: [{ lhv: 'lead.state', op: 'is equal to', rhv: 'CA' }] },
              },
            ],
          },
        ],
      });
      const res = await submit(flow.id, {
        first_name: 'Ada',
        last_name: 'Lovelace',
        state: 'ca',
        email: 'ADA@Example.com',
      });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ outcome: 'success', price: 5 });
      expect(res.body.lead.id).toMatch(/^[0-9a-f]{24}$/);
      const delivered = scripted.received.at(-1);
      expect(delivered?.lead).toMatchObject({
        first_name: 'Ada',
        full_name: 'Ada Lovelace',
        tier: 'gold',
        // Delivered in its normal form (#24.2); the e-mail too.
        state: 'CA',
        email: 'ada@example.com',
      });
      expect(delivered?.price).toBe(20);
      const events = (
        await req({
          path: `/events?rules=${encodeURIComponent(JSON.stringify([{ lhv: 'lead_id', op: 'is equal to', rhv: res.body.lead.id }]))}`,
          key: demo(),
        })
      ).body;
      const recipientEvent = events.find((e: { type: string }) => e.type === 'recipient');
      expect(recipientEvent).toMatchObject({
        outcome: 'success',
        sale_price: 20,
        revenue: 20,
        purchase_price: 5,
        key: 'BUY-1',
        caps_reached: false,
        step_id: flow.steps[0]?.id,
      });
      expect(recipientEvent.vars).toMatchObject({ price: 20, purchase_price: 5, event_id: recipientEvent.id });
      const sourceEvent = events.find((e: { type: string }) => e.type === 'source');
      expect(sourceEvent).toMatchObject({
        outcome: 'success',
        step_count: 1,
        acceptance_criteria: { outcome: 'success' },
      });
      expect(sourceEvent.request.body).toContain('Lovelace');
      expect(new Date(sourceEvent.expires_at).getTime() - sourceEvent.start_timestamp).toBe(90 * 24 * 3600 * 1000);
    });

    it('fails a lead that does not meet acceptance criteria, with the reason, and runs no step', async () => {
      const before = scripted.received.length;
      const flow = await createFlow({
        name: 'Strict',
        acceptance_criteria: { op: 'and', rules: [{ lhv: 'lead.state', op: 'is included in', rhv: ['TX', 'CA'] }] },
        sources: [{ entity_id: ids.vendor }],
        steps: [{ type: 'recipient', entity_id: ids.buyer, module_id: scripted.id }],
      });
      const res = await submit(flow.id, { state: 'NY' });
      expect(res.body.outcome).toBe('failure');
      expect(res.body.reason).toMatch(/lead\.state is not included in TX, CA/);
      expect(scripted.received.length).toBe(before);
    });

    it('skips a step whose criteria fail, and stops at a filter that matches', async () => {
      const flow = await createFlow({
        name: 'Filtered',
        sources: [{ entity_id: ids.vendor }],
        steps: [
          {
            type: 'recipient',
            entity_id: ids.buyer,
            module_id: scripted.id,
            rule_set: { op: 'and', rules: [{ lhv: 'lead.state', op: 'is equal to', rhv: 'TX' }] },
          },
          {
            type: 'filter',
            entity_id: ids.buyer,
            rule_set: {
              op: 'and',
              reason: 'No Florida leads',
              rules: [{ lhv: 'lead.state', op: 'is equal to', rhv: 'FL' }],
            },
          },
          { type: 'recipient', entity_id: ids.buyer, module_id: scripted.id },
        ],
      });
      const res = await submit(flow.id, { state: 'FL' });
      expect(res.body).toMatchObject({ outcome: 'failure', reason: 'No Florida leads' });
      const events = (await req({ path: `/events?type=recipient&type=filter&limit=10`, key: demo() })).body.filter(
        (e: { lead_id: string }) => e.lead_id === res.body.lead.id,
      );
      expect(events.map((e: { type: string; outcome: string }) => `${e.type}:${e.outcome}`).sort()).toEqual([
        'filter:failure',
        'recipient:skip',
      ]);
      expect(events.find((e: { type: string }) => e.type === 'recipient').reason).toMatch(
        /lead\.state is not equal to TX/,
      );
    });

    it('reserves caps atomically: parallel leads beyond the cap are skipped with caps_reached', async () => {
      scripted.respondWith({ outcome: 'success' });
      const flow = await createFlow({
        name: 'Capped',
        sources: [{ entity_id: ids.vendor }],
        steps: [
          {
            type: 'recipient',
            entity_id: ids.buyer,
            module_id: scripted.id,
            caps: [{ name: 'Daily 3', maximum: 3, duration: 1, duration_units: 'days' }],
          },
        ],
      });
      const results = await Promise.all(Array.from({ length: 8 }, (_, i) => submit(flow.id, { first_name: `L${i}` })));
      const leadIds = new Set(results.map((r) => r.body.lead.id));
      const events = (await req({ path: '/events?type=recipient&limit=1000', key: demo() })).body.filter(
        (e: { lead_id: string }) => leadIds.has(e.lead_id),
      );
      expect(events.filter((e: { outcome: string }) => e.outcome === 'success')).toHaveLength(3);
      const skipped = events.filter((e: { outcome: string }) => e.outcome === 'skip');
      expect(skipped).toHaveLength(5);
      expect(
        skipped.every(
          (e: { caps_reached: boolean; reason: string }) => e.caps_reached && e.reason === 'Cap reached: Daily 3',
        ),
      ).toBe(true);
    });

    it("#19.8 source events: wait_ms counts the wait on recipients, vars hold nothing appended later, acceptance_criteria has the source's own", async () => {
      scripted.respondWith(async () => {
        await new Promise((resolve) => setTimeout(resolve, 200));
        return { outcome: 'success', appended: { buyer_note: 'later' } };
      });
      const sourceCriteria = { op: 'and', rules: [{ lhv: 'lead.first_name', op: 'is not blank' }] };
      const flow = await createFlow({
        name: 'Source event fields',
        acceptance_criteria: { op: 'and', rules: [{ lhv: 'lead.email', op: 'is blank' }] },
        sources: [{ entity_id: ids.vendor, acceptance_criteria: sourceCriteria }],
        steps: [{ type: 'recipient', entity_id: ids.buyer, module_id: scripted.id }],
      });
      const res = await submit(flow.id, { first_name: 'Wait' });
      scripted.respondWith({ outcome: 'success' });
      const rules = encodeURIComponent(JSON.stringify([{ lhv: 'lead_id', op: 'is equal to', rhv: res.body.lead.id }]));
      const [source] = (await req({ path: `/events?type=source&rules=${rules}`, key: demo() })).body;
      expect(source.wait_ms).toBeGreaterThanOrEqual(190);
      expect(source.overhead_ms).toBe(source.ms - source.wait_ms);
      expect(source.vars.appended).toEqual({});
      // The top-level appended field is what the handling appended, all of it.
      expect(Object.values(source.appended)).toEqual([expect.objectContaining({ buyer_note: 'later' })]);
      expect(source.acceptance_criteria).toMatchObject({
        rule_set: { op: 'and' },
        source_rule_set: { op: 'and', rules: [{ lhv: 'lead.first_name', op: 'is not blank' }] },
        outcome: 'success',
      });
    });

    it("a step's event vars hold what earlier steps appended, as it was then: nothing of its own or of later steps", async () => {
      let n = 0;
      scripted.respondWith(() => ({ outcome: 'success', appended: { nth: ++n } }));
      const flow = await createFlow({
        name: 'Appended snapshots',
        sources: [{ entity_id: ids.vendor }],
        steps: [1, 2, 3].map(() => ({ type: 'recipient', entity_id: ids.buyer, module_id: scripted.id })),
      });
      const res = await submit(flow.id, { first_name: 'Snap' });
      scripted.respondWith({ outcome: 'success' });
      const rules = encodeURIComponent(JSON.stringify([{ lhv: 'lead_id', op: 'is equal to', rhv: res.body.lead.id }]));
      const events = (await req({ path: `/events?type=recipient&sort=asc&rules=${rules}`, key: demo() })).body as {
        step_id: string;
        vars: { appended: Record<string, { nth: number }> };
      }[];
      const steps = events.map((e) => e.step_id);
      expect(events.map((e) => Object.keys(e.vars.appended))).toEqual([[], steps.slice(0, 1), steps.slice(0, 2)]);
      expect(events[2]?.vars.appended[steps[0] as string]).toMatchObject({ nth: 1 });
    });

    it('#19.8 flow_ping_limits and source_ping_limits are on every event of a flow that has them, not only on pings', async () => {
      scripted.respondWith({ outcome: 'success' });
      const flow = await createFlow({
        name: 'Limits everywhere',
        ping_limits: [{ name: 'Flow pings', maximum: 50, duration: 1, duration_units: 'days' }],
        sources: [
          {
            entity_id: ids.vendor,
            ping_limits: [{ name: 'Source pings', maximum: 5, duration: 1, duration_units: 'hours' }],
          },
        ],
        steps: [
          {
            type: 'filter',
            entity_id: ids.buyer,
            rule_set: { op: 'and', rules: [{ lhv: 'lead.state', op: 'is equal to', rhv: 'NY' }] },
          },
          { type: 'recipient', entity_id: ids.buyer, module_id: scripted.id },
        ],
      });
      const res = await submit(flow.id, { first_name: 'Limits', state: 'TX' });
      const rules = encodeURIComponent(JSON.stringify([{ lhv: 'lead_id', op: 'is equal to', rhv: res.body.lead.id }]));
      const events = (await req({ path: `/events?rules=${rules}`, key: demo() })).body as Array<
        Record<string, unknown>
      >;
      expect(events.map((e) => e.type).sort()).toEqual(['filter', 'recipient', 'source']);
      for (const event of events) {
        expect(event.flow_ping_limits, String(event.type)).toEqual([
          expect.objectContaining({ name: 'Flow pings', maximum: 50 }),
        ]);
        expect(event.source_ping_limits, String(event.type)).toEqual([
          expect.objectContaining({ name: 'Source pings', maximum: 5 }),
        ]);
      }
    });

    it('#19.7 records caps as an object by cap ID: the cap, whether the lead counted and whether it was reached', async () => {
      scripted.respondWith({ outcome: 'success' });
      const flow = await createFlow({
        name: 'Caps object',
        sources: [{ entity_id: ids.vendor }],
        steps: [
          {
            type: 'recipient',
            entity_id: ids.buyer,
            module_id: scripted.id,
            caps: [{ name: 'Just one', maximum: 1, duration: 1, duration_units: 'days' }],
          },
        ],
      });
      const first = await submit(flow.id, { first_name: 'one' });
      const second = await submit(flow.id, { first_name: 'two' });
      const capId = (flow.steps[0] as unknown as { caps: { id: string }[] }).caps[0]?.id as string;
      const recipientEvent = async (leadId: string) =>
        (
          await req({
            path: `/events?type=recipient&rules=${encodeURIComponent(JSON.stringify([{ lhv: 'lead_id', op: 'is equal to', rhv: leadId }]))}`,
            key: demo(),
          })
        ).body[0];
      const cap = { name: 'Just one', maximum: 1, duration: 1, duration_units: 'days' };
      const took = await recipientEvent(first.body.lead.id);
      expect(Array.isArray(took.caps)).toBe(false);
      expect(took.caps).toEqual({ [capId]: { ...cap, counted: true, reached: false } });
      expect(await recipientEvent(second.body.lead.id)).toMatchObject({
        outcome: 'skip',
        caps_reached: true,
        caps: { [capId]: { ...cap, counted: false, reached: true } },
      });
    });

    it('gives a cap slot back when delivery fails', async () => {
      const flow = await createFlow({
        name: 'Cap refund',
        sources: [{ entity_id: ids.vendor }],
        steps: [
          {
            type: 'recipient',
            entity_id: ids.buyer,
            module_id: scripted.id,
            caps: [{ name: 'One', maximum: 1, duration: 1, duration_units: 'hours' }],
          },
        ],
      });
      scripted.queue({ outcome: 'failure', reason: 'Buyer said no' });
      await submit(flow.id, { first_name: 'first' });
      scripted.respondWith({ outcome: 'success' });
      const second = await submit(flow.id, { first_name: 'second' });
      const rules = encodeURIComponent(
        JSON.stringify([{ lhv: 'lead_id', op: 'is equal to', rhv: second.body.lead.id }]),
      );
      const events = (await req({ path: `/events?type=recipient&rules=${rules}`, key: demo() })).body;
      expect(events.map((e: { outcome: string }) => e.outcome)).toEqual(['success']);
    });

    it('pings: prices without delivering, and ping limits set ping_limit_reached', async () => {
      const before = scripted.received.length;
      const flow = await createFlow({
        name: 'Ping',
        ping_limits: [{ name: 'Two a day', maximum: 2, duration: 1, duration_units: 'days' }],
        sources: [{ entity_id: ids.vendor }],
        steps: [
          {
            type: 'recipient',
            entity_id: ids.buyer,
            module_id: scripted.id,
            pricing: { override: true, prices: [{ amount: 12.5 }] },
          },
        ],
      });
      const first = await submit(flow.id, { state: 'TX' }, ids.vendor, 'ping');
      expect(first.body).toMatchObject({ outcome: 'success', price: 12.5 });
      await submit(flow.id, { state: 'TX' }, ids.vendor, 'ping');
      const third = await submit(flow.id, { state: 'TX' }, ids.vendor, 'ping');
      expect(third.body).toMatchObject({ outcome: 'failure', reason: 'Ping limit reached.', price: 0 });
      expect(scripted.received.length).toBe(before);
      // Events made within one second are in no particular ID order (#18.1): pick this flow's pings by what they say.
      const rules = encodeURIComponent(JSON.stringify([{ lhv: 'flow_id', op: 'is equal to', rhv: flow.id }]));
      const pings = (await req({ path: `/events?type=ping&rules=${rules}`, key: demo() })).body as {
        ping_limit_reached: boolean;
        outcome: string;
        flow_ping_limits: unknown[];
      }[];
      expect(pings).toHaveLength(3);
      const limited = pings.filter((p) => p.ping_limit_reached);
      expect(limited).toHaveLength(1);
      expect(limited[0]).toMatchObject({ type: 'ping', ping_limit_reached: true, outcome: 'failure' });
      expect(limited[0]?.flow_ping_limits[0]).toMatchObject({
        name: 'Two a day',
        maximum: 2,
        duration_units: 'days',
        time_zone: 'America/New_York',
      });
    });

    it('answers in XML when asked, reads XML and form bodies', async () => {
      const flow = await createFlow({
        name: 'Formats',
        sources: [{ entity_id: ids.vendor }],
        acceptance_criteria: { op: 'and', rules: [{ lhv: 'lead.state', op: 'is equal to', rhv: 'TX' }] },
      });
      const xml = await req({
        path: `/flows/${flow.id}/sources/${ids.vendor}/submit`,
        raw: '<lead><state>TX</state><email>a@b.co</email></lead>',
        headers: { 'content-type': 'application/xml', accept: 'application/xml' },
      });
      expect(xml.status).toBe(201);
      expect(xml.headers.get('content-type')).toMatch(/^application\/xml/);
      expect(xml.text).toMatch(/<result><outcome>success<\/outcome>/);
      const form = await req({
        path: `/flows/${flow.id}/sources/${ids.vendor}/submit`,
        raw: 'state=tx&email=a%40b.co',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(form.body.outcome).toBe('success');
    });

    it('answers 404 for an unknown flow or a source not on the flow, 422 for a non-object lead', async () => {
      const flow = await createFlow({ name: 'Sources', sources: [{ entity_id: ids.vendor }] });
      expect((await submit('aaaaaaaaaaaaaaaaaaaaaaaa', {})).status).toBe(404);
      expect((await submit(flow.id, {}, ids.buyer)).status).toBe(404);
      expect((await req({ path: `/flows/${flow.id}/sources/${ids.vendor}/submit`, json: [1, 2] })).status).toBe(422);
    });

    describe('delivery to a real local HTTP recipient', () => {
      let flowId: string;
      beforeAll(async () => {
        flowId = (
          await createFlow({
            name: 'Webhook',
            sources: [{ entity_id: ids.vendor }],
            steps: [
              {
                type: 'recipient',
                entity_id: ids.webhook,
                module_id: 'platform-custom.outbound.json',
                timeout_ms: 500,
                config: {
                  url: recipient.url,
                  outcome_path: 'result',
                  reason_path: 'reason',
                  price_path: 'price',
                  reference_path: 'id',
                },
              },
              { type: 'recipient', entity_id: ids.buyer, module_id: scripted.id },
            ],
          })
        ).id;
      });
      const run = async (behavior: string) => {
        const res = await submit(flowId, { first_name: 'Web', behavior });
        const events = (await req({ path: '/events?type=recipient&limit=50', key: demo() })).body.filter(
          (e: { lead_id: string }) => e.lead_id === res.body.lead.id,
        );
        return {
          res,
          webhook: events.find((e: { recipient_id: string }) => e.recipient_id === ids.webhook),
          next: events.find((e: { recipient_id: string }) => e.recipient_id === ids.buyer),
        };
      };
      it.each([
        ['accept', 'success', undefined],
        ['reject', 'failure', 'Duplicate lead'],
        ['bad-request', 'failure', 'Missing field'],
        ['error500', 'error', /500/],
        ['slow', 'error', /did not answer/],
        ['garbage', 'error', /not JSON/],
        ['reset', 'error', /could not be reached/],
      ] as const)('%s gives outcome %s, and the next step still runs', async (behavior, outcome, reason) => {
        const started = Date.now();
        const { webhook, next } = await run(behavior);
        expect(webhook.outcome).toBe(outcome);
        if (reason) expect(webhook.reason).toMatch(reason);
        expect(next.outcome).toBe('success');
        expect(Date.now() - started).toBeLessThan(1900);
        expect(webhook.transactions[0].request.body).toContain('"behavior"');
        if (behavior === 'accept') expect(webhook).toMatchObject({ key: expect.stringMatching(/^R-/), revenue: 7.5 });
      });
    });
  });

  describe('events API', () => {
    let leadId: string;
    let eventId: string;
    beforeAll(async () => {
      const flow = await createFlow({
        name: 'Events',
        sources: [{ entity_id: ids.vendor }],
        steps: [{ type: 'recipient', entity_id: ids.buyer, module_id: scripted.id }],
      });
      let last: Awaited<ReturnType<typeof submit>> | undefined;
      for (const state of ['TX', 'CA', 'NV']) last = await submit(flow.id, { state, email: `${state}@example.com` });
      // The last lead by its answer: events of one second list in ID order, which is random (#18.1), so "the newest
      // event" may be another lead's.
      leadId = last?.body.lead.id;
      const byLead = encodeURIComponent(JSON.stringify([{ lhv: 'lead_id', op: 'is equal to', rhv: leadId }]));
      eventId = (await req({ path: `/events?limit=1&rules=${byLead}`, key: demo() })).body[0].id;
    });

    it('lists newest first by default and oldest first with sort=asc', async () => {
      const desc = (await req({ path: '/events?limit=5', key: demo() })).body.map((e: { id: string }) => e.id);
      expect(desc).toEqual([...desc].sort().reverse());
      const asc = (await req({ path: '/events?limit=5&sort=asc', key: demo() })).body.map((e: { id: string }) => e.id);
      expect(asc).toEqual([...asc].sort());
    });

    it('pages with before_id and after_id', async () => {
      const page1 = (await req({ path: '/events?limit=3', key: demo() })).body;
      const page2 = (await req({ path: `/events?limit=3&before_id=${page1[2].id}`, key: demo() })).body;
      expect(page2[0].id < page1[2].id).toBe(true);
      const after = (await req({ path: `/events?limit=1000&sort=asc&after_id=${page2[0].id}`, key: demo() })).body.map(
        (e: { id: string }) => e.id,
      );
      expect(after.slice(0, 3)).toEqual([page1[2].id, page1[1].id, page1[0].id]);
    });

    it('filters by type, time range and rules, and projects with include/exclude', async () => {
      const sources = (await req({ path: '/events?type=source&limit=1000', key: demo() })).body;
      expect(sources.every((e: { type: string }) => e.type === 'source')).toBe(true);
      const future = (await req({ path: `/events?start=${new Date(Date.now() + 60_000).toISOString()}`, key: demo() }))
        .body;
      expect(future).toEqual([]);
      const ranged = (
        await req({
          path: `/events?start=2020-01-01T00:00:00Z&end=${new Date(Date.now() + 60_000).toISOString()}&limit=2`,
          key: demo(),
        })
      ).body;
      expect(ranged).toHaveLength(2);
      const rules = [
        { lhv: 'vars.lead.state', op: 'is equal to', rhv: 'ca' },
        { lhv: 'type', op: 'is equal to', rhv: 'source' },
      ];
      const ca = (await req({ path: `/events?rules=${encodeURIComponent(JSON.stringify(rules))}`, key: demo() })).body;
      expect(ca.length).toBeGreaterThan(0);
      expect(ca.every((e: { vars: { lead: { state: string } } }) => e.vars.lead.state.toUpperCase() === 'CA')).toBe(
        true,
      );
      const ofLead = encodeURIComponent(JSON.stringify([{ lhv: 'lead_id', op: 'is equal to', rhv: leadId }]));
      const slim = (await req({ path: `/events?limit=1&include=type,vars.lead.email&rules=${ofLead}`, key: demo() }))
        .body[0];
      expect(Object.keys(slim).sort()).toEqual(['id', 'type', 'vars']);
      expect(Object.keys(slim.vars)).toEqual(['lead']);
      const noVars = (await req({ path: '/events?limit=1&exclude=vars', key: demo() })).body[0];
      expect(noVars.vars).toBeUndefined();
      expect(noVars.type).toBeDefined();
    });

    it('queries by body with POST /events', async () => {
      const res = await req({
        path: '/events',
        key: demo(),
        json: {
          rules: [{ lhv: 'lead_id', op: 'is equal to', rhv: leadId }],
          limit: 10,
          sort: 'asc',
          include: ['type', 'outcome'],
        },
      });
      expect(res.status).toBe(200);
      // Both events of the lead are made within one second, and IDs of one second are in no particular order (#18.1).
      expect(res.body.map((e: { type: string }) => e.type).sort()).toEqual(['recipient', 'source']);
      const ids = res.body.map((e: { id: string }) => e.id);
      expect(ids).toEqual([...ids].sort());
      expect((await req({ path: '/events', key: demo(), json: [1] })).status).toBe(400);
    });

    it('gets one event by ID', async () => {
      const res = await req({ path: `/events/${eventId}`, key: demo() });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: eventId, lead_id: leadId });
      expect(res.body.account_id).toBeUndefined();
    });

    it.each([
      ['limit=0'],
      ['limit=1001'],
      ['limit=ten'],
      ['sort=up'],
      ['after_id=xyz'],
      ['before_id=123'],
      ['start=yesterday'],
      ['end=2020-13-45'],
      ['rules=not-json'],
      [`rules=${encodeURIComponent('[{"lhv":"x","op":"is sparkly","rhv":"y"}]')}`],
      ['include=type&exclude=vars'],
      ['type=BAD TYPE'],
      ['start=2026-02-01T00:00:00Z&end=2026-01-01T00:00:00Z'],
    ])('answers 400 for %s', async (query) => {
      const res = await req({ path: `/events?${query}`, key: demo() });
      expect(res.status).toBe(400);
      expect(res.body.errors.length).toBeGreaterThan(0);
    });

    it("refuses free accounts and missing keys with 401, and hides other accounts' events as 404", async () => {
      for (const path of ['/events', `/events/${eventId}`]) {
        expect((await req({ path, key: f.keys.free })).status).toBe(401);
        expect((await req({ path })).status).toBe(401);
      }
      expect((await req({ path: '/events', key: f.keys.free, json: {} })).status).toBe(401);
      expect((await req({ path: `/events/${eventId}`, key: f.keys.other })).status).toBe(404);
      expect((await req({ path: '/events', key: f.keys.other })).body).toEqual([]);
      expect((await req({ path: '/events/aaaaaaaaaaaaaaaaaaaaaaaa', key: demo() })).status).toBe(404);
    });
  });
});
