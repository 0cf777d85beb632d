import { createLeadService } from '@leadroute/core';
import { expressCertificateRouter, expressRouter } from '@leadroute/express';
import { memoryStorage } from '@leadroute/memory';
import express from 'express';
import { CALLERS, seed } from './seed';

const port = Number(process.env.PORT ?? 3000);
const service = createLeadService({ storage: memoryStorage() });
const keys = await seed(service, process.env);

const app = express();
// The certificate service has its own base address; mount it before the API router at '/'.
app.use('/certificates', expressCertificateRouter(service));
app.use('/', expressRouter(service));
const server = app.listen(port, () => {
  const address = server.address();
  const url = `http://localhost:${typeof address === 'object' && address ? address.port : port}`;
  console.log(`Leadroute example (in-memory storage) listening on ${url}`);
  for (const c of CALLERS) console.log(`  ${c.env.padEnd(24)} ${keys[c.role]}   (${c.role}${process.env[c.env] ? '' : ', random'})`);
  console.log(`Try:\n  curl -u API:${keys.demo} ${url}/entities`);
});

const stop = () => server.close(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
