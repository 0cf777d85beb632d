import { randomBytes } from 'node:crypto';
import { createLeadService } from '@leadroute/core';
import { leadroute } from '@leadroute/fastify';
import { memoryFileStore, memoryStorage } from '@leadroute/memory';
import Fastify from 'fastify';

// The API under /api and the certificate service under /certificates, as two
// registrations of one plugin; Fastify's own parsers stay on for the rest of the app.
const app = Fastify({ logger: false });
const service = createLeadService({ storage: memoryStorage(), fileStore: memoryFileStore() });
const apiKey = process.env.LEADROUTE_API_KEY || randomBytes(18).toString('base64url');
(
  await service.accounts.create({ name: 'Fastify demo', time_zone: 'America/New_York', api_key: apiKey })
)._unsafeUnwrap();

await app.register(leadroute, { service, prefix: '/api' });
await app.register(leadroute, { service, serve: 'certificates', prefix: '/certificates' });
app.get('/health', async () => ({ ok: true }));
// Creating the service starts nothing: start() runs the export worker, alert passes, purges and firehose retries.
service.start();

// Loopback unless HOST says otherwise (HOST=0.0.0.0 to serve the network).
const address = await app.listen({ port: Number(process.env.PORT ?? 3001), host: process.env.HOST || '127.0.0.1' });
console.log(`Leadroute on Fastify listening on ${address}`);
console.log(`Try:\n  curl -u API:${apiKey} ${address}/api/entities`);

const stop = () =>
  void app
    .close()
    .then(() => service.close())
    .then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
