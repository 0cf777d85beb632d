import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { answerClientError, createLeadService, errors, type Logger, problemOf } from '@leadroute/core';
import { expressCertificateRouter, expressRouter } from '@leadroute/express';
import { memoryFileStore, memoryStorage } from '@leadroute/memory';
import { migrate, postgresStorage } from '@leadroute/postgres';
import express from 'express';
import pg from 'pg';
import { CALLERS, demoBuyerModule, seed } from './seed';

const app = express();
// No X-Powered-By: the framework and its version are nobody's business (as servers/leadroute).
app.disable('x-powered-by');
// Until the service is ready (tables migrated, demo data seeded), every request is answered 503 with Retry-After, as
// the production server (servers/leadroute) answers: a lead posted during start-up must not meet an HTML 404, which a
// vendor takes as final.
let ready: express.Router | undefined;
const starting = JSON.stringify({
  ...problemOf(errors.storageUnavailable('starting')),
  detail: 'The service is starting; retry after Retry-After seconds.',
});
app.use((req, res, next) =>
  ready
    ? ready(req, res, next)
    : void res.status(503).set('retry-after', '2').type('application/problem+json').send(starting),
);
// Loopback unless HOST says otherwise: a demo with printed keys must not be reachable from the network by default.
const host = process.env.HOST || '127.0.0.1';
// Listen first: export download links are absolute, so the service needs its own address.
const server = app.listen(Number(process.env.PORT ?? 3000), host);
// Bounds on what one connection can hold (see SECURITY.md, "One request never stalls the server"):
// headers within 10 s and a whole request (10 MB body included) within 60 s; a socket with no
// progress either way for 60 s (a client that stopped reading its answers) is closed; and a
// kept-alive connection serves at most 1,000 requests before it is closed.
server.headersTimeout = 10_000;
server.requestTimeout = 60_000;
server.timeout = 60_000;
server.maxRequestsPerSocket = 1_000;
// What Node refuses before any route runs (headers over 16 KB: 431) answered as a problem document too.
server.on('clientError', answerClientError);
await once(server, 'listening');
const shown = host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
const url = process.env.LEADROUTE_PUBLIC_URL ?? `http://${shown}:${(server.address() as AddressInfo).port}`;
console.log(`Leadroute example starting on ${url}`);

// PostgreSQL when DATABASE_URL is set (tables created or brought up to date at start-up), memory otherwise.
const pool = process.env.DATABASE_URL ? new pg.Pool({ connectionString: process.env.DATABASE_URL }) : undefined;
if (pool) {
  // postgresStorage() listens for the pool's errors itself; until it is created (during migrate), a restarting
  // database must not take the process down either.
  pool.on('error', (error) => console.warn('[example] idle PostgreSQL connection failed:', error.message));
  // A database that is not up yet is waited for (requests meanwhile get the 503 above); any other failure ends the start.
  for (;;) {
    const migrated = await migrate(pool);
    if (migrated.isOk()) break;
    if (migrated.error.type !== 'StorageUnavailable')
      throw new Error(migrated.error.message, { cause: migrated.error });
    console.warn(`[example] waiting for PostgreSQL: ${migrated.error.message}`);
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
}
const demoBuyer = demoBuyerModule();
// Warnings and errors on stderr (a store that failed, a lead delivered but not recorded); the rest stays quiet.
const logger: Logger = {
  debug() {},
  info() {},
  warn: (obj, msg) => console.warn(`[leadroute] ${msg ?? ''}`, obj),
  error: (obj, msg) => console.error(`[leadroute] ${msg ?? ''}`, obj),
};
const service = createLeadService({
  logger,
  storage: pool ? postgresStorage({ pool }) : memoryStorage(),
  integrations: [demoBuyer],
  fileStore: memoryFileStore(),
  exports: { baseUrl: url },
});
// A database seeded by an earlier start already knows the demo key: keep its data rather than seed again.
const reused =
  pool && process.env.LEADROUTE_API_KEY
    ? (await service.accounts.authenticate(process.env.LEADROUTE_API_KEY)).isOk()
    : false;
const keys = reused
  ? (Object.fromEntries(CALLERS.map((c) => [c.role, process.env[c.env] ?? '(printed at the first start)'])) as Awaited<
      ReturnType<typeof seed>
    >)
  : await seed(service, process.env);

const routes = express.Router();
// What the demo buyer received, as a buyer's own server would see it: each lead with the delivery
// event ID it sends feedback with (#19.1). The demo's stand-in for a real buyer; no lead data beyond the demo's.
routes.get(
  '/demo-buyer/received',
  (_req, res) => void res.json(demoBuyer.received.slice(-20).map((d) => ({ event_id: d.event_id, lead: d.lead }))),
);
// The certificate service has its own base address; mount it before the API router at '/'.
routes.use('/certificates', expressCertificateRouter(service));
routes.use('/', expressRouter(service));
// The router passes paths it does not own on to the app's next middleware: here, a problem document like the API's own.
routes.use(
  (req, res) =>
    void res
      .status(404)
      .type('application/problem+json')
      .send(JSON.stringify(problemOf(errors.notFound(`Endpoint ${req.path}`)))),
);
ready = routes;
// Creating the service starts nothing: start() runs the export worker, alert passes, purges and firehose retries.
service.start();

console.log(
  `Leadroute example (${pool ? 'PostgreSQL' : 'in-memory'} storage${reused ? ', data from an earlier start' : ''}) listening on ${url}`,
);
for (const c of CALLERS)
  console.log(`  ${c.env.padEnd(24)} ${keys[c.role]}   (${c.role}${process.env[c.env] || reused ? '' : ', random'})`);
console.log(`Try:\n  curl -u API:${keys.demo} ${url}/entities`);

const stop = () =>
  server.close(
    () =>
      void service
        .close()
        .then(() => pool?.end())
        .finally(() => process.exit(0)),
  );
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
