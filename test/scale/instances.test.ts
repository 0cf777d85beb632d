import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { postgresStorage } from '@leadroute/postgres';
import { aCredential } from '@leadroute/testkit';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_URL, databaseAvailable, randomSchemaName } from '../../adapters/postgres/src/test-support';
import { type S3rverHandle, startS3rver } from '../../adapters/s3/src/s3rver.test-helper';
import { type ServerProcess, startServerProcess, stopAll } from '../deploy/server-process';
import { type Answer, call } from '../support/call';
import { type SmtpCatcher, startSmtpCatcher } from '../support/smtp-catcher';
import { type RecipientServer, startRecipientServer } from '../support/recipient-server';

// Issue #23 items 1, 2 and 4: three production server processes (servers/leadroute,
// each its own OS process and pool) on one PostgreSQL schema, driven at once over
// HTTP. Caps, ping limits and returns hold across processes; export jobs, alert
// passes, retention purges and firehose retries are shared through leases in the
// database, each done once; a SIGKILLed instance loses no acknowledged lead and its
// export lease is taken over. Export files live in s3rver, behind a proxy that
// counts (and can refuse) the firehose's writes.

const KEY = { id: 'AKIALEADROUTESCALE', secret: 'scale-secret' };
const EXPORTS = 'scale-exports';
const FIREHOSE = 'scale-firehose';
const API_KEY = 'scale-test-key-0123456789';
const INSTANCES = 3;

const enabled = await databaseAvailable('test/scale/instances.test.ts');

/** Runs `tasks` with at most `limit` under way at once. */
async function limited<T>(limit: number, tasks: readonly (() => Promise<T>)[]): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  const lane = async () => {
    while (next < tasks.length) {
      const i = next++;
      results[i] = await (tasks[i] as () => Promise<T>)();
    }
  };
  await Promise.all(Array.from({ length: limit }, lane));
  return results;
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await pause(50);
  }
}

describe.runIf(enabled)('#23.1 three instances on one PostgreSQL', () => {
  const schema = randomSchemaName();
  /** PUTs into the firehose bucket that reached s3rver, by object key. */
  const firehosePuts = new Map<string, number>();
  let firehoseDown = false;
  let s3: S3rverHandle;
  let proxy: Server;
  let smtp: SmtpCatcher;
  let recipient: RecipientServer;
  let pool: pg.Pool;
  let env: Record<string, string>;
  const running: ServerProcess[] = [];
  let servers: ServerProcess[] = [];
  const alive = new Set<number>();
  const summary: Record<string, unknown> = {};

  const q = (name: string) => `"${schema}".${name}`;
  const count = async (sql: string, values: unknown[] = []) => Number((await pool.query(sql, values)).rows[0].count);
  /** An instance other than `not` that is still running, chosen round-robin by `n`. */
  const instance = (n: number, not?: number): number => {
    const live = [...alive].filter((i) => i !== not);
    return live[n % live.length] as number;
  };
  /** A request to instance `i`, with the account's key unless `key` is null (intake, pings and feedback need none). */
  const api = (i: number, path: string, json?: unknown, key: string | null = API_KEY): Promise<Answer> =>
    call((servers[i] as ServerProcess).url, {
      path,
      ...(key === null ? {} : { key }),
      ...(json === undefined ? {} : { json }),
    });
  const logsOf = (i: number, msg: string) => (servers[i] as ServerProcess).logs.filter((l) => l.msg === msg);

  beforeAll(async () => {
    s3 = await startS3rver({ buckets: [EXPORTS, FIREHOSE], accessKeys: { [KEY.id]: KEY.secret } });
    proxy = createServer((req, res) => {
      const path = req.url ?? '/';
      if (req.method === 'PUT' && path.startsWith(`/${FIREHOSE}/`)) {
        if (firehoseDown) {
          req.resume();
          res.writeHead(503, { 'content-type': 'application/xml' });
          res.end('<Error><Code>ServiceUnavailable</Code><Message>down for the test</Message></Error>');
          return;
        }
        const key = decodeURIComponent((path.split('?')[0] as string).slice(FIREHOSE.length + 2));
        firehosePuts.set(key, (firehosePuts.get(key) ?? 0) + 1);
      }
      const upstream = httpRequest(
        { host: '127.0.0.1', port: s3.port, method: req.method, path, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on('error', () => res.destroy());
      req.pipe(upstream);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    smtp = await startSmtpCatcher();
    recipient = await startRecipientServer();
    pool = new pg.Pool({ connectionString: DATABASE_URL, max: 2 });
    pool.on('error', () => undefined);
    env = {
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL,
      LEADROUTE_DATABASE_SCHEMA: schema,
      LEADROUTE_DATABASE_POOL_MAX: '5',
      LEADROUTE_INSTANCES: String(INSTANCES),
      LEADROUTE_S3_BUCKET: EXPORTS,
      LEADROUTE_S3_ENDPOINT: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
      LEADROUTE_S3_ACCESS_KEY_ID: KEY.id,
      LEADROUTE_S3_SECRET_ACCESS_KEY: KEY.secret,
      LEADROUTE_S3_FORCE_PATH_STYLE: 'true',
      LEADROUTE_BOOTSTRAP_ACCOUNT_NAME: 'Scale Test',
      LEADROUTE_BOOTSTRAP_API_KEY: API_KEY,
      LEADROUTE_SMTP_URL: smtp.url,
      LEADROUTE_ALERT_SETTINGS: JSON.stringify({
        email_to: ['ops@example.com'],
        types: { 'new-source': { send_email: true, severity: 'serious' } },
      }),
      // Every background job passes often, on every instance at once.
      LEADROUTE_ALERT_INTERVAL_MS: '250',
      LEADROUTE_RETENTION_INTERVAL_MS: '250',
      LEADROUTE_FIREHOSE_INTERVAL_MS: '250',
      LEADROUTE_EXPORT_POLL_MS: '150',
      LEADROUTE_EXPORT_PAGE_SIZE: '100',
      // A crashed instance's export is taken over after 2 s rather than the default 2 min.
      LEADROUTE_EXPORT_LEASE_MS: '2000',
      LEADROUTE_LOG_LEVEL: 'info',
    };
    // All three start at once: they migrate in turn (an advisory lock) and exactly one creates the bootstrap account.
    servers = await Promise.all(Array.from({ length: INSTANCES }, () => startServerProcess(env, running)));
    expect(servers.flatMap((s) => s.logs.filter((l) => l.msg === 'bootstrap account created'))).toHaveLength(1);
    expect(await count(`SELECT count(*) FROM ${q('accounts')}`)).toBe(1);
    for (let i = 0; i < INSTANCES; i++) alive.add(i);
  }, 90_000);

  afterAll(async () => {
    console.log(`[leadroute] [scale] ${JSON.stringify(summary)}`);
    await stopAll(running);
    await pool?.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await pool?.end();
    await smtp?.close();
    await new Promise<void>((resolve) => (proxy ? proxy.close(() => resolve()) : resolve()));
    await recipient?.close();
    await s3?.dispose();
  }, 60_000);

  let vendor: string;
  let buyer: string;
  const step = () => ({
    type: 'recipient',
    entity_id: buyer,
    module_id: 'platform-custom.outbound.json',
    timeout_ms: 5000,
    config: { url: recipient.url, outcome_path: 'result', reason_path: 'reason', reference_path: 'id' },
  });
  const entity = async (body: object) => {
    const created = await api(0, '/entities', { module_ids: [], source: null, recipient: null, ...body });
    expect(created.status).toBe(201);
    return created.body.id as string;
  };
  const flow = async (body: object) => {
    const created = await api(0, '/flows', { sources: [{ entity_id: vendor }], ...body });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body.id as string;
  };

  it('#23.1 300 leads spread over three instances against a cap of 50: exactly 50 delivered', async () => {
    vendor = await entity({ name: 'Scale Vendor', source: 'seller' });
    buyer = await entity({ name: 'Scale Buyer', recipient: 'buyer', module_ids: ['platform-custom.outbound.json'] });
    const flowId = await flow({
      name: 'Capped',
      steps: [{ ...step(), caps: [{ name: 'Fifty', maximum: 50, duration: 1, duration_units: 'days' }] }],
    });
    const answers = await limited(
      45,
      Array.from(
        { length: 300 },
        (_, n) => () =>
          api(
            instance(n),
            `/flows/${flowId}/sources/${vendor}/submit`,
            { first_name: 'Cap', email: `cap-${n}@example.com` },
            null,
          ),
      ),
    );
    expect(answers.filter((a) => a.status === 201 && a.body.outcome === 'success')).toHaveLength(300);
    const delivered = recipient.received.filter(
      (r) => JSON.stringify(r).includes('@example.com') && JSON.stringify(r).includes('cap-'),
    );
    const succeeded = await count(
      `SELECT count(*) FROM ${q('events')} WHERE flow_id = $1 AND type = 'recipient' AND doc::jsonb->>'outcome' = 'success'`,
      [flowId],
    );
    summary.leads = { submitted: 300, accepted: succeeded, cap: 50, buyerReceived: delivered.length };
    expect(succeeded).toBe(50);
    expect(delivered).toHaveLength(50);
  }, 60_000);

  it('#23.1 200 pings spread over three instances against a ping limit of 20: exactly 20 succeed', async () => {
    const flowId = await flow({
      name: 'Ping limited',
      ping_limits: [{ name: 'Twenty', maximum: 20, duration: 1, duration_units: 'hours' }],
      steps: [],
    });
    const answers = await limited(
      45,
      Array.from(
        { length: 200 },
        (_, n) => () => api(instance(n), `/flows/${flowId}/sources/${vendor}/ping`, { first_name: `P${n}` }, null),
      ),
    );
    const succeeded = answers.filter((a) => a.body?.outcome === 'success').length;
    summary.pings = { sent: 200, succeeded, limit: 20 };
    expect(succeeded).toBe(20);
    expect(answers.filter((a) => a.body?.reason === 'Ping limit reached.')).toHaveLength(180);
  }, 60_000);

  it('#23.1 200 concurrent returns of one lead through three instances: exactly one succeeds', async () => {
    const flowId = await flow({ name: 'Returns', steps: [{ ...step(), feedback: { enabled: true } }] });
    const lead = await api(0, `/flows/${flowId}/sources/${vendor}/submit`, { first_name: 'Ret' }, null);
    const events = await api(1, '/events', {
      rules: [{ lhv: 'lead_id', op: 'is equal to', rhv: lead.body.lead.id }],
      type: ['recipient'],
    });
    const delivery = events.body[0].id as string;
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, n) =>
        api(instance(n), `/feedback?event_id=${delivery}`, { type: 'return', reason: 'duplicate' }, null),
      ),
    );
    expect(answers.every((a) => a.status === 201)).toBe(true);
    const succeeded = answers.filter((a) => a.body.outcome === 'success').length;
    summary.returns = { sent: 200, succeeded };
    expect(succeeded).toBe(1);
  }, 60_000);

  it('#23.1 alert passes on every instance at once: each alert is created once and each e-mail sent once', async () => {
    // Four more sources, each with its first lead through another instance: a new-source alert each, e-mailed.
    const sources = await Promise.all([1, 2, 3, 4].map((n) => entity({ name: `Fresh Source ${n}`, source: 'seller' })));
    const flowId = await flow({
      name: 'Fresh sources',
      sources: [{ entity_id: vendor }, ...sources.map((s) => ({ entity_id: s }))],
      steps: [],
    });
    await Promise.all(
      sources.map((s, n) =>
        api(instance(n), `/flows/${flowId}/sources/${s}/submit`, { first_name: `Fresh${n}` }, null),
      ),
    );
    const names = ['Scale Vendor', ...[1, 2, 3, 4].map((n) => `Fresh Source ${n}`)];
    const about = (name: string) => smtp.mails.filter((m) => m.subject.includes(name) && /new source/i.test(m.subject));
    await until('a new-source e-mail for every source', () => names.every((name) => about(name).length > 0));
    // Many more passes of all three instances: nothing is raised or sent again.
    await pause(1000);
    const created = (
      await pool.query(`SELECT key, count(*)::int AS n FROM ${q('alert_activity')} WHERE kind = 'created' GROUP BY key`)
    ).rows as { key: string; n: number }[];
    const newSource = created.filter((r) => r.key.includes('new-source'));
    summary.alerts = {
      created: created.reduce((n, r) => n + r.n, 0),
      distinct: created.length,
      newSource: newSource.length,
      emails: smtp.mails.length,
      newSourceEmails: names.map((name) => about(name).length),
    };
    expect(created.filter((r) => r.n > 1)).toEqual([]);
    expect(newSource).toHaveLength(names.length);
    for (const name of names) expect(about(name), name).toHaveLength(1);
    const alerts = await api(2, '/alerts');
    expect(alerts.status).toBe(200);
  }, 60_000);

  it('#23.1 export jobs queued on one instance run on others, and a file written by one downloads through another', async () => {
    // More rows make each export take a while, so the other instances' workers find queued ones.
    await seedEvents(1500, 'live');
    const end = new Date(Date.now() + 1000).toISOString();
    const created = await Promise.all(
      [1, 2, 3, 4, 5, 6].map(() => api(0, '/exports', { start: '2020-01-01T00:00:00Z', end, fields: ['id', 'type'] })),
    );
    expect(created.map((c) => c.status)).toEqual([201, 201, 201, 201, 201, 201]);
    const ids = created.map((c) => c.body.id as string);
    await until(
      'every export complete',
      async () =>
        (await Promise.all(ids.map((id) => api(1, `/exports/${id}`)))).every((e) => e.body.status === 'complete'),
      40_000,
    );
    const finishedBy = new Map<string, number[]>();
    const finishers = () => {
      finishedBy.clear();
      for (let i = 0; i < INSTANCES; i++)
        for (const l of logsOf(i, 'export finished'))
          finishedBy.set(l.exportId as string, [...(finishedBy.get(l.exportId as string) ?? []), i]);
      return finishedBy;
    };
    // An export's status is published a moment before its worker logs 'export finished'.
    await until('every finisher logged', () => ids.every((id) => finishers().has(id)));
    await pause(300); // a second finisher of one export, if there were one, would have logged by now
    finishers();
    // Each ran to its end once, and some ran on an instance other than the one they were queued on.
    for (const id of ids) expect(finishedBy.get(id), id).toHaveLength(1);
    const elsewhere = ids.filter((id) => finishedBy.get(id)?.[0] !== 0);
    expect(elsewhere.length).toBeGreaterThan(0);
    const docs = new Set(
      (await Promise.all(ids.map((id) => api(2, `/exports/${id}`)))).map((e) => e.body.exported_docs),
    );
    expect(docs.size).toBe(1);

    const id = elsewhere[0] as string;
    const writer = finishedBy.get(id)?.[0] as number;
    const reader = instance(writer + 1, writer);
    const link = await api(reader, `/exports/${id}/file`);
    expect(link.status).toBe(200);
    const url = new URL(link.body.url as string);
    expect(url.pathname).toMatch(new RegExp(`^/${EXPORTS}/exports/.+/${id}-1\\.csv$`));
    const csv = (await (await fetch(url)).text()).trim().split('\n');
    expect(csv[0]).toBe('id,type');
    expect(csv).toHaveLength(([...docs][0] as number) + 1);
    summary.exports = {
      queuedOn: 0,
      runPerInstance: servers.map((_, i) => logsOf(i, 'export finished').length),
      downloaded: { writtenBy: writer, servedBy: reader, rows: csv.length - 1 },
    };
  }, 60_000);

  it('#23.1 firehose spool entries are delivered exactly once by three instances retrying at once', async () => {
    const storage = postgresStorage({ pool, schema });
    const accountId = (await pool.query(`SELECT account_id FROM ${q('api_keys')} LIMIT 1`)).rows[0]
      .account_id as string;
    const credential = aCredential(accountId, { type: 'aws', username: KEY.id, password: KEY.secret });
    (await storage.credentials.insert(credential))._unsafeUnwrap();
    const flowId = await flow({
      name: 'Firehosed',
      steps: [],
      firehose: {
        enabled: true,
        services: { aws: { enabled: true, credential_id: credential.id, bucket: FIREHOSE, prefix: 'fh' } },
      },
    });
    firehoseDown = true;
    const leads = await limited(
      30,
      Array.from(
        { length: 30 },
        (_, n) => () => api(instance(n), `/flows/${flowId}/sources/${vendor}/submit`, { first_name: `F${n}` }, null),
      ),
    );
    expect(leads.every((l) => l.status === 201)).toBe(true);
    const pending = () => count(`SELECT count(*) FROM ${q('spool')} WHERE delivered_at IS NULL`);
    await until('every event spooled', async () => (await pending()) === 30);
    firehoseDown = false;
    await until('the spool drained', async () => (await pending()) === 0, 30_000);
    const expected = (await pool.query(`SELECT lead_id, id FROM ${q('events')} WHERE flow_id = $1`, [flowId])).rows.map(
      (r: { lead_id: string; id: string }) => `fh/${r.lead_id}/${r.id}.json`,
    );
    expect(expected).toHaveLength(30);
    expect([...firehosePuts.keys()].sort()).toEqual(expected.sort());
    expect([...firehosePuts.values()].filter((n) => n !== 1)).toEqual([]);
    const deliveredBy = () =>
      servers.map((_, i) => logsOf(i, 'firehose spool retried').reduce((n, l) => n + (l.delivered as number), 0));
    // A pass logs what it delivered after marking it: wait for the lines, then a moment for any extra one.
    await until('the retry passes logged', () => deliveredBy().reduce((a, b) => a + b, 0) >= 30);
    await pause(300);
    const delivered = deliveredBy();
    summary.firehose = {
      spooled: 30,
      delivered: delivered.reduce((a, b) => a + b, 0),
      perInstance: delivered,
      writes: firehosePuts.size,
    };
    expect(delivered.reduce((a, b) => a + b, 0)).toBe(30);
  }, 60_000);

  /**
   * Copies of one recorded event, written straight to the table; expired ones are the retention purge's.
   * They expired 9 days ago: the events table is partitioned by week (#23.3), and in a week not wholly
   * expired the purge deletes only rows past its 8-day grace; the others go with their week's partition.
   */
  async function seedEvents(n: number, kind: 'live' | 'expired'): Promise<void> {
    seeded += 1;
    await pool.query(
      `INSERT INTO ${q('events')} (id, account_id, type, start_timestamp, lead_id, flow_id, key, expires_at, doc)
       SELECT n.id, e.account_id, e.type, e.start_timestamp, e.lead_id, e.flow_id, NULL,
              ${kind === 'expired' ? "now() - interval '9 days'" : 'e.expires_at'}, jsonb_set(e.doc::jsonb, '{id}', to_jsonb(n.id))::text
       FROM (SELECT * FROM ${q('events')} ORDER BY id LIMIT 1) e,
            LATERAL (SELECT substr(e.id, 1, 8) || lpad(to_hex($2::int * 1000000 + g), 16, '0') AS id FROM generate_series(1, $1::int) g) n`,
      [n, seeded],
    );
  }
  let seeded = 0;

  const purgedEvents = (i: number) =>
    logsOf(i, 'retention purge').reduce((n, l) => n + (typeof l.events === 'number' ? l.events : 0), 0);
  const holder = async (): Promise<number> => {
    const owner = (await pool.query(`SELECT owner FROM ${q('leases')} WHERE name = 'retention'`)).rows[0]
      ?.owner as string;
    return servers.findIndex((s) => owner?.includes(`:${s.child.pid}:`));
  };

  it('#23.1 retention purges running on every instance at once delete each expired event once', async () => {
    const before = servers.map((_, i) => purgedEvents(i));
    const expired = () => count(`SELECT count(*) FROM ${q('events')} WHERE expires_at < now()`);
    for (let wave = 0; wave < 2; wave++) {
      await seedEvents(1500, 'expired');
      await until('the expired events purged', async () => (await expired()) === 0);
    }
    // A pass logs its counts after deleting leads and search entries too: wait for the lines.
    const purgedSince = () => servers.map((_, i) => purgedEvents(i) - (before[i] as number));
    await until('the purges logged', () => purgedSince().reduce((a, b) => a + b, 0) >= 3000);
    await pause(300);
    const purged = purgedSince();
    summary.retention = {
      expired: 3000,
      purged: purged.reduce((a, b) => a + b, 0),
      perInstance: purged,
      holder: await holder(),
    };
    expect(purged.reduce((a, b) => a + b, 0)).toBe(3000);
  }, 60_000);

  it('#23.1 SIGKILL of one instance mid-load: no acknowledged lead is lost, and its export is taken over', async () => {
    // Enough rows that the export takes seconds: it is still running when its instance dies.
    await seedEvents(8000, 'live');
    const flowId = await flow({ name: 'Under load', steps: [step()] });
    const acknowledged: string[] = [];
    let stopped = false;
    let n = 0;
    let refused = 0;
    const worker = async () => {
      while (!stopped) {
        const i = instance(n++);
        try {
          const answer = await api(
            i,
            `/flows/${flowId}/sources/${vendor}/submit`,
            { first_name: `Load${n}`, email: `load${n}@example.com` },
            null,
          );
          if (answer.status === 201) acknowledged.push(answer.body.lead.id as string);
          else refused++;
        } catch {
          // That instance is gone: the next request goes to another.
          refused++;
        }
      }
    };
    const workers = Array.from({ length: 12 }, worker);
    await until('load under way', () => acknowledged.length >= 40);

    // An export queued now is run by some instance: that one is killed while it holds the job.
    const exp = await api(instance(0), '/exports', {
      start: '2020-01-01T00:00:00Z',
      end: '2100-01-01T00:00:00Z',
      fields: ['id'],
    });
    expect(exp.status).toBe(201);
    const exportId = exp.body.id as string;
    let victim = -1;
    await until('the export started', () => {
      victim = servers.findIndex((_, i) => logsOf(i, 'export started').some((l) => l.exportId === exportId));
      return victim >= 0;
    });
    const ackedBeforeKill = acknowledged.length;
    const retentionHolder = await holder();
    (servers[victim] as ServerProcess).child.kill('SIGKILL');
    alive.delete(victim);
    expect(await (servers[victim] as ServerProcess).exited).toBe(null);
    const halfway = await api(instance(0), `/exports/${exportId}`);
    expect(halfway.body.status, 'the export was still running when its instance was killed').toBe('processing');

    await until('more leads after the kill', () => acknowledged.length >= ackedBeforeKill + 40);
    stopped = true;
    await Promise.all(workers);

    // Its export: taken over once the 2 s lease ran out, finished by a survivor.
    await until(
      'the export taken over and complete',
      async () => (await api(instance(0), `/exports/${exportId}`)).body.status === 'complete',
      40_000,
    );
    // The status is published before the finisher logs 'export finished' (after settling its job): wait for the line.
    let finisher = -1;
    await until('the finisher logged it', () => {
      finisher = servers.findIndex((_, i) => logsOf(i, 'export finished').some((l) => l.exportId === exportId));
      return finisher >= 0;
    });
    expect(finisher).not.toBe(victim);
    expect(logsOf(finisher, 'export started').find((l) => l.exportId === exportId)).toMatchObject({ attempt: 2 });
    const job = (
      await pool.query(`SELECT attempts, state FROM ${q('jobs')} WHERE kind = 'export' AND id = $1`, [exportId])
    ).rows[0];
    expect(job).toEqual({ attempts: 2, state: 'done' });
    const link = await api(instance(0, finisher), `/exports/${exportId}/file`);
    const rows = (await (await fetch(link.body.url as string)).text()).trim().split('\n').length - 1;
    const done = await api(instance(1), `/exports/${exportId}`);
    expect(rows).toBe(done.body.exported_docs);

    // Every acknowledged lead is stored whole: its record and its source event.
    const found = await count(`SELECT count(*) FROM ${q('leads')} WHERE id = ANY($1::text[])`, [acknowledged]);
    const withSource = await count(
      `SELECT count(DISTINCT lead_id) FROM ${q('events')} WHERE type = 'source' AND lead_id = ANY($1::text[])`,
      [acknowledged],
    );
    // The survivors go on purging once the killed instance's retention lease (if it held it) runs out.
    await seedEvents(500, 'expired');
    await until(
      'retention after the kill',
      async () => (await count(`SELECT count(*) FROM ${q('events')} WHERE expires_at < now()`)) === 0,
    );

    summary.sigkill = {
      victim,
      acknowledged: acknowledged.length,
      lost: acknowledged.length - found,
      refusedOrCut: refused,
      exportTakenOverBy: finisher,
      exportRows: rows,
      retentionHolder: { before: retentionHolder, after: await holder() },
    };
    summary.jobsPerInstance = servers.map((_, i) => ({
      exports: logsOf(i, 'export finished').length,
      firehoseDelivered: logsOf(i, 'firehose spool retried').reduce((s, l) => s + (l.delivered as number), 0),
      retentionEvents: purgedEvents(i),
    }));
    expect(found).toBe(acknowledged.length);
    expect(withSource).toBe(acknowledged.length);
  }, 90_000);
});
