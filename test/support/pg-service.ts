// A Leadroute service on PostgreSQL in a process of its own, for tests that kill it:
// `node --import tsx test/support/pg-service.ts`, with
// DATABASE_URL and LEADROUTE_SCHEMA (already migrated) in the environment. It prints
// `listening on <url>` once it answers.
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { createLeadService } from '@leadroute/core';
import { expressRouter } from '@leadroute/express';
import { postgresStorage } from '@leadroute/postgres';
import express from 'express';
import pg from 'pg';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 8 });
pool.on('error', () => undefined);
const service = createLeadService({
  storage: postgresStorage({ pool, schema: process.env.LEADROUTE_SCHEMA ?? 'public' }),
});
const app = express();
app.use('/', expressRouter(service));
const server = app.listen(0, '127.0.0.1');
await once(server, 'listening');
console.log(`listening on http://127.0.0.1:${(server.address() as AddressInfo).port}`);
