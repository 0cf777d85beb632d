import { allOf, defineFlow, type EventRecord, errors, type Flow, rule } from '@leadroute/core';
import { err, errAsync, ok } from 'neverthrow';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { createTestService } from './flows';
import { UnwrapError, unwrap } from './unwrap';

describe('unwrap', () => {
  it('returns the value of an Ok, and of a ResultAsync as a promise', async () => {
    expect(unwrap(ok(3))).toBe(3);
    const t = await createTestService();
    const flows = unwrap(await t.service.flows.list(t.principal));
    expect(flows).toEqual([]);
    await expect(unwrap(t.service.flows.list(t.principal))).resolves.toEqual([]);
  });

  it('throws an Error that lists each validation issue as path: message and carries the issues', () => {
    const issues = [
      { path: '/steps/0/type', message: '/steps/0/type must be recipient or filter.' },
      { path: '', message: 'The flow must be a JSON object.' },
    ];
    let thrown: unknown;
    try {
      unwrap(err(errors.validation(issues, 'The flow is not valid.')));
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(UnwrapError);
    expect(thrown).toBeInstanceOf(Error);
    expect((thrown as UnwrapError).issues).toEqual(issues);
    expect((thrown as UnwrapError).error).toMatchObject({ type: 'Validation' });
    expect((thrown as Error).message).toBe(
      [
        'Validation: The flow is not valid.',
        '  /steps/0/type: /steps/0/type must be recipient or filter.',
        '  (root): The flow must be a JSON object.',
      ].join('\n'),
    );
  });

  it('says what any other Err was', async () => {
    expect(() => unwrap(err('no such lead'))).toThrow(/^no such lead$/);
    expect(() => unwrap(err(new RangeError('too far')))).toThrow('RangeError: too far');
    expect(() => unwrap(err({ code: 7 }))).toThrow('{"code":7}');
    await expect(unwrap(errAsync(errors.notFound('flow', 'x')))).rejects.toThrow('NotFound: No flow with ID x.');
    await expect(unwrap(errAsync(errors.notFound('flow', 'x')))).rejects.toMatchObject({ issues: [] });
  });
});

describe('createTestService', () => {
  it('creates a typed flow unchanged, and reports a refused one by its issues', async () => {
    const t = await createTestService();
    const { sourceId, recipientId } = await t.entities();
    const body = defineFlow({
      name: 'Typed',
      acceptance_criteria: allOf(
        rule('lead.state', 'is included in', ['TX', 'OK']),
        rule('lead.email', 'is not blank'),
      ),
      sources: [{ entity_id: sourceId, caps: [{ maximum: 5, duration_units: 'days' }] }],
      steps: [
        { type: 'filter', entity_id: recipientId, rule_set: allOf(rule('lead.state', 'is equal to', 'OK')) },
        {
          type: 'recipient',
          entity_id: recipientId,
          module_id: t.recipient.id,
          mappings: [{ property: 'phone', value: '{{ lead.phone_1 }}' }],
        },
      ],
    });
    const flow = await t.createFlow(body);
    expectTypeOf(flow).toEqualTypeOf<Flow>();
    expect(flow.acceptance_criteria?.rules).toMatchObject(body.acceptance_criteria?.rules ?? []);
    expect(flow.steps.map((s) => s.type)).toEqual(['filter', 'recipient']);

    const refused = t.createFlow({
      name: 'Refused',
      sources: [{ entity_id: sourceId }],
      steps: [{ type: 'recipient', entity_id: recipientId, module_id: 'platform-test.outbound.absent' }],
    });
    await expect(refused).rejects.toBeInstanceOf(UnwrapError);
    await expect(refused).rejects.toThrow(
      '/steps/0/module_id: No outbound module platform-test.outbound.absent is installed.',
    );
    await expect(refused).rejects.toMatchObject({
      issues: [{ path: '/steps/0/module_id', message: expect.stringContaining('platform-test.outbound.absent') }],
    });
  });

  it('simpleFlow: one source, one step to the scripted recipient, with the extras given', async () => {
    const t = await createTestService();
    const { flow, sourceId, recipientId } = await t.simpleFlow(
      { name: 'Simple', acceptance_criteria: allOf(rule('lead.state', 'is equal to', 'TX')) },
      { pricing: { prices: [{ amount: 12 }] } },
    );
    expect(flow).toMatchObject({ name: 'Simple', sources: [{ entity_id: sourceId }] });
    expect(flow.steps).toMatchObject([
      { type: 'recipient', entity_id: recipientId, module_id: t.recipient.id, pricing: { prices: [{ amount: 12 }] } },
    ]);
    const accepted = await unwrap(t.service.leads.submit(flow.id, sourceId, { state: 'TX' }));
    expect(accepted.outcome).toBe('success');
    expect(t.recipient.received[0]?.price).toBe(12);
  });

  it("eventsOf: the lead's events, typed, in order, of one type when asked", async () => {
    const t = await createTestService();
    const { flow, sourceId } = await t.simpleFlow();
    t.recipient.queue({ outcome: 'failure', reason: 'Duplicate' });
    const { lead } = await unwrap(t.service.leads.submit(flow.id, sourceId, { email: 'a@example.com' }));
    await unwrap(t.service.leads.submit(flow.id, sourceId, { email: 'b@example.com' }));
    const events = await t.eventsOf(lead.id);
    expectTypeOf(events).toEqualTypeOf<EventRecord[]>();
    expect(events.map((e) => `${e.type}:${e.outcome}`)).toEqual(['source:success', 'recipient:failure']);
    expect(events.every((e) => e.lead_id === lead.id && !('account_id' in e))).toBe(true);
    const [delivery] = await t.eventsOf(lead.id.toUpperCase(), 'recipient');
    expect(delivery).toMatchObject({ type: 'recipient', reason: 'Duplicate', caps_reached: false });
    expect(await t.eventsOf('0'.repeat(24))).toEqual([]);
  });

  it('inject: drives the HTTP handler without a socket, with the account key unless told otherwise', async () => {
    const t = await createTestService();
    const { flow, sourceId } = await t.simpleFlow();
    const submitted = await t.inject<{ outcome: string; lead: { id: string } }>({
      method: 'POST',
      url: `/flows/${flow.id}/sources/${sourceId}/submit`,
      body: { first_name: 'Ada', email: 'ada@example.com' },
      apiKey: false,
    });
    expect(submitted.status).toBe(201);
    expect(submitted.headers['content-type']).toMatch(/^application\/json/);
    expect(submitted.body.outcome).toBe('success');
    expect(await t.eventsOf(submitted.body.lead.id)).toHaveLength(2);

    const read = await t.inject<Flow>({ url: `/flows/${flow.id}` });
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ id: flow.id, name: flow.name });
    expect(JSON.parse(read.text)).toEqual(read.body);

    const anonymous = await t.inject({ url: '/flows', apiKey: false });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers['www-authenticate']).toMatch(/^Basic/);
    expect(anonymous.body).toMatchObject({ status: 401 });

    const refused = await t.inject<{ errors: { path: string }[] }>({
      method: 'POST',
      url: '/flows',
      body: { name: 'Bad', sources: [{ entity_id: sourceId }], steps: [{ type: 'recipeint' }] },
    });
    expect(refused.status).toBe(422);
    expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(refused.body.errors.map((e) => e.path)).toContainEqual(expect.stringMatching(/^\/steps\/0/));

    const text = await t.inject({
      method: 'POST',
      url: `/flows/${flow.id}/sources/${sourceId}/submit`,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
      body: 'first_name=Grace&email=grace%40example.com',
    });
    expect(text.status).toBe(201);
  });
});
