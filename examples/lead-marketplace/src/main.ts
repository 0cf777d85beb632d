import { fileURLToPath } from 'node:url';
import { createLeadService } from '@leadroute/core';
import { expressRouter } from '@leadroute/express';
import { memoryStorage } from '@leadroute/memory';
import express from 'express';
import { type Party, startBuyers, startParty } from './parties';

/** What the walk-through saw, step by step: the test checks it, `npm start` prints it. */
export interface Walkthrough {
  readonly ping: Record<string, unknown>;
  readonly post: Record<string, unknown>;
  readonly deliveredTo: string[];
  readonly deliveredAs: Record<string, unknown> | undefined;
  readonly duplicate: Record<string, unknown>;
  readonly filtered: Record<string, unknown>;
  readonly feedback: Record<string, unknown>;
  readonly forwardedToVendor: Record<string, unknown>[];
}

const KEY = 'marketplace-demo-key-0123456789';

/**
 * Runs the marketplace end to end over HTTP, as vendors and buyers would: an account, two
 * vendors, three buyers on real local servers (JSON, form, XML), one flow with a duplicate
 * check, a filter and a ping/post auction, a return forwarded to the vendor.
 */
export async function runMarketplace(log: (line: string) => void = () => undefined): Promise<Walkthrough> {
  const { acme, bluebonnet, cardinal } = await startBuyers();
  const vendorEndpoint = await startParty('East Leads feedback endpoint', () => [
    200,
    'application/json',
    '{"outcome":"success"}',
  ]);
  const service = createLeadService({ storage: memoryStorage() });
  (await service.accounts.create({ name: 'Marketplace', time_zone: 'America/Chicago', api_key: KEY }))._unsafeUnwrap();
  const app = express();
  app.use('/api', expressRouter(service));
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const address = server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/api`;
  const auth = { authorization: `Basic ${Buffer.from(`API:${KEY}`).toString('base64')}` };
  const api = async (path: string, body?: unknown, headers: Record<string, string> = auth) => {
    const res = await fetch(base + path, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    // biome-ignore lint/suspicious/noExplicitAny: a walk-through reads the API's JSON answers freely.
    const json = (await res.json()) as any;
    if (res.status >= 400) throw new Error(`${path} answered ${res.status}: ${JSON.stringify(json)}`);
    return json;
  };
  const entity = async (name: string, role: 'source' | 'recipient') =>
    (
      await api('/entities', {
        name,
        module_ids: [],
        source: role === 'source' ? 'seller' : null,
        recipient: role === 'recipient' ? 'buyer' : null,
      })
    ).id as string;

  try {
    const east = await entity('East Leads', 'source');
    const west = await entity('West Leads', 'source');
    const ids = {
      acme: await entity('Acme Insurance', 'recipient'),
      bluebonnet: await entity('Bluebonnet Auto', 'recipient'),
      cardinal: await entity('Cardinal Mutual', 'recipient'),
    };
    const texas = { op: 'and', rules: [{ lhv: 'lead.state', op: 'is equal to', rhv: 'TX' }] };
    const buyer = (party: Party, id: string, module: string, config: Record<string, unknown>, prices: unknown[]) => ({
      type: 'recipient',
      entity_id: id,
      module_id: `platform-custom.outbound.${module}`,
      config: { url: `${party.url}/leads`, ...config },
      pricing: { override: true, prices },
      feedback: { enabled: true },
    });
    const flow = await api('/flows', {
      name: 'Auto insurance marketplace',
      acceptance_criteria: { op: 'and', rules: [{ lhv: 'lead.state', op: 'is included in', rhv: ['TX', 'OK', 'LA'] }] },
      // The same e-mail or phone within 30 days, from either vendor, is a duplicate.
      duplicate_check: { fields: ['email', 'phone_1'], match: 'any', duration: 30, duration_units: 'days' },
      ping_validity_seconds: 60,
      sources: [
        {
          entity_id: east,
          // Returns go back to East Leads, to its own endpoint.
          feedback: {
            enabled: true,
            rule_set: { op: 'and', rules: [{ lhv: 'feedback.type', op: 'is equal to', rhv: 'return' }] },
            forward_to: {
              module_id: 'platform-custom.outbound.json',
              config: { url: `${vendorEndpoint.url}/returns` },
            },
          },
        },
        { entity_id: west },
      ],
      steps: [
        {
          type: 'filter',
          entity_id: ids.acme,
          rule_set: { op: 'and', rules: [{ lhv: 'lead.phone_1.valid', op: 'is false' }], reason: 'Invalid phone' },
        },
        buyer(acme, ids.acme, 'json', {}, [{ amount: 9 }, { amount: 18, rule_set: texas }]),
        buyer(
          bluebonnet,
          ids.bluebonnet,
          'form',
          { outcome_search: 'accepted', reference_pattern: 'id=([A-Z]+-\\d+)' },
          [
            { amount: 0 },
            {
              amount: 22,
              rule_set: { op: 'and', rules: [...texas.rules, { lhv: 'lead.phone_1.mobile', op: 'is true' }] },
            },
          ],
        ),
        buyer(
          cardinal,
          ids.cardinal,
          'xml',
          { outcome_path: '/response/status', success_value: 'accepted', reference_path: 'string(/response/leadId)' },
          [{ amount: 20 }],
        ),
      ],
    });
    log(`Flow ${flow.id}: 2 vendors, a duplicate check, a filter, 3 buyers (JSON, form, XML).`);

    const intake = (source: string, kind: 'ping' | 'submit', lead: Record<string, unknown>) =>
      api(`/flows/${flow.id}/sources/${source}/${kind}`, lead, {});
    const pingData = { state: 'TX', postal_code: '78701', phone_1: '(512) 555-0142' };
    const ping = await intake(east, 'ping', pingData);
    log(`East pings a Texas lead: bid ${ping.price}, ping_id ${ping.ping_id}, valid until ${ping.expires_at}.`);
    const post = await intake(east, 'submit', {
      ...pingData,
      ping_id: ping.ping_id,
      first_name: 'Nora',
      last_name: 'Lovelace',
      email: 'Nora@Example.COM',
    });
    const deliveredTo = [acme, bluebonnet, cardinal].filter((b) => b.received.length > 0).map((b) => b.name);
    const deliveredAs = bluebonnet.received[0]?.fields;
    log(
      `East posts it with the ping_id: ${post.outcome} at ${post.price}, delivered to ${deliveredTo.join(', ')} only.`,
    );
    log(`  Bluebonnet read the form: ${JSON.stringify(deliveredAs)}`);

    const duplicate = await intake(west, 'submit', { state: 'OK', phone_1: '405-555-0100', email: 'nora@example.com' });
    log(`West posts the same e-mail: ${duplicate.outcome}, ${duplicate.reason}.`);
    const filtered = await intake(west, 'submit', { state: 'LA', phone_1: '123', email: 'max@example.com' });
    log(`West posts a lead with a bad phone: ${filtered.outcome}, ${filtered.reason}.`);

    // Bluebonnet returns the lead: it names the delivery event it was sent with.
    const lead = (post.lead as { id: string }).id;
    const rules = encodeURIComponent(
      JSON.stringify([
        { lhv: 'lead_id', op: 'is equal to', rhv: lead },
        { lhv: 'type', op: 'is equal to', rhv: 'recipient' },
      ]),
    );
    const [delivery] = (await api(`/events?rules=${rules}`)) as { id: string }[];
    const feedback = await api(
      `/feedback?event_id=${delivery?.id}`,
      { type: 'return', reason: 'Disconnected number' },
      {},
    );
    log(
      `Bluebonnet returns it: ${feedback.outcome}; East Leads' endpoint got ${JSON.stringify(vendorEndpoint.received.map((r) => r.fields.type))}.`,
    );
    return {
      ping,
      post,
      deliveredTo,
      deliveredAs,
      duplicate,
      filtered,
      feedback,
      forwardedToVendor: vendorEndpoint.received.map((r) => r.fields),
    };
  } finally {
    await new Promise((resolve) => server.close(resolve));
    await service.close();
    await Promise.all([acme, bluebonnet, cardinal, vendorEndpoint].map((p) => p.close()));
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await runMarketplace(console.log);
