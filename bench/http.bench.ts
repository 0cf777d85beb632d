import type { AddressInfo } from 'node:net';
import { createLeadService, scriptedRecipient } from '@leadroute/core';
import { expressRouter } from '@leadroute/express';
import { leadroute } from '@leadroute/fastify';
import { memoryStorage } from '@leadroute/memory';
import autocannon from 'autocannon';
import express from 'express';
import Fastify from 'fastify';
import type { BenchRow } from './harness';
import { median } from './harness';

// Feedback POSTs per second and p99 latency through the Express router and the
// Fastify plugin on loopback, against a bare Express and a bare Fastify handler
// that parse the same JSON and answer the same body. Servers and load share this
// process, alike for every candidate.

interface Load {
  readonly rps: number;
  readonly p99: number;
}

async function load(url: string, body: string, seconds: number): Promise<Load> {
  const result = await autocannon({ url, method: 'POST', headers: { 'content-type': 'application/json' }, body, connections: 20, duration: seconds });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`[bench] ${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return { rps: result.requests.average, p99: result.latency.p99 };
}

/**
 * Bare and ours in alternating 2-second rounds, each figure the median of its
 * rounds: a machine busy with other work slows both alike instead of whichever
 * happened to run during the busy moment.
 */
async function alternate(bareUrl: string, oursUrl: string, body: string, rounds = 5): Promise<{ bare: Load; ours: Load }> {
  await load(bareUrl, body, 1);
  await load(oursUrl, body, 1);
  const bare: Load[] = [];
  const ours: Load[] = [];
  for (let i = 0; i < rounds; i++) {
    bare.push(await load(bareUrl, body, 2));
    ours.push(await load(oursUrl, body, 2));
  }
  const summary = (loads: Load[]): Load => ({ rps: median(loads.map((l) => l.rps)), p99: median(loads.map((l) => l.p99)) });
  return { bare: summary(bare), ours: summary(ours) };
}

async function feedbackService() {
  const buyer = scriptedRecipient();
  buyer.respondWith({ outcome: 'success', reference: 'R-1' });
  const service = createLeadService({ storage: memoryStorage(), integrations: [buyer], host: 'bench', exports: { worker: false } });
  const { api_key } = (await service.accounts.create({ name: 'Bench' }))._unsafeUnwrap();
  const principal = (await service.accounts.authenticate(api_key))._unsafeUnwrap();
  const entity = async (body: object) => (await service.entities.create(principal, { module_ids: [], source: null, recipient: null, ...body }))._unsafeUnwrap().id;
  const vendor = await entity({ name: 'Vendor', source: 'seller' });
  const recipient = await entity({ name: 'Buyer', recipient: 'buyer' });
  const flow = (await service.flows.create(principal, { name: 'F', sources: [{ entity_id: vendor }], steps: [{ type: 'recipient', entity_id: recipient, module_id: buyer.id, feedback: { enabled: true } }] }))._unsafeUnwrap();
  await service.leads.submit(flow.id, vendor, { first_name: 'Ada', email: 'ada@example.com' });
  const event = (await service.events.list(principal, { type: 'recipient', limit: 1 }))._unsafeUnwrap()[0] as { id: string };
  return { service, eventId: event.id };
}

export default async function bench(): Promise<BenchRow[]> {
  const { service, eventId } = await feedbackService();
  const body = JSON.stringify({ type: 'conversion', reason: 'sold' });
  const sample = { outcome: 'success', price: 0, lead: { id: eventId, first_name: 'Ada', last_name: '', email: 'ada@example.com', phone_1: '' } };

  const ex = express();
  ex.use('/api', expressRouter(service));
  ex.post('/bare/feedback', express.json(), (req, res) => {
    if (typeof req.body?.type !== 'string') return void res.status(400).end();
    res.status(201).json(sample);
  });
  const exServer = ex.listen(0, '127.0.0.1');
  await new Promise((r) => exServer.once('listening', r));
  const exUrl = `http://127.0.0.1:${(exServer.address() as AddressInfo).port}`;

  const fa = Fastify();
  await fa.register(leadroute, { service, prefix: '/api' });
  fa.post('/bare/feedback', async (req, reply) => {
    if (typeof (req.body as { type?: unknown } | undefined)?.type !== 'string') return reply.code(400).send();
    return reply.code(201).send(sample);
  });
  await fa.listen({ port: 0, host: '127.0.0.1' });
  const faUrl = `http://127.0.0.1:${(fa.server.address() as AddressInfo).port}`;

  const rows: BenchRow[] = [];
  const at = new Date().toISOString();
  for (const [name, base] of [['express', exUrl], ['fastify', faUrl]] as const) {
    const { bare, ours } = await alternate(`${base}/bare/feedback`, `${base}/api/feedback?event_id=${eventId}`, body);
    const ratio = ours.rps / bare.rps;
    rows.push(
      { name: `http: feedback POST req/s through ${name}`, unit: 'ops/s', value: ours.rps, baseline: `bare ${name}`, baselineValue: bare.rps, ratio, target: '>= 0.8', met: ratio >= 0.8, measuredAt: at },
      { name: `http: feedback POST p99 latency through ${name}`, unit: 'ms', value: ours.p99, baseline: `bare ${name}`, baselineValue: bare.p99, ratio: bare.p99 / ours.p99, measuredAt: at },
    );
  }
  exServer.close();
  await fa.close();
  return rows;
}
