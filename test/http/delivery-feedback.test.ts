import type { EntityCreateBody } from '@leadroute/core';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../support/call';
import { createFixture, type Fixture } from '../support/fixture';
import { BINDINGS, type Binding, startBinding } from '../support/servers';

// Feedback end to end with no side channel (spec, feedback rule 3): a lead posted to a
// flow is delivered by the built-in JSON delivery to a buyer's server, and the buyer
// sends feedback with the delivery event ID exactly as it received it: from the header,
// from the body, and from a field the step mapped with {{event_id}}.
describe.each(BINDINGS)('#19.1 the delivery event ID reaches the buyer and authorizes its feedback (%s)', (name) => {
  let f: Fixture;
  let binding: Binding;
  let buyer: Server;
  const received: { headers: IncomingHttpHeaders; body: Record<string, unknown> }[] = [];
  let intake: string;

  beforeAll(async () => {
    buyer = createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8').on('data', (c: string) => void (body += c));
      req.on('end', () => {
        received.push({ headers: req.headers, body: JSON.parse(body) as Record<string, unknown> });
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ outcome: 'success', reference: `CRM-${received.length}` }));
      });
    });
    await new Promise<void>((resolve) => buyer.listen(0, '127.0.0.1', resolve));
    const buyerUrl = `http://127.0.0.1:${(buyer.address() as AddressInfo).port}/leads`;
    f = await createFixture();
    binding = await startBinding(name, f.service);
    const principal = (await f.service.accounts.authenticate(f.keys.demo))._unsafeUnwrap();
    const entity = async (body: { name: string } & Partial<EntityCreateBody>) =>
      (
        await f.service.entities.create(principal, { module_ids: [], source: null, recipient: null, ...body })
      )._unsafeUnwrap().id;
    const vendor = await entity({ name: 'Vendor', source: 'seller' });
    const recipient = await entity({ name: 'Buyer CRM', recipient: 'buyer' });
    const flow = (
      await f.service.flows.create(principal, {
        name: 'To the CRM',
        sources: [{ entity_id: vendor }],
        steps: [
          {
            type: 'recipient',
            entity_id: recipient,
            module_id: 'platform-custom.outbound.json',
            config: { url: buyerUrl },
            feedback: { enabled: true },
            mappings: [{ property: 'our_ref', value: '{{event_id}}' }],
          },
        ],
      })
    )._unsafeUnwrap();
    intake = `/flows/${flow.id}/sources/${vendor}/submit`;
  });

  afterAll(async () => {
    await binding.close();
    buyer.closeAllConnections();
    await new Promise((resolve) => buyer.close(resolve));
  });

  const submit = async () => {
    const res = await call(binding.url, { path: intake, json: { first_name: 'Ada', email: 'ada@example.com' } });
    expect(res.status, res.text).toBe(201);
    return received.at(-1) ?? expect.unreachable();
  };

  it('#19.1 the buyer receives one ID in the X-Leadroute-Event-Id header, the event_id field and a {{event_id}} mapping', async () => {
    const got = await submit();
    const id = got.headers['x-leadroute-event-id'];
    expect(id).toMatch(/^[0-9a-f]{24}$/);
    expect(got.body).toMatchObject({ first_name: 'Ada', event_id: id, our_ref: id });
  });

  it('#19.1 a conversion posted with the ID from the header is accepted', async () => {
    const got = await submit();
    const res = await call(binding.url, {
      path: `/feedback?event_id=${String(got.headers['x-leadroute-event-id'])}`,
      json: { type: 'conversion', reason: 'sold' },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ outcome: 'success' });
  });

  it('#19.1 a return sent by GET with the ID from the body is accepted, and from the mapped field too', async () => {
    const first = await submit();
    const byBody = await call(binding.url, {
      path: `/feedback?event_id=${String(first.body.event_id)}&type=return&reason=fake`,
    });
    expect(byBody.status, byBody.text).toBe(201);
    const second = await submit();
    const byMapping = await call(binding.url, {
      path: `/feedback?event_id=${String(second.body.our_ref)}`,
      json: { type: 'conversion' },
    });
    expect(byMapping.status, byMapping.text).toBe(201);
  });
});
