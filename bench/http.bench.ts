import { request as httpRequest, Agent } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLeadService, type EntityCreateBody, scriptedRecipient } from '@leadroute/core';
import { expressRouter } from '@leadroute/express';
import { leadroute } from '@leadroute/fastify';
import { memoryStorage } from '@leadroute/memory';
import express from 'express';
import Fastify from 'fastify';
import type { BenchRow } from './harness';
import { atMost, median } from './harness';
import { load, loadAtRate, type Measured, startRecipient } from './support/processes';

// Leadroute's HTTP paths through the Express router and the Fastify plugin, each beside
// a bare app on the same framework doing the same work by hand, in the same run:
// - intake: a lead POSTed to a flow with one JSON recipient, against a bare app that
//   parses the body and POSTs it to the same recipient over a keep-alive http.Agent;
// - feedback: a conversion POSTed for a delivery event, against a bare app that parses
//   the body and answers a feedback result;
// - ping: three priced recipient steps at a fixed 200 req/s (open loop,
//   support/rate-worker.ts), against a bare app answering a fixed bid at the same rate
//   (p99 latency is the figure).
// The load generator (autocannon) and the recipient run in processes of their own, so
// this process's CPU is the server's: every row reports server CPU per request too.

type Load = Measured;

const ROUNDS = 5;
const SECONDS = 2;
const CONNECTIONS = 20;

const post = (url: string, body: string, extra: { duration: number }) =>
  load({
    url,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
    connections: CONNECTIONS,
    duration: extra.duration,
  });

const summary = (loads: Load[]): Load => ({
  rps: median(loads.map((l) => l.rps)),
  total: loads.reduce((sum, l) => sum + l.total, 0),
  p50: median(loads.map((l) => l.p50)),
  p99: median(loads.map((l) => l.p99)),
  non2xx: 0,
  errors: 0,
  timeouts: 0,
  cpuMsPerRequest: median(loads.map((l) => l.cpuMsPerRequest)),
});

/**
 * Bare and ours in alternating rounds, each figure the median of its rounds: a machine
 * busy with other work slows both alike instead of whichever ran during the busy moment.
 * With a `rate`, each round sends at that fixed rate (open loop) instead of as fast as
 * the connections allow.
 */
async function alternate(
  bareUrl: string,
  oursUrl: string,
  body: string,
  rate?: number,
): Promise<{ bare: Load; ours: Load }> {
  const round = (url: string, duration: number) =>
    rate ? loadAtRate({ url, body, rate, duration }) : post(url, body, { duration });
  await round(bareUrl, 1);
  await round(oursUrl, 1);
  const bare: Load[] = [];
  const ours: Load[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    bare.push(await round(bareUrl, SECONDS));
    ours.push(await round(oursUrl, SECONDS));
  }
  return { bare: summary(bare), ours: summary(ours) };
}

async function setUp(recipientUrl: string) {
  const buyer = scriptedRecipient();
  buyer.respondWith({ outcome: 'success', reference: 'R-1' });
  const service = createLeadService({
    storage: memoryStorage(),
    integrations: [buyer],
    host: 'bench',
    exports: { worker: false },
  });
  const { api_key } = (await service.accounts.create({ name: 'Bench' }))._unsafeUnwrap();
  const principal = (await service.accounts.authenticate(api_key))._unsafeUnwrap();
  const entity = async (body: { name: string } & Partial<EntityCreateBody>) =>
    (
      await service.entities.create(principal, { module_ids: [], source: null, recipient: null, ...body })
    )._unsafeUnwrap().id;
  const vendor = await entity({ name: 'Vendor', source: 'seller' });
  const recipient = await entity({ name: 'Buyer', recipient: 'buyer' });
  const flow = async (body: object) =>
    (await service.flows.create(principal, { name: 'F', sources: [{ entity_id: vendor }], ...body }))._unsafeUnwrap()
      .id;

  const feedbackFlow = await flow({
    steps: [{ type: 'recipient', entity_id: recipient, module_id: buyer.id, feedback: { enabled: true } }],
  });
  (await service.leads.submit(feedbackFlow, vendor, { first_name: 'Ada', email: 'ada@example.com' }))._unsafeUnwrap();
  const event = (await service.events.list(principal, { type: 'recipient', limit: 1 }))._unsafeUnwrap()[0] as {
    id: string;
  };

  const intakeFlow = await flow({
    steps: [
      {
        type: 'recipient',
        entity_id: recipient,
        module_id: 'platform-custom.outbound.json',
        config: { url: recipientUrl },
      },
    ],
  });
  const priced = (amount: number, state: string) => ({
    type: 'recipient',
    entity_id: recipient,
    module_id: buyer.id,
    rule_set: { op: 'and', rules: [{ lhv: 'lead.state', op: 'is included in', rhv: ['TX', 'CA', state] }] },
    pricing: {
      override: true,
      prices: [
        { amount },
        { amount: amount + 5, rule_set: { op: 'and', rules: [{ lhv: 'lead.state', op: 'is equal to', rhv: state }] } },
      ],
    },
  });
  const pingFlow = await flow({ steps: [priced(10, 'TX'), priced(12, 'CA'), priced(8, 'NY')] });
  return { service, vendor, eventId: event.id, intakeFlow, pingFlow };
}

/**
 * The bare intake: parse, POST the lead to the recipient on a keep-alive agent, read its JSON answer, answer the
 * source.
 */
function bareDeliver(recipientUrl: string, agent: Agent) {
  const target = new URL(recipientUrl);
  return (lead: unknown): Promise<{ status: number; body: string }> =>
    new Promise((resolve, reject) => {
      const payload = JSON.stringify(lead);
      const req = httpRequest(
        {
          host: target.hostname,
          port: target.port,
          path: target.pathname,
          method: 'POST',
          agent,
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            text += chunk;
          });
          res.on('end', () => {
            const answer = JSON.parse(text) as { outcome?: string; price?: number };
            resolve({
              status: 201,
              body: JSON.stringify({
                outcome: answer.outcome === 'success' ? 'success' : 'failure',
                lead: { id: 'x' },
                price: answer.price ?? 0,
              }),
            });
          });
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
}

export default async function bench(): Promise<BenchRow[]> {
  const recipient = await startRecipient();
  const { service, vendor, eventId, intakeFlow, pingFlow } = await setUp(recipient.url);
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const deliver = bareDeliver(recipient.url, agent);
  const feedbackAnswer = {
    outcome: 'success',
    price: 0,
    lead: { id: eventId, first_name: 'Ada', last_name: '', email: 'ada@example.com', phone_1: '' },
  };
  const bid = JSON.stringify({ outcome: 'success', lead: { id: 'x' }, price: 15 });

  const ex = express();
  ex.use('/api', expressRouter(service));
  ex.post('/bare/feedback', express.json(), (req, res) => {
    if (typeof req.body?.type !== 'string') return void res.status(400).end();
    res.status(201).json(feedbackAnswer);
  });
  ex.post('/bare/intake', express.json(), (req, res, next) => {
    deliver(req.body).then((answer) => res.status(answer.status).type('json').send(answer.body), next);
  });
  ex.post('/bare/ping', express.json(), (_req, res) => void res.status(201).type('json').send(bid));
  const exServer = ex.listen(0, '127.0.0.1');
  await new Promise((r) => exServer.once('listening', r));
  const exUrl = `http://127.0.0.1:${(exServer.address() as AddressInfo).port}`;

  const fa = Fastify();
  await fa.register(leadroute, { service, prefix: '/api' });
  fa.post('/bare/feedback', async (req, reply) => {
    if (typeof (req.body as { type?: unknown } | undefined)?.type !== 'string') return reply.code(400).send();
    return reply.code(201).send(feedbackAnswer);
  });
  fa.post('/bare/intake', async (req, reply) => {
    const answer = await deliver(req.body);
    return reply.code(answer.status).type('application/json').send(answer.body);
  });
  fa.post('/bare/ping', async (_req, reply) => reply.code(201).type('application/json').send(bid));
  await fa.listen({ port: 0, host: '127.0.0.1' });
  const faUrl = `http://127.0.0.1:${(fa.server.address() as AddressInfo).port}`;

  const lead = JSON.stringify({
    first_name: 'Ada',
    last_name: 'Lovelace',
    email: 'ada@example.com',
    phone_1: '512-555-0142',
    state: 'TX',
    postal_code: '78701',
  });
  const feedback = JSON.stringify({ type: 'conversion', reason: 'sold' });
  const rows: BenchRow[] = [];
  const at = new Date().toISOString();
  const throughput = (
    path: string,
    name: string,
    { bare, ours }: { bare: Load; ours: Load },
    minRatio: number,
    p99Ratio?: number,
  ): BenchRow[] => {
    const ratio = ours.rps / bare.rps;
    const latency = bare.p99 / ours.p99;
    return [
      {
        name: `http: ${path} req/s through ${name}`,
        unit: 'ops/s',
        value: ours.rps,
        baseline: `bare ${name}`,
        baselineValue: bare.rps,
        ratio,
        target: `>= ${minRatio}`,
        met: ratio >= minRatio,
        measuredAt: at,
      },
      {
        name: `http: ${path} p99 latency through ${name}`,
        unit: 'ms',
        value: ours.p99,
        baseline: `bare ${name}`,
        baselineValue: bare.p99,
        ratio: latency,
        ...(p99Ratio === undefined ? {} : { target: `>= ${p99Ratio}`, met: latency >= p99Ratio }),
        measuredAt: at,
      },
      {
        name: `http: ${path} server CPU per request through ${name}`,
        unit: 'ms',
        value: ours.cpuMsPerRequest,
        baseline: `bare ${name}`,
        baselineValue: bare.cpuMsPerRequest,
        ratio: bare.cpuMsPerRequest / ours.cpuMsPerRequest,
        measuredAt: at,
      },
    ];
  };
  for (const [name, base] of [
    ['express', exUrl],
    ['fastify', faUrl],
  ] as const) {
    // Intake: req/s at least 0.6 of the bare app's, p99 at most twice its p99 (ratio >= 0.5).
    rows.push(
      ...throughput(
        'intake POST (one JSON recipient)',
        name,
        await alternate(`${base}/bare/intake`, `${base}/api/flows/${intakeFlow}/sources/${vendor}/submit`, lead),
        0.6,
        0.5,
      ),
    );
    rows.push(
      ...throughput(
        'feedback POST',
        name,
        await alternate(`${base}/bare/feedback`, `${base}/api/feedback?event_id=${eventId}`, feedback),
        0.8,
      ),
    );
    // Ping: latency at a fixed 200 req/s, the rate a ping/post exchange sees; the target is absolute (p99 <= 10 ms).
    const ping = await alternate(
      `${base}/bare/ping`,
      `${base}/api/flows/${pingFlow}/sources/${vendor}/ping`,
      lead,
      200,
    );
    rows.push(
      atMost(
        `http: ping p99 latency at 200 req/s (three priced steps) through ${name}`,
        'ms',
        ping.ours.p99,
        { name: `bare ${name}`, value: ping.bare.p99 },
        10,
        at,
      ),
    );
  }
  exServer.close();
  await fa.close();
  agent.destroy();
  recipient.stop();
  return rows;
}
