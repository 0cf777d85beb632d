import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  answerClientError,
  createLeadService,
  errors,
  type FileStore,
  type LeadService,
  type Logger,
  type Notifier,
  problemOf,
  type RetentionTask,
  type Storage,
} from '@leadroute/core';
import { azureBlobFileStore, azureBlobStorage } from '@leadroute/azure-blob';
import { expressCertificateRouter, expressRouter } from '@leadroute/express';
import { directoryFileStore, memoryFileStore, memoryStorage } from '@leadroute/memory';
import { migrate, postgresStorage, purgeCounters } from '@leadroute/postgres';
import { s3FileStore, s3Storage } from '@leadroute/s3';
import { smtpNotifier } from '@leadroute/smtp';
import express, { type RequestHandler } from 'express';
import pg from 'pg';
import type { ServerConfig } from './config';

/** A started server: its address and the one way to stop it. */
export interface RunningServer {
  readonly url: string;
  readonly service: LeadService;
  /**
   * Stops accepting connections, waits for requests under way and for every
   * background job (an export stops at its next page and is released for the next
   * process), then closes the mail transport, the S3 clients and the database pool.
   */
  shutdown(): Promise<void>;
}

/** Readiness waits at most this long for the database, so a hung server answers 503 rather than nothing. */
const READY_PROBE_MS = 2000;

const displayHost = (host: string): string =>
  host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;

/**
 * Starts the whole service from its configuration: storage (PostgreSQL, migrated,
 * or memory), export files (S3, a directory, or memory), e-mail (SMTP or logged),
 * the firehose drivers (S3 and Azure Blob), the API with health and readiness
 * endpoints, and every background job.
 */
export async function startServer(config: ServerConfig, logger: Logger): Promise<RunningServer> {
  let service: LeadService | undefined;
  let api: RequestHandler | undefined;
  let certificates: RequestHandler | undefined;
  let stopping = false;

  const pool = config.database
    ? new pg.Pool({
        connectionString: config.database.url,
        max: config.database.poolMax,
        connectionTimeoutMillis: 10_000,
      })
    : undefined;
  // An idle client's error (the server restarted) is emitted on the pool; unhandled, it would end the process.
  pool?.on('error', (e) => logger.warn({ err: e }, 'idle database connection failed'));

  const app = express();
  app.disable('x-powered-by');
  app.use((req, res, next) => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      // The path only: a query string may carry a posting secret or a download signature.
      const entry = { method: req.method, path: req.path, status: res.statusCode, ms: Math.round(ms * 10) / 10 };
      if (req.path === '/healthz' || req.path === '/readyz') logger.debug(entry, 'request');
      else logger.info(entry, 'request');
    });
    next();
  });
  // Liveness: the process answers. Readiness: started, not shutting down, and the database reachable.
  app.get('/healthz', (_req, res) => void res.json({ status: 'ok' }));
  app.get('/readyz', (_req, res) => {
    const answer = (ok: boolean, detail: Record<string, string>) =>
      void res.status(ok ? 200 : 503).json({ status: ok ? 'ready' : 'not ready', ...detail });
    if (stopping) return answer(false, { reason: 'shutting down' });
    if (!service) return answer(false, { reason: 'starting' });
    if (!pool) return answer(true, { database: 'memory' });
    const probe = pool.query('SELECT 1').then(
      () => true,
      () => false,
    );
    const timeout = new Promise<boolean>((resolve) => setTimeout(() => resolve(false), READY_PROBE_MS).unref());
    void Promise.race([probe, timeout]).then((ok) => answer(ok, { database: ok ? 'ok' : 'unreachable' }));
  });
  // The API is mounted once the service exists; until then it answers 503 rather than a misleading 404.
  app.use('/certificates', (req, res, next) =>
    certificates ? certificates(req, res, next) : void res.status(503).json({ status: 'starting' }),
  );
  app.use((req, res, next) => (api ? api(req, res, next) : void res.status(503).json({ status: 'starting' })));
  // The router passes paths it does not own on (#21.10): answer them as the API answers a missing resource.
  app.use(
    (req, res) =>
      void res
        .status(404)
        .type('application/problem+json')
        .send(JSON.stringify(problemOf(errors.notFound(`Endpoint ${req.path}`)))),
  );

  // Listen first: served export links and certificate URLs are absolute, so the service needs its own address.
  const server: Server = app.listen(config.port, config.host);
  // What Node refuses before any route runs (headers over 16 KB: 431) answered as a problem document too.
  server.on('clientError', answerClientError);
  await once(server, 'listening');
  const url = config.publicUrl ?? `http://${displayHost(config.host)}:${(server.address() as AddressInfo).port}`;

  const closeAll: (() => unknown)[] = [];
  try {
    let storage: Storage;
    const retentionTasks: RetentionTask[] = [];
    if (pool && config.database) {
      const db = { pool, schema: config.database.schema };
      const readPool = config.database.readUrl ? { readPool: config.database.readUrl } : {};
      const migrated = await migrate(pool, { schema: db.schema });
      if (migrated.isErr()) throw new Error(migrated.error.message, { cause: migrated.error });
      logger.info({ schema: db.schema, applied: migrated.value.applied }, 'database migrated');
      storage = postgresStorage({ ...db, ...readPool });
      retentionTasks.push({ name: 'counters', run: (before) => purgeCounters(db, before) });
    } else {
      logger.warn({}, 'DATABASE_URL is not set: in-memory storage, every record is lost when the process ends');
      storage = memoryStorage();
    }

    // Optional checksums are something most S3-compatible servers do not know.
    const compatible = config.s3.endpoint
      ? ({ requestChecksumCalculation: 'WHEN_REQUIRED', responseChecksumValidation: 'WHEN_REQUIRED' } as const)
      : undefined;
    const s3 = s3Storage({
      region: config.s3.region,
      forcePathStyle: config.s3.forcePathStyle,
      ...(config.s3.endpoint ? { endpoint: config.s3.endpoint } : {}),
      ...(compatible ? { clientConfig: compatible } : {}),
    });
    closeAll.push(() => s3.close());
    const azure = azureBlobStorage({ maxTries: config.azure.maxTries, tryTimeoutMs: config.azure.tryTimeoutMs });

    let fileStore: FileStore;
    const bucket = config.s3.exports;
    if (bucket) {
      const { accessKeyId, secretAccessKey } = bucket;
      const location = {
        service: 'aws',
        bucket: bucket.bucket,
        accessKeyId,
        secretAccessKey,
        region: config.s3.region,
      } as const;
      fileStore = s3FileStore({ driver: s3, location, prefix: bucket.prefix });
    } else if (config.azure.exports) fileStore = azureBlobFileStore(config.azure.exports);
    else if (config.exports.dir) fileStore = directoryFileStore({ dir: config.exports.dir });
    else {
      logger.warn(
        {},
        'no LEADROUTE_S3_BUCKET, LEADROUTE_AZURE_CONNECTION_STRING or LEADROUTE_EXPORT_DIR: export files are kept in memory',
      );
      fileStore = memoryFileStore();
    }

    let notifier: Notifier | undefined;
    if (config.smtp) {
      const smtp = smtpNotifier({ from: config.smtp.from, transportOptions: config.smtp.url, logger });
      closeAll.push(() => smtp.close());
      notifier = smtp;
      // A mail server that is down at start is worth a warning, not a refusal to serve leads.
      void smtp.verify().then((checked) => {
        if (checked.isErr())
          logger.warn(
            { err: checked.error.message },
            'SMTP server not reachable at start; e-mail is retried by its senders',
          );
      });
    } else logger.warn({}, 'LEADROUTE_SMTP_URL is not set: alert and export e-mail is logged and dropped');

    const created = createLeadService({
      storage,
      logger,
      cloudStorage: { aws: s3, azure },
      fileStore,
      ...(notifier ? { notifier } : {}),
      certificates: { baseUrl: `${url}/certificates` },
      exports: {
        baseUrl: url,
        pageSize: config.exports.pageSize,
        leaseMs: config.exports.leaseMs,
        worker: { pollMs: config.exports.pollMs },
        ...(config.exports.linkSecret ? { linkSecret: config.exports.linkSecret } : {}),
      },
    });

    if (config.alerts.settings) {
      const applied = await created.alerts.settings.setPlatformOverrides(config.alerts.settings);
      if (applied.isErr())
        throw new Error(`LEADROUTE_ALERT_SETTINGS: ${applied.error.message} ${JSON.stringify(applied.error)}`, {
          cause: applied.error,
        });
    }
    if (config.bootstrap) {
      const { name, apiKey, timeZone } = config.bootstrap;
      // Idempotent across restarts: a key that already opens an account is left as it is.
      const bootstrap = async () => {
        if ((await created.accounts.authenticate(apiKey)).isOk()) return;
        const account = await created.accounts.create({ name, api_key: apiKey, time_zone: timeZone, plan: 'paid' });
        if (account.isErr())
          throw new Error(`bootstrap account: ${account.error.message} ${JSON.stringify(account.error)}`, {
            cause: account.error,
          });
        logger.info({ account_id: account.value.account.id, name }, 'bootstrap account created');
      };
      if (config.database) {
        // Instances starting together check and create in turn, so exactly one creates the account. The lock
        // is held on a connection of its own (ended with it), so a pool of one connection still has it free.
        const lock = new pg.Client({ connectionString: config.database.url, connectionTimeoutMillis: 10_000 });
        lock.on('error', () => undefined); // a lost connection fails the query below, which says why
        await lock.connect();
        try {
          await lock.query("SELECT pg_advisory_lock(hashtext('leadroute bootstrap'), hashtext($1))", [
            config.database.schema,
          ]);
          await bootstrap();
        } finally {
          await lock.end();
        }
      } else await bootstrap();
    }

    created.start({
      alerts: { intervalMs: config.alerts.intervalMs },
      retention: { intervalMs: config.retentionIntervalMs, also: retentionTasks },
      firehose: { intervalMs: config.firehoseIntervalMs },
    });
    certificates = expressCertificateRouter(created);
    api = expressRouter(created);
    service = created;
    logger.info(
      {
        url,
        storage: pool ? 'postgresql' : 'memory',
        instances: config.instances,
        exportFiles: bucket ? 's3' : config.azure.exports ? 'azure' : config.exports.dir ? 'directory' : 'memory',
        mail: config.smtp ? 'smtp' : 'log',
      },
      'leadroute listening',
    );
  } catch (e) {
    server.close();
    for (const close of closeAll) close();
    await pool?.end();
    throw e;
  }

  const running = service;
  let shutdown: Promise<void> | undefined;
  return {
    url,
    service: running,
    shutdown() {
      shutdown ??= (async () => {
        stopping = true;
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        // Keep-alive connections with no request in flight would hold close() open.
        server.closeIdleConnections();
        await Promise.all([closed, running.close()]);
        for (const close of closeAll) close();
        await pool?.end();
      })();
      return shutdown;
    },
  };
}
