import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { EXPORT_JOB } from '@leadroute/core';
import { postgresStorage } from '@leadroute/postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_URL, databaseAvailable, randomSchemaName } from '../../adapters/postgres/src/test-support';
import { type S3rverHandle, startS3rver } from '../../adapters/s3/src/s3rver.test-helper';
import { ENV_VARS } from '../../servers/leadroute/src/config';
import { OVERSIZED_HEADERS, rawExchange } from '../support/call';
import { type CaughtMail, type SmtpCatcher, startSmtpCatcher } from '../support/smtp-catcher';
import { dockerfile, imageCommand, root, type ServerProcess, startServerProcess, stopAll } from './server-process';

// Item #21.13: the production entry point, started exactly as the Docker image starts it,
// on PostgreSQL, s3rver and a local SMTP server, through a lead, an alert e-mail, an
// export cut short by SIGTERM, a restart and the finished export in the bucket.

const KEY = { id: 'AKIALEADROUTESERVER', secret: 'server-secret' };
const BUCKET = 'leadroute-exports';
const API_KEY = 'deploy-test-key-0123456789';
const AUTH = `Basic ${Buffer.from(`API:${API_KEY}`).toString('base64')}`;
const SEEDED = 4000;

const enabled = await databaseAvailable('test/deploy/production-server.test.ts');

describe.runIf(enabled)('#21.13 the production server on PostgreSQL, S3 and SMTP', () => {
  const schema = randomSchemaName();
  let s3: S3rverHandle;
  let smtp: SmtpCatcher;
  let pool: pg.Pool;
  let env: Record<string, string>;
  let server: ServerProcess;
  const running: ServerProcess[] = [];

  const start = (): Promise<ServerProcess> => startServerProcess(env, running);

  const api = async (path: string, init: { method?: string; body?: unknown; auth?: boolean } = {}) => {
    const res = await fetch(`${server.url}${path}`, {
      method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
      headers: {
        ...(init.auth === false ? {} : { authorization: AUTH }),
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    });
    const text = await res.text();
    return { status: res.status, body: text.startsWith('{') || text.startsWith('[') ? JSON.parse(text) : text };
  };

  beforeAll(async () => {
    s3 = await startS3rver({ buckets: [BUCKET], accessKeys: { [KEY.id]: KEY.secret } });
    smtp = await startSmtpCatcher();
    pool = new pg.Pool({ connectionString: DATABASE_URL, max: 2 });
    env = {
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL,
      LEADROUTE_DATABASE_SCHEMA: schema,
      LEADROUTE_DATABASE_POOL_MAX: '4',
      LEADROUTE_S3_BUCKET: BUCKET,
      LEADROUTE_S3_ENDPOINT: s3.endpoint,
      LEADROUTE_S3_ACCESS_KEY_ID: KEY.id,
      LEADROUTE_S3_SECRET_ACCESS_KEY: KEY.secret,
      LEADROUTE_S3_FORCE_PATH_STYLE: 'true',
      LEADROUTE_SMTP_URL: smtp.url,
      LEADROUTE_SMTP_FROM: 'Leadroute <alerts@leadroute.test>',
      LEADROUTE_BOOTSTRAP_ACCOUNT_NAME: 'Deploy Test',
      LEADROUTE_BOOTSTRAP_API_KEY: API_KEY,
      // A new source raises a serious alert, e-mailed to ops, so one lead is enough.
      LEADROUTE_ALERT_SETTINGS: JSON.stringify({
        email_to: ['ops@example.com'],
        types: { 'new-source': { send_email: true, severity: 'serious' } },
      }),
      LEADROUTE_ALERT_INTERVAL_MS: '300',
      LEADROUTE_EXPORT_POLL_MS: '200',
      // Small pages make a long export out of a few thousand events, so SIGTERM finds it mid-way.
      LEADROUTE_EXPORT_PAGE_SIZE: '4',
      LEADROUTE_LOG_LEVEL: 'info',
    };
    server = await start();
  }, 90_000);

  afterAll(async () => {
    await stopAll(running);
    await pool?.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await pool?.end();
    await smtp?.close();
    await s3?.dispose();
  }, 60_000);

  it('#21.12 runs the command line of the Docker image, which is also the workspace start script', () => {
    expect(imageCommand).toEqual(['node', '--import', 'tsx', 'servers/leadroute/src/main.ts']);
    const pkg = JSON.parse(readFileSync(`${root}servers/leadroute/package.json`, 'utf8')) as {
      scripts: { start: string };
    };
    expect(pkg.scripts.start).toBe(imageCommand.join(' ').replace('servers/leadroute/', ''));
    // The image installs every workspace's dependencies: a workspace the Dockerfile forgets breaks `npm ci` there.
    const workspaces = (JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as { workspaces: string[] }).workspaces;
    for (const w of workspaces) expect(dockerfile).toContain(`COPY ${w}/package.json ${w}/`);
  });

  it('#21.12 answers /healthz and /readyz (database reachable) outside the API, and logs JSON lines', async () => {
    expect(await api('/healthz', { auth: false })).toEqual({ status: 200, body: { status: 'ok' } });
    expect(await api('/readyz', { auth: false })).toEqual({ status: 200, body: { status: 'ready', database: 'ok' } });
    expect(server.logs.find((l) => l.msg === 'background jobs started')).toMatchObject({
      level: 'info',
      jobs: ['exports', 'alerts', 'retention', 'firehose'],
    });
    expect(server.logs.find((l) => l.msg === 'database migrated')).toMatchObject({ schema });
  });

  it('#21.10 answers a path that is no endpoint with a problem document, as the API answers a missing resource', async () => {
    expect(await api('/no-such-endpoint')).toMatchObject({
      status: 404,
      body: { status: 404, code: 'NotFound', detail: 'Endpoint /no-such-endpoint not found.' },
    });
  });

  it('answers headers over 16 KB (refused by Node before any route) with a 431 problem document', async () => {
    const { head, body } = await rawExchange(server.url, OVERSIZED_HEADERS);
    expect(head).toMatch(/^HTTP\/1\.1 431 /);
    expect(JSON.parse(body)).toMatchObject({ status: 431, code: 'HeadersTooLarge' });
  });

  it("#21.12 the README's Deploy check runs verbatim against it", async () => {
    const readme = readFileSync(`${root}README.md`, 'utf8');
    const block = /<!-- deploy-check -->\s*```sh\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(block, 'README has a deploy-check block').toBeDefined();
    const { stdout } = await promisify(execFile)('bash', ['-euo', 'pipefail', '-c', block as string], {
      env: { ...process.env, B: server.url, LEADROUTE_BOOTSTRAP_API_KEY: API_KEY },
      timeout: 60_000,
    }).catch((e: { stdout?: string; stderr?: string; message: string }) => {
      throw new Error(`the deploy check failed: ${e.message}\n${e.stderr ?? ''}\n--- stdout ---\n${e.stdout ?? ''}`);
    });
    const lines = stdout.trim().split('\n');
    expect(JSON.parse(lines[0] as string)).toEqual({ status: 'ok' });
    expect(JSON.parse(lines[1] as string)).toEqual({ status: 'ready', database: 'ok' });
    expect(JSON.parse(lines[2] as string)).toMatchObject({ outcome: 'success' });
    expect(lines[3]).toBe('id,type,vars.lead.email');
    expect(lines.slice(4).some((l) => l.includes('ada@example.com'))).toBe(true);
  }, 90_000);

  it('#21.12 the README documents every environment variable the server reads, in one table', () => {
    const readme = readFileSync(`${root}README.md`, 'utf8');
    const deploy = readme.slice(readme.indexOf('## Deploy'));
    const documented = [...deploy.matchAll(/^\| `([A-Z0-9_]+)` \|/gm)].map((m) => m[1]);
    expect(documented).toEqual(ENV_VARS.map((v) => v.name));
    const own = readFileSync(`${root}servers/leadroute/README.md`, 'utf8');
    expect([...own.matchAll(/^\| `([A-Z0-9_]+)` \|/gm)].map((m) => m[1])).toEqual(ENV_VARS.map((v) => v.name));
  });

  it('#21.13 a lead from a new source raises an alert whose e-mail reaches the SMTP server', async () => {
    const source = await api('/entities', {
      body: { name: 'Alert Vendor', source: 'seller', recipient: null, module_ids: [] },
    });
    expect(source.status).toBe(201);
    const flow = await api('/flows', {
      body: { name: 'Alerting flow', sources: [{ entity_id: source.body.id }], steps: [] },
    });
    expect(flow.status).toBe(201);
    const submit = `/flows/${flow.body.id}/sources/${source.body.id}/submit`;
    const lead = await api(submit, { auth: false, body: { first_name: 'Grace', email: 'grace@example.com' } });
    expect(lead.body).toMatchObject({ outcome: 'success' });
    const deadline = Date.now() + 30_000;
    const about = (m: CaughtMail) =>
      m.raw
        .replace(/=\r?\n/g, '')
        .replace(/\r?\n[ \t]+/g, ' ')
        .includes('Alert Vendor');
    while (!smtp.mails.some(about) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    const mail = smtp.mails.find(about);
    expect(mail, 'an alert e-mail about the new source').toBeDefined();
    expect(mail?.to).toEqual(['ops@example.com']);
    expect(mail?.raw).toMatch(/^From: Leadroute <alerts@leadroute\.test>/m);
    const alerts = await api('/alerts');
    expect(JSON.stringify(alerts.body)).toContain('new-source');
  }, 60_000);

  it('#21.13 SIGTERM mid-export: the server exits 0 within the bound; after a restart the export completes into the bucket', async () => {
    // Thousands of events in a moment: copies of one recorded event, written straight to the schema.
    const s = `"${schema}"`;
    const template = await pool.query<{ id: string; account_id: string }>(
      `SELECT id, account_id FROM ${s}.events ORDER BY id LIMIT 1`,
    );
    const { id: templateId, account_id: accountId } = template.rows[0] as { id: string; account_id: string };
    await pool.query(
      `INSERT INTO ${s}.events (id, account_id, type, start_timestamp, lead_id, flow_id, key, expires_at, doc)
       SELECT n.id, e.account_id, e.type, e.start_timestamp, e.lead_id, e.flow_id, NULL, e.expires_at, jsonb_set(e.doc::jsonb, '{id}', to_jsonb(n.id))::text
       FROM ${s}.events e, LATERAL (SELECT substr(e.id, 1, 8) || lpad(to_hex(g), 16, '0') AS id FROM generate_series(1, $2::int) g) n
       WHERE e.id = $1`,
      [templateId, SEEDED],
    );
    const total = Number(
      (await pool.query(`SELECT count(*) FROM ${s}.events WHERE account_id = $1`, [accountId])).rows[0].count,
    );
    expect(total).toBeGreaterThan(SEEDED);

    const created = await api('/exports', {
      body: {
        start: '2020-01-01T00:00:00Z',
        end: '2100-01-01T00:00:00Z',
        fields: ['id', 'type'],
        email_to: ['reports@example.com'],
      },
    });
    expect(created.status).toBe(201);
    const exportId = created.body.id as string;
    // Wait until the export is mid-way, then stop the server.
    for (const deadline = Date.now() + 30_000; ; ) {
      const got = await api(`/exports/${exportId}`);
      if (got.body.status === 'processing' && got.body.exported_docs > 0) break;
      expect(got.body.status, 'the export must still be running when SIGTERM is sent').not.toBe('complete');
      expect(Date.now()).toBeLessThan(deadline);
      await new Promise((r) => setTimeout(r, 20));
    }
    const signalled = Date.now();
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    // Graceful means bounded: one page to finish, not the rest of the export (a generous bound for a busy machine).
    expect(Date.now() - signalled).toBeLessThan(15_000);
    const said = server.logs.map((l) => l.msg);
    const interrupted = 'export interrupted by shutdown; released for the next worker';
    expect(said).toEqual(expect.arrayContaining(['shutting down', interrupted, 'background jobs stopped', 'stopped']));

    // Cut short: still processing, its job released (no lease to wait out), no file yet.
    const storage = postgresStorage({ pool, schema });
    const halfway = (await storage.exports.get(exportId))._unsafeUnwrap();
    expect(halfway).toMatchObject({ status: 'processing' });
    expect(halfway?.exported_docs).toBeLessThan(total);
    expect(halfway?.file_key).toBeUndefined();
    expect((await storage.jobs.get(EXPORT_JOB, exportId))._unsafeUnwrap()).toMatchObject({
      state: 'pending',
      attempts: 1,
    });

    server = await start();
    for (const deadline = Date.now() + 90_000; ; ) {
      const got = await api(`/exports/${exportId}`);
      if (got.body.status === 'complete') {
        expect(got.body.exported_docs).toBe(total);
        break;
      }
      expect(got.body.status).toBe('processing');
      expect(Date.now()).toBeLessThan(deadline);
      await new Promise((r) => setTimeout(r, 200));
    }
    const link = await api(`/exports/${exportId}/file`);
    const url = new URL(link.body.url as string);
    // A pre-signed URL into the bucket, for the second attempt's file.
    expect(url.origin).toBe(s3.endpoint);
    expect(url.pathname).toBe(`/${BUCKET}/exports/${accountId}/${exportId}-2.csv`);
    const csv = (await (await fetch(url)).text()).trim().split('\n');
    expect(csv[0]).toBe('id,type');
    expect(csv).toHaveLength(total + 1);
    expect(new Set(csv.slice(1)).size).toBe(total);
    const ready = () => smtp.mails.find((m) => m.to.includes('reports@example.com'));
    for (const deadline = Date.now() + 30_000; !ready() && Date.now() < deadline; )
      await new Promise((r) => setTimeout(r, 100));
    expect(ready()?.raw).toContain('Export ready');
  }, 180_000);

  it('#21.12 SIGINT stops it as SIGTERM does', async () => {
    expect((await api('/readyz', { auth: false })).status).toBe(200);
    server.child.kill('SIGINT');
    expect(await server.exited).toBe(0);
    expect(server.logs.at(-1)).toMatchObject({ msg: 'stopped' });
  }, 60_000);
});
