import { scriptedRecipient } from '@leadroute/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Call } from '../support/call';
import type { Fixture } from '../support/fixture';
import { type Stack, stackCases, startStack } from '../support/stack';

// #24.2 normalized values: deliveries send each standard field's normal form (what was received when it is not
// valid, or when a mapping asks for raw), and rules read raw, normal, valid and the parts. Both bindings, memory
// and PostgreSQL.
const CASES = await stackCases('test/http/normalized-values.test.ts');

describe.each(CASES)('#24.2 normalized values through %s on %s', (bindingName, storageName) => {
  let stack: Stack;
  let f: Fixture;
  const scripted = scriptedRecipient();
  scripted.respondWith({ outcome: 'success' });
  let vendor: string;
  let buyer: string;
  const req = (c: Call) => stack.req(c);
  const entity = async (body: Record<string, unknown>) =>
    (
      await req({
        path: '/entities',
        key: f.keys.demo,
        json: { module_ids: [], source: null, recipient: null, ...body },
      })
    ).body.id as string;
  const flow = async (step: Record<string, unknown>) => {
    const res = await req({
      path: '/flows',
      key: f.keys.demo,
      json: {
        name: 'Normal',
        sources: [{ entity_id: vendor }],
        steps: [{ type: 'recipient', entity_id: buyer, module_id: scripted.id, ...step }],
      },
    });
    expect(res.status, res.text).toBe(201);
    return res.body.id as string;
  };
  const submit = (flowId: string, lead: Record<string, unknown>) =>
    req({ path: `/flows/${flowId}/sources/${vendor}/submit`, json: lead });

  beforeAll(async () => {
    stack = await startStack(bindingName, storageName, {
      integrations: [scripted],
    });
    f = stack.f;
    vendor = await entity({ name: 'Vendor', source: 'seller' });
    buyer = await entity({ name: 'Buyer', recipient: 'buyer' });
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('delivers normal forms by default, what was received when invalid or when a mapping asks for raw', async () => {
    const id = await flow({
      mappings: [
        { property: 'phone_as_sent', value: '{{lead.phone_1}}', raw: true },
        { property: 'zip', value: '{{lead.postal_code}}' },
        { property: 'zip_plus4', value: '{{lead.postal_code.full}}' },
        { property: 'area_code', value: '{{lead.phone_1.area}}' },
      ],
    });
    const res = await submit(id, {
      email: ' Nora@Example.COM ',
      phone_1: '(512) 555-0142',
      phone_2: 'call me maybe',
      state: 'texas',
      postal_code: '78701-1234',
      first_name: 'Nora',
      vendor_field: 'kept as sent',
    });
    expect(res.body.outcome).toBe('success');
    expect(scripted.received.at(-1)?.lead).toMatchObject({
      email: 'nora@example.com',
      phone_1: '+15125550142',
      phone_2: 'call me maybe',
      state: 'TX',
      postal_code: '78701',
      first_name: 'Nora',
      vendor_field: 'kept as sent',
      phone_as_sent: '(512) 555-0142',
      zip: '78701',
      zip_plus4: '78701-1234',
      area_code: '512',
    });
  });

  it('lets rules read each form and part', async () => {
    const rule = (lhv: string, op: string, rhv?: unknown) => ({ lhv, op, ...(rhv === undefined ? {} : { rhv }) });
    const id = await flow({
      rule_set: {
        op: 'and',
        rules: [
          rule('lead.phone_1.valid', 'is true'),
          rule('lead.phone_1.area', 'is equal to', '512'),
          rule('lead.phone_1.area_code', 'is equal to', '512'),
          rule('lead.state.normal', 'is equal to', 'TX'),
          rule('lead.state.raw', 'is equal to', 'Texas'),
          rule('lead.postal_code.plus4', 'is equal to', '1234'),
          rule('lead.email.valid', 'is true'),
        ],
      },
    });
    const before = scripted.received.length;
    await submit(id, { phone_1: '512-555-0142', state: 'Texas', postal_code: '78701 1234', email: 'a@b.co' });
    expect(scripted.received.length - before).toBe(1);
    await submit(id, { phone_1: '512-555-0142', state: 'TX', postal_code: '78701 1234', email: 'a@b.co' });
    expect(scripted.received.length - before).toBe(1);
  });

  it("types fields named after Object's members as strings: the lead is taken and delivered, not a 500", async () => {
    const id = await flow({
      rule_set: { op: 'and', rules: [{ lhv: 'lead.toString', op: 'is equal to', rhv: 'x' }] },
    });
    const lead = { toString: 'x', valueOf: 'v', hasOwnProperty: 'h', state: 'TX', email: 'a@b.co' };
    const res = await submit(id, lead);
    expect(res.status, res.text).toBe(201);
    expect(res.body.outcome).toBe('success');
    expect(scripted.received.at(-1)?.lead).toMatchObject({ ...lead });
  });
});
