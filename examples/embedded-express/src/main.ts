import { randomBytes } from 'node:crypto';
import { createLeadService } from '@leadroute/core';
import { expressRouter } from '@leadroute/express';
import { memoryStorage } from '@leadroute/memory';
import express from 'express';

// An app that already exists: its own routes, its own JSON body parser. Leadroute
// mounts under /leadroute and reads raw bodies itself, so the app's parser is applied
// to the app's routes only, never in front of the router.
const app = express();
const orders: { id: number; item: string }[] = [];
app.get('/health', (_req, res) => void res.json({ ok: true }));
app.post('/orders', express.json(), (req, res) => {
  const order = { id: orders.length + 1, item: String(req.body?.item ?? '') };
  orders.push(order);
  res.status(201).json(order);
});

const service = createLeadService({ storage: memoryStorage() });
const apiKey = process.env.LEADROUTE_API_KEY || randomBytes(18).toString('base64url');
(await service.accounts.create({ name: 'Embedded', api_key: apiKey }))._unsafeUnwrap();
app.use('/leadroute', expressRouter(service));
// Creating the service starts nothing: start() runs its background jobs (alert passes, purges, firehose retries).
service.start();

// Loopback unless HOST says otherwise (HOST=0.0.0.0 to serve the network).
const host = process.env.HOST || '127.0.0.1';
const server = app.listen(Number(process.env.PORT ?? 3002), host, () => {
  const address = server.address();
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${typeof address === 'object' && address ? address.port : 3002}`;
  console.log(`Existing app with Leadroute at /leadroute listening on ${url}`);
  console.log(`Try:\n  curl -u API:${apiKey} ${url}/leadroute/entities`);
});
const stop = () => server.close(() => void service.close().finally(() => process.exit(0)));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
