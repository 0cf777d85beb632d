import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createClient } from '@leadroute/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startExample } from './support/example';
import { type RecipientServer, startRecipientServer } from './support/recipient-server';

describe('@leadroute/client against the example server', () => {
  const key = 'client-test-key-0123456789';
  let child: ChildProcess;
  let recipient: RecipientServer;
  let api: ReturnType<typeof createClient>;

  beforeAll(async () => {
    recipient = await startRecipientServer();
    const started = await startExample({ LEADROUTE_API_KEY: key, LEADROUTE_FREE_API_KEY: 'client-test-free-key-0123' });
    child = started.child;
    api = createClient({ baseUrl: started.url, apiKey: key });
  }, 40_000);

  afterAll(async () => {
    child.kill('SIGTERM');
    if (child.exitCode === null) await once(child, 'exit');
    await recipient.close();
  });

  it('reads entities and answers typed errors as values', async () => {
    const entities = (await api.entities.list())._unsafeUnwrap();
    expect(entities.map((e) => e.name)).toContain('Acme Insurance');
    const missing = await api.entities.get('aaaaaaaaaaaaaaaaaaaaaaaa');
    expect(missing._unsafeUnwrapErr()).toMatchObject({ type: 'http', status: 404, problem: { code: 'NotFound' } });
    // Typed from the schema: a body without module_ids, source and recipient does not compile.
    // @ts-expect-error: module_ids, source and recipient are required
    expect((await api.entities.create({ name: 'x' }))._unsafeUnwrapErr()).toMatchObject({ status: 422 });
    const invalid = await api.entities.create({ name: '', module_ids: [], source: null, recipient: null });
    expect(invalid._unsafeUnwrapErr()).toMatchObject({ status: 422, problem: { code: 'Validation' } });
    const spec = (await api.request<{ openapi: string }>({ method: 'GET', path: '/openapi.json' }))._unsafeUnwrap();
    expect(spec.openapi).toBe('3.1.0');
  });

  it('runs a lead from a source through a flow to a real recipient and reads its events', async () => {
    const vendor = (
      await api.entities.create({ name: 'Client Vendor', module_ids: [], source: 'seller', recipient: null })
    )._unsafeUnwrap();
    const buyer = (
      await api.entities.create({
        name: 'Client Buyer',
        module_ids: ['platform-custom.outbound.json'],
        source: null,
        recipient: 'buyer',
      })
    )._unsafeUnwrap();
    const flow = (
      await api.flows.create({
        name: 'Client flow',
        sources: [{ entity_id: vendor.id }],
        steps: [
          {
            type: 'recipient',
            entity_id: buyer.id,
            module_id: 'platform-custom.outbound.json',
            config: { url: recipient.url, outcome_path: 'result', reference_path: 'id', price_path: 'price' },
          },
        ],
      })
    )._unsafeUnwrap();
    const result = (
      await api.leads.submit(flow.id, vendor.id, { first_name: 'Grace', email: 'grace@example.com' })
    )._unsafeUnwrap();
    expect(result).toMatchObject({ outcome: 'success', price: 7.5 });
    expect(recipient.received.at(-1)).toMatchObject({ first_name: 'Grace' });
    const events = (await api.events.list({ type: 'recipient', limit: 5 }))._unsafeUnwrap();
    expect(events[0]).toMatchObject({ lead_id: result.lead.id, outcome: 'success' });
    expect((await api.events.get(events[0]?.id ?? ''))._unsafeUnwrap().id).toBe(events[0]?.id);
  });

  it('reports a network failure as a value', async () => {
    const dead = createClient({ baseUrl: 'http://127.0.0.1:9', apiKey: key, timeoutMs: 2000 });
    expect((await dead.entities.list())._unsafeUnwrapErr().type).toBe('network');
  });
});
