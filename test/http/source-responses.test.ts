import { scriptedRecipient } from '@leadroute/core';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Call } from '../support/call';
import type { Fixture } from '../support/fixture';
import { type Stack, stackCases, startStack } from '../support/stack';

// #24.4 the intake answer follows the source's Accept (JSON, XML, form) and its response template,
// through the HTTP API on both bindings, on memory and PostgreSQL.
const CASES = await stackCases('test/http/source-responses.test.ts');
const xml = new XMLParser({ parseTagValue: false });

describe.each(CASES)('#24.4 source responses through %s on %s', (bindingName, storageName) => {
  let stack: Stack;
  let f: Fixture;
  const scripted = scriptedRecipient();
  scripted.respondWith({ outcome: 'success' });
  let plain: { flow: string; source: string };
  let templated: { flow: string; source: string };
  const req = (c: Call) => stack.req(c);
  const entity = async (body: Record<string, unknown>) =>
    (
      await req({
        path: '/entities',
        key: f.keys.demo,
        json: { module_ids: [], source: null, recipient: null, ...body },
      })
    ).body.id as string;
  const submit = (
    to: { flow: string; source: string },
    lead: Record<string, unknown>,
    accept?: string,
    kind = 'submit',
  ) =>
    req({
      path: `/flows/${to.flow}/sources/${to.source}/${kind}`,
      json: lead,
      ...(accept ? { headers: { accept } } : {}),
    });

  beforeAll(async () => {
    stack = await startStack(bindingName, storageName, {
      integrations: [scripted],
    });
    f = stack.f;
    const vendor = await entity({ name: 'Vendor', source: 'seller' });
    const templatedVendor = await entity({ name: 'Picky vendor', source: 'seller' });
    const buyer = await entity({ name: 'Buyer', recipient: 'buyer' });
    const res = await req({
      path: '/flows',
      key: f.keys.demo,
      json: {
        name: 'Answers',
        sources: [
          { entity_id: vendor },
          {
            entity_id: templatedVendor,
            response_template: {
              status: '{{outcome}}',
              id: '{{lead.id}}',
              bid: '{{price}}',
              ref: '{{lead.vendor_ref}}',
              why: '{{reason}}',
            },
          },
        ],
        steps: [
          {
            type: 'recipient',
            entity_id: buyer,
            module_id: scripted.id,
            pricing: { override: true, prices: [{ amount: 15 }] },
          },
        ],
      },
    });
    expect(res.status, res.text).toBe(201);
    plain = { flow: res.body.id, source: vendor };
    templated = { flow: res.body.id, source: templatedVendor };
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('answers in JSON by default, in XML or as a form when the Accept header asks', async () => {
    const asJson = await submit(plain, { email: 'a@example.com' });
    expect(asJson.headers.get('content-type')).toMatch(/^application\/json/);
    expect(asJson.body).toMatchObject({ outcome: 'success', price: 15, lead: { id: expect.any(String) } });
    const asXml = await submit(plain, { email: 'b@example.com' }, 'application/xml');
    expect(asXml.headers.get('content-type')).toMatch(/^application\/xml/);
    expect(xml.parse(asXml.text).result).toMatchObject({
      outcome: 'success',
      price: '15',
      lead: { id: expect.any(String) },
    });
    const asForm = await submit(plain, { email: 'c@example.com' }, 'application/x-www-form-urlencoded');
    expect(asForm.headers.get('content-type')).toMatch(/^application\/x-www-form-urlencoded/);
    const form = new URLSearchParams(asForm.text);
    expect([form.get('outcome'), form.get('price')]).toEqual(['success', '15']);
    expect(form.get('lead.id')).toMatch(/^[0-9a-f]{24}$/);
    // A vendor that names only what Leadroute cannot speak is told so.
    expect((await submit(plain, { email: 'd@example.com' }, 'text/csv')).status).toBe(406);
  });

  it('answers a source with a response template in the shape it asked for, in each format, for submits and pings', async () => {
    const asJson = await submit(templated, { email: 'e@example.com', vendor_ref: 'V-1' });
    expect(asJson.body).toEqual({
      status: 'success',
      id: expect.stringMatching(/^[0-9a-f]{24}$/),
      bid: 15,
      ref: 'V-1',
      why: '',
    });
    const asXml = await submit(templated, { email: 'f@example.com', vendor_ref: 'V-2' }, 'text/xml');
    expect(xml.parse(asXml.text).result).toMatchObject({ status: 'success', bid: '15', ref: 'V-2' });
    const asForm = new URLSearchParams(
      (await submit(templated, { vendor_ref: 'V-3' }, 'application/x-www-form-urlencoded')).text,
    );
    expect(Object.fromEntries(asForm)).toMatchObject({ status: 'success', bid: '15', ref: 'V-3' });
    const ping = await submit(templated, { vendor_ref: 'V-4' }, undefined, 'ping');
    expect(ping.body).toMatchObject({ status: 'success', bid: 15, ref: 'V-4' });
    // A refused lead: the template's reason field says why.
    const secondFlow = await req({
      path: '/flows',
      key: f.keys.demo,
      json: {
        name: 'Texas only',
        acceptance_criteria: {
          op: 'and',
          rules: [{ lhv: 'lead.state', op: 'is equal to', rhv: 'TX' }],
          reason: 'Texas only',
        },
        sources: [{ entity_id: templated.source, response_template: { ok: '{{outcome}}', message: '{{reason}}' } }],
      },
    });
    const refused = await submit({ flow: secondFlow.body.id, source: templated.source }, { state: 'CA' });
    expect(refused.body).toEqual({ ok: 'failure', message: 'Texas only' });
  });

  it('frames every answer by its length in bytes, never in chunks', async () => {
    const answers = [
      // Characters of two and three bytes in UTF-8: the length is in bytes, not characters.
      await submit(templated, { email: 'g@example.com', vendor_ref: 'Zoë—Ω' }),
      await submit(templated, { vendor_ref: 'Zoë—Ω' }, 'application/xml'),
      await submit(templated, { vendor_ref: 'Zoë—Ω' }, 'application/x-www-form-urlencoded'),
      await submit(plain, { email: 'h@example.com' }, 'text/csv'),
      await req({ path: '/flows', key: 'not-a-key' }),
    ];
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 406, 401]);
    expect(answers[0]?.body.ref).toBe('Zoë—Ω');
    for (const answer of answers) {
      expect(answer.headers.get('transfer-encoding')).toBeNull();
      expect(answer.headers.get('content-length')).toBe(String(Buffer.byteLength(answer.text)));
    }
  });

  it('refuses a template that does not compile, at its path', async () => {
    const res = await req({
      path: '/flows',
      key: f.keys.demo,
      json: { name: 'Bad', sources: [{ entity_id: templated.source, response_template: { id: '{{lead.id' } }] },
    });
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual(['/sources/0/response_template/id']);
  });

  it('refuses a field name outside letters, digits, _ . - (an XML answer would not be well-formed)', async () => {
    const res = await req({
      path: '/flows',
      key: f.keys.demo,
      json: { name: 'Bad', sources: [{ entity_id: templated.source, response_template: { '<bad': '{{outcome}}' } }] },
    });
    expect(res.status, res.text).toBe(422);
    expect(JSON.stringify(res.body.errors)).toContain('/sources/0/response_template');
  });
});
