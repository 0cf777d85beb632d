import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { createLeadService } from '@leadroute/core';
import { migrate, postgresStorage } from '@leadroute/postgres';
import pg from 'pg';
import { type Bench, type BenchRow, median } from './harness';
import { load, type Measured } from './support/processes';

// Intake through the production server (servers/leadroute, each instance its own OS
// process and pool) with 1, 2 and 3 instances on one PostgreSQL schema. The load
// generators (autocannon, one per instance, 24 connections in all) run in processes of
// their own, so the figures are the servers'; each row is leads/s summed over the
// instances (the median of three rounds), beside one instance's. The flow has no
// recipient step: what is measured is the intake path and its writes (a lead, its
// source event, its rollup row and search document in one transaction), the part
// several instances share one database for.
//
// Server CPU per lead is read from /proc for the instances, database CPU per lead for
// every `postgres` process (the local server; other work on it counts too).
//
// Where the bottleneck is: locks, then CPU. Measured on this shared 2-core machine (other
// work kept its load average near 7): 1 instance 295 leads/s (1.5 ms of server CPU and
// 0.5 ms of PostgreSQL CPU per lead), 2 instances 102 leads/s, 3 instances 110 leads/s,
// with server CPU per lead up to 4 ms. Every lead of a flow adds to the same rollup row
// (account, flow, entity, step, kind, outcome, hour) in its transaction. One instance's
// group commit has one batch in flight and sums a whole batch's increments into one
// update, so it never waits for itself; two instances' batches update that row in two
// transactions, and the second waits on the first's row lock until it commits. Sampling
// pg_stat_activity during a 2-instance round showed `Lock: transactionid` on the rollups
// upsert as the most frequent state of the schema's backends by far. The lock is held
// from the rollups statement (first in the batch, for a fixed lock order) through the
// search, event and lead inserts and the commit: several round trips to a Node process
// that is itself waiting for a core. So batches from different instances run one after
// another, each smaller than one instance's would be, and the per-lead cost of a batch
// rises. Adding instances adds no cores here, so app CPU caps the rest. What would lift
// it: taking the rollup lock as late in the batch as the lock order allows, or sending a batch's
// statements in one round trip; with more cores, instances then scale until
// PostgreSQL's CPU or its WAL flush is the limit.

const root = fileURLToPath(new URL('..', import.meta.url));
const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://leadroute:leadroute@127.0.0.1:5432/leadroute_test';
const API_KEY = 'bench-scale-key-0123456789';
const CONNECTIONS = 24;
const ROUNDS = 3;
const SECONDS = 3;

interface Instance {
  readonly child: ChildProcess;
  readonly url: string;
}

const TICK_MS = 10; // USER_HZ is 100 on Linux

/** User + system CPU of a process so far, in ms; 0 once it is gone. */
function processCpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return 0;
  }
}

/** CPU of every process named postgres, in ms. */
function postgresCpuMs(): number {
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === 'postgres') total += processCpuMs(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return total;
}

/** A free loopback port: the server logs nothing at warn when it listens, so it is told which one to take. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

async function startInstance(schema: string): Promise<Instance> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'servers/leadroute/src/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL,
      LEADROUTE_DATABASE_SCHEMA: schema,
      LEADROUTE_INSTANCES: '3',
      // Export files are not used here; a shared directory and link secret satisfy LEADROUTE_INSTANCES.
      LEADROUTE_EXPORT_DIR: '/tmp/leadroute-bench-scale',
      LEADROUTE_EXPORT_LINK_SECRET: 'bench-scale-link-secret-0123456789',
      // Info would log a line per request, which is CPU the figures should not carry.
      LEADROUTE_LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (const deadline = Date.now() + 60_000; ; ) {
    if (child.exitCode !== null) throw new Error(`[bench] the server exited with ${child.exitCode}`);
    const ready = await fetch(`${url}/readyz`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ready) return { child, url };
    if (Date.now() > deadline) throw new Error('[bench] the server did not start');
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function stop(instances: readonly Instance[]): Promise<void> {
  await Promise.all(
    instances.map(
      (i) =>
        new Promise<void>((resolve) => {
          if (i.child.exitCode !== null) return resolve();
          i.child.once('exit', () => resolve());
          i.child.kill('SIGTERM');
        }),
    ),
  );
}

interface Round {
  readonly rps: number;
  readonly total: number;
  readonly p99: number;
  readonly appCpuMsPerLead: number;
  readonly dbCpuMsPerLead: number;
}

/** One round: a load generator per instance, all at once; their figures summed. */
async function round(instances: readonly Instance[], submit: string, body: string, seconds: number): Promise<Round> {
  const app = () => instances.reduce((sum, i) => sum + processCpuMs(i.child.pid as number), 0);
  const [app0, db0] = [app(), postgresCpuMs()];
  const loads: Measured[] = await Promise.all(
    instances.map((i) =>
      load({
        url: `${i.url}${submit}`,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
        connections: Math.round(CONNECTIONS / instances.length),
        duration: seconds,
      }),
    ),
  );
  const total = loads.reduce((sum, l) => sum + l.total, 0);
  return {
    rps: loads.reduce((sum, l) => sum + l.rps, 0),
    total,
    p99: Math.max(...loads.map((l) => l.p99)),
    appCpuMsPerLead: (app() - app0) / total,
    dbCpuMsPerLead: (postgresCpuMs() - db0) / total,
  };
}

const bench: Bench = async () => {
  const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 2 });
  pool.on('error', () => undefined);
  const schema = `bench_scale_${Date.now()}`;
  const rows: BenchRow[] = [];
  try {
    (await migrate(pool, { schema }))._unsafeUnwrap();
    const setup = createLeadService({ storage: postgresStorage({ pool, schema }) });
    const account = await setup.accounts.create({ name: 'Bench', api_key: API_KEY, time_zone: 'UTC', plan: 'paid' });
    const principal = (await setup.accounts.authenticate(account._unsafeUnwrap().api_key))._unsafeUnwrap();
    const vendor = (
      await setup.entities.create(principal, { name: 'Vendor', source: 'seller', recipient: null, module_ids: [] })
    )._unsafeUnwrap();
    const flow = (
      await setup.flows.create(principal, { name: 'Scale', sources: [{ entity_id: vendor.id }], steps: [] })
    )._unsafeUnwrap();
    const submit = `/flows/${flow.id}/sources/${vendor.id}/submit`;
    const body = JSON.stringify({
      first_name: 'Ada',
      last_name: 'Lovelace',
      email: 'ada@example.com',
      phone_1: '5125550100',
    });

    const figures: { instances: number; rps: number; app: number; db: number; p99: number }[] = [];
    for (const n of [1, 2, 3]) {
      const instances = await Promise.all(Array.from({ length: n }, () => startInstance(schema)));
      try {
        await round(instances, submit, body, 1); // warm-up: JIT, pools, plans
        const rounds: Round[] = [];
        for (let r = 0; r < ROUNDS; r++) rounds.push(await round(instances, submit, body, SECONDS));
        figures.push({
          instances: n,
          rps: median(rounds.map((r) => r.rps)),
          app: median(rounds.map((r) => r.appCpuMsPerLead)),
          db: median(rounds.map((r) => r.dbCpuMsPerLead)),
          p99: median(rounds.map((r) => r.p99)),
        });
      } finally {
        await stop(instances);
      }
    }
    console.log('instances  leads/s  server CPU ms/lead  PostgreSQL CPU ms/lead  p99 ms');
    for (const f of figures)
      console.log(
        `${String(f.instances).padStart(9)}  ${f.rps.toFixed(0).padStart(7)}  ${f.app.toFixed(2).padStart(18)}  ${f.db.toFixed(2).padStart(22)}  ${String(f.p99).padStart(6)}`,
      );
    const one = figures[0] as (typeof figures)[number];
    const measuredAt = new Date().toISOString();
    for (const f of figures)
      rows.push({
        name: `scale: intake leads/s, ${f.instances} production server instance${f.instances > 1 ? 's' : ''} on one PostgreSQL (HTTP, ${CONNECTIONS} connections)`,
        unit: 'ops/s',
        value: f.rps,
        ...(f.instances > 1 ? { baseline: '1 instance', baselineValue: one.rps, ratio: f.rps / one.rps } : {}),
        measuredAt,
      });
    rows.push({
      name: 'scale: server CPU per lead, 3 instances (all instances, ms)',
      unit: 'ms',
      value: (figures[2] as (typeof figures)[number]).app,
      baseline: '1 instance',
      baselineValue: one.app,
      measuredAt,
    });
  } catch (e) {
    console.log(`(skipped the scale rows: ${(e as Error).message}; start PostgreSQL with bash scripts/services.sh)`);
  } finally {
    await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => undefined);
    await pool.end();
  }
  return rows;
};

export default bench;
