// Typechecked three times by package-check.sh (node16, nodenext, bundler; skipLibCheck off),
// as .mts (ESM), .cts (CommonJS) and .ts (bundler): every declaration file of every package
// and of what they import must resolve and check, and the options of the adapters must be
// real types, not `any`.
import type * as azure from '@leadroute/azure-blob';
import type * as client from '@leadroute/client';
import type * as core from '@leadroute/core';
import type * as express from '@leadroute/express';
import type * as fastify from '@leadroute/fastify';
import type * as memory from '@leadroute/memory';
import type * as mongo from '@leadroute/mongo';
import type * as postgres from '@leadroute/postgres';
import type * as s3 from '@leadroute/s3';
import type * as smtp from '@leadroute/smtp';
import type * as testkit from '@leadroute/testkit';

type IsAny<T> = 0 extends 1 & T ? true : false;
type Assert<T extends false> = T;

export type Modules = [
  typeof azure,
  typeof client,
  typeof core,
  typeof express,
  typeof fastify,
  typeof memory,
  typeof mongo,
  typeof postgres,
  typeof s3,
];
export type More = [typeof smtp, typeof testkit];
// #21.3: the pg pool and the nodemailer transport options are typed, not silently `any`.
export type PgPool = Assert<IsAny<postgres.PostgresStorageOptions['pool']>>;
export type SmtpTransport = Assert<IsAny<smtp.SmtpNotifierWithTransport['transport']>>;
export type SmtpOptions = Assert<IsAny<Exclude<smtp.SmtpNotifierWithOptions['transportOptions'], string>>>;
export type ClientResult = ReturnType<ReturnType<typeof client.createClient>['entities']['list']>;

// A host's own Express app and pg pool, typed by the @types the host installed (here the peers' floors: Express 4's
// types), take the adapters as they are: @types/express and @types/pg as dependencies of the adapters were second
// copies beside the host's, and the router no longer fit app.use (TS2769), nor the pool postgresStorage (TS2345).
declare const leadroute: { core: typeof core; express: typeof express; postgres: typeof postgres };
declare const app: import('express').Application;
declare const pool: import('pg').Pool;
declare const service: core.LeadService;
export const mounted = app.use('/leadroute', leadroute.express.expressRouter(service));
export const stored = leadroute.postgres.postgresStorage({ pool });
export const migrated = leadroute.postgres.migrate(pool);
