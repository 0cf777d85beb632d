import {
  compileRuleSet,
  createLeadService,
  type EntityCreateBody,
  type TypedRuleSet,
  scriptedRecipient,
  typeLead,
  validateRuleSet,
} from '@leadroute/core';
import { memoryStorage } from '@leadroute/memory';
import { migrate, postgresStorage } from '@leadroute/postgres';
import pg from 'pg';
import { countCommits } from '../adapters/postgres/src/commit-count';
import { atMost, type Bench, compare, measure, median } from './harness';

// Leads per second through service.leads.submit on memory storage, with a
// three-step flow (a filter, a priced and mapped recipient, a capped recipient)
// and an in-memory recipient; against a hand-written pipeline doing the same
// parse, criteria check and three in-memory writes with none of the service.
export const lead = (i: number) => ({
  first_name: 'Ada',
  last_name: `Lovelace${i}`,
  email: `ada${i}@example.com`,
  phone_1: '512-555-0142',
  state: i % 2 ? 'TX' : 'CA',
  postal_code: '78701',
  loan_amount: String(1000 + (i % 50) * 100),
});

/** A service with the three-step flow, on the given storage (the PostgreSQL commit-count test drives it too). */
export async function setUp(storage: Parameters<typeof createLeadService>[0]['storage']) {
  const recipient = scriptedRecipient();
  recipient.respondWith({ outcome: 'success', price: 4, reference: 'R' });
  const service = createLeadService({ storage, integrations: [recipient], host: 'bench', exports: { worker: false } });
  const { api_key } = (await service.accounts.create({ name: 'Bench', time_zone: 'America/Chicago' }))._unsafeUnwrap();
  const principal = (await service.accounts.authenticate(api_key))._unsafeUnwrap();
  const entity = async (body: { name: string } & Partial<EntityCreateBody>) =>
    (
      await service.entities.create(principal, { module_ids: [], source: null, recipient: null, ...body })
    )._unsafeUnwrap().id;
  const vendor = await entity({ name: 'Vendor', source: 'seller' });
  const buyer = await entity({ name: 'Buyer', recipient: 'buyer' });
  const acceptance: TypedRuleSet = {
    op: 'and',
    rules: [
      { lhv: 'lead.state', op: 'is included in', rhv: ['TX', 'CA'] },
      { lhv: 'lead.email', op: 'format is valid' },
    ],
  };
  const flow = (
    await service.flows.create(principal, {
      name: 'Bench flow',
      fields: [{ id: 'lead.loan_amount', type: 'number' }],
      acceptance_criteria: acceptance,
      sources: [{ entity_id: vendor, pricing: { prices: [{ amount: 2 }] } }],
      steps: [
        {
          type: 'filter',
          entity_id: buyer,
          rule_set: { op: 'and', rules: [{ lhv: 'lead.state', op: 'is equal to', rhv: 'NY' }] },
        },
        {
          type: 'recipient',
          entity_id: buyer,
          module_id: recipient.id,
          rule_set: { op: 'and', rules: [{ lhv: 'lead.loan_amount', op: 'is greater than', rhv: 500 }] },
          pricing: {
            override: false,
            prices: [
              { amount: 10 },
              { amount: 15, rule_set: { op: 'and', rules: [{ lhv: 'lead.state', op: 'is equal to', rhv: 'TX' }] } },
            ],
          },
          mappings: [{ property: 'name', value: '{{ lead.first_name }} {{ lead.last_name }}' }],
        },
        {
          type: 'recipient',
          entity_id: buyer,
          module_id: recipient.id,
          caps: [{ name: 'Big', maximum: 1_000_000_000, duration: 1, duration_units: 'days' }],
        },
      ],
    })
  )._unsafeUnwrap();

  return { service, flow, vendor, recipient, acceptance, account: principal.account.id };
}

/** The flow's service on some storage, as {@link setUp} makes it. */
type Intake = Awaited<ReturnType<typeof setUp>>;

/** What {@link drive} measured. */
interface Driven {
  /** Leads per second of wall time. */
  readonly perSecond: number;
  /** The median time one lead took, submit to answer (ms). */
  readonly p50: number;
  readonly leads: number;
}

/**
 * `clients` clients, each submitting one lead after another (the next once the last is answered), for `ms` of wall
 * time after a warm-up: leads per second, and the median time a lead took. Wall time: the database works in its own
 * processes, which this process's CPU time would not count. A lead that fails would count as speed, so any failure
 * stops the row; `next` numbers the leads.
 */
async function drive(
  on: Intake,
  clients: number,
  ms: number,
  next: () => number,
  onStart?: () => Promise<void>,
): Promise<Driven> {
  const run = async (until: number, times?: number[]) => {
    const client = async () => {
      while (performance.now() < until) {
        const started = performance.now();
        const result = await on.service.leads.submit(on.flow.id, on.vendor, lead(next()));
        if (result.isErr()) throw new Error(`a lead failed: ${result.error.message}`);
        times?.push(performance.now() - started);
      }
    };
    await Promise.all(Array.from({ length: clients }, client));
  };
  // A warm-up, as measure() has: the pool's connections open and the statements' first plans are not the steady state.
  await run(performance.now() + 500);
  await onStart?.();
  const times: number[] = [];
  const started = performance.now();
  await run(started + ms, times);
  return { perSecond: (times.length / (performance.now() - started)) * 1000, p50: median(times), leads: times.length };
}

/** The three-step flow on a PostgreSQL schema of its own, with its pool's commits counted; `close` drops the schema. */
interface OnPostgres {
  readonly on: Intake;
  readonly pool: pg.Pool;
  readonly schema: string;
  readonly commits: ReturnType<typeof countCommits>;
  close(): Promise<void>;
}

/** Opens {@link OnPostgres}, or undefined (saying why) when no server answers. */
async function openPostgres(
  prepare?: (pool: pg.Pool, schema: string) => Promise<void>,
): Promise<OnPostgres | undefined> {
  const pool = new pg.Pool({
    connectionString: process.env.DATABASE_URL ?? 'postgres://leadroute:leadroute@127.0.0.1:5432/leadroute_test',
    max: 10,
  });
  pool.on('error', (error) => console.warn('idle PostgreSQL connection failed:', error.message));
  const commits = countCommits(pool);
  const schema = `bench_${Date.now()}`;
  const close = async () => {
    await pool.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => undefined);
    await pool.end();
  };
  try {
    if (prepare) await prepare(pool, schema);
    else (await migrate(pool, { schema }))._unsafeUnwrap();
    return { on: await setUp(postgresStorage({ pool, schema })), pool, schema, commits, close };
  } catch (e) {
    console.log(`(skipped the PostgreSQL row: ${(e as Error).message}; start it with bash scripts/services.sh)`);
    await close();
    return undefined;
  }
}

/**
 * The three-step flow on PostgreSQL (a schema of its own, dropped afterwards), `concurrency` clients each submitting
 * one lead after another: leads per second, the median time per lead and the commits per lead (every write commit
 * the pool's connections made during the measured run, over the leads; and of those, the ones that waited for the WAL
 * flush), or undefined when no server answers. Leads are numbered from `first`.
 */
export async function postgresIntake(
  first = 0,
  options: {
    /** Makes the schema's tables; the partitions bench passes an older history. @default migrate */
    readonly prepare?: (pool: pg.Pool, schema: string) => Promise<void>;
    /** How long the measured run lasts. @default 4000 */
    readonly ms?: number;
    /** Clients submitting at once, each one lead after another. @default 10 */
    readonly concurrency?: number;
    /** Called at the start and the end of the measured run (the capacity bench reads CPU counters). */
    readonly onMeasured?: (phase: 'start' | 'end', pool: pg.Pool, schema: string, leads: number) => Promise<void>;
  } = {},
): Promise<(Driven & { readonly commitsPerLead: number; readonly flushesPerLead: number }) | undefined> {
  let n = first;
  const opened = await openPostgres(options.prepare);
  if (opened === undefined) return undefined;
  const { on, pool, schema, commits } = opened;
  try {
    const driven = await drive(
      on,
      options.concurrency ?? 10,
      options.ms ?? 4000,
      () => n++,
      async () => {
        await options.onMeasured?.('start', pool, schema, 0);
        commits.reset();
      },
    );
    const counted = commits.counts();
    await options.onMeasured?.('end', pool, schema, driven.leads);
    return {
      ...driven,
      commitsPerLead: counted.commits / driven.leads,
      flushesPerLead: counted.flushes / driven.leads,
    };
  } finally {
    await opened.close();
  }
}

/**
 * The same flow on PostgreSQL and on memory, `clients` clients each, in `rounds` alternating rounds of `ms` (PostgreSQL
 * first): each side's median leads/s and median p50 over its rounds, and PostgreSQL's commits per lead over all of
 * them. Alternating, as measureInterleaved does, lets a busy moment on the machine slow both sides instead of
 * whichever ran during it (one side after the other, eleven runs' ratios at 16 clients ranged from 0.38 to 0.59).
 */
async function sideBySide(clients: number, first: number, rounds = 3, ms = 2000) {
  const opened = await openPostgres();
  if (opened === undefined) return undefined;
  try {
    const memory = await setUp(memoryStorage());
    let n = first;
    let m = 0;
    const pgRuns: Driven[] = [];
    const memoryRuns: Driven[] = [];
    let commits = 0;
    let flushes = 0;
    for (let round = 0; round < rounds; round++) {
      const run = await drive(
        opened.on,
        clients,
        ms,
        () => n++,
        async () => opened.commits.reset(),
      );
      const counted = opened.commits.counts();
      commits += counted.commits;
      flushes += counted.flushes;
      pgRuns.push(run);
      memoryRuns.push(await drive(memory, clients, ms, () => m++));
    }
    const leads = pgRuns.reduce((sum, r) => sum + r.leads, 0);
    const medians = (runs: Driven[]) => ({
      perSecond: median(runs.map((r) => r.perSecond)),
      p50: median(runs.map((r) => r.p50)),
    });
    return {
      postgres: { ...medians(pgRuns), commitsPerLead: commits / leads, flushesPerLead: flushes / leads },
      memory: medians(memoryRuns),
    };
  } finally {
    await opened.close();
  }
}

/** Leads per second of {@link postgresIntake}, or undefined when no server answers. */
export async function postgresLeadsPerSecond(
  first = 0,
  options: Parameters<typeof postgresIntake>[1] = {},
): Promise<number | undefined> {
  return (await postgresIntake(first, options))?.perSecond;
}

const bench: Bench = async () => {
  const { service, flow, vendor, recipient, acceptance } = await setUp(memoryStorage());
  // The baseline: the same parse and criteria, and three writes, by hand.
  const criteria = compileRuleSet(validateRuleSet(acceptance)._unsafeUnwrap());
  const baselineStore = new Map<number, unknown>();
  let n = 0;
  // Measured one after the other, the baseline first: the service's stores grow as
  // it runs, and interleaving would charge their garbage collection to the baseline.
  // Both after 3 s of warm-up: a lead through the service took 540-570 µs of CPU in its
  // first thousand, 250-300 around 1.5 s, and 175-220 only after about 2.5 s, as V8
  // optimized its longer path. With the 0.3 s of other rows, the measured 2 s were mostly
  // that warm-up: 2,905 leads/s one run, 3,935 and 4,925 with this warm-up the next two (2026-11-27).
  const baseline = await measure(
    async () => {
      const raw = lead(n++);
      const typed = typeLead(raw, [{ id: 'lead.loan_amount', type: 'number' }]);
      const env = { now: Date.now(), timeZone: 'America/Chicago' };
      if (!criteria({ lead: typed }, env).pass) return;
      for (let i = 0; i < 3; i++) baselineStore.set(n * 3 + i, { ...raw, step: i });
      await recipient.deliver({ lead: raw, config: {}, lead_id: '', event_id: '', signal: AbortSignal.any([]) });
    },
    { seconds: 2, batch: 20, warmup: 3 },
  );
  // Its writes are done with: the service's run should not mark them at every collection.
  baselineStore.clear();
  // A lead that fails fast would count as speed: every measured lead must be delivered.
  const ours = await measure(
    async () => {
      const result = await service.leads.submit(flow.id, vendor, lead(n++));
      if (result.isErr() || result.value.outcome !== 'success')
        throw new Error(`a lead was not delivered: ${JSON.stringify(result.isErr() ? result.error : result.value)}`);
    },
    { seconds: 2, batch: 20, warmup: 3 },
  );
  const results = { leadroute: ours.opsPerSec, 'hand-written pipeline': baseline.opsPerSec };
  const rows = [
    compare('intake: leads/s through service.leads.submit (memory, 3 steps)', results.leadroute, {
      name: 'hand-written pipeline',
      value: results['hand-written pipeline'],
      minRatio: 0.33,
    }),
  ];

  // The same flow on PostgreSQL, beside the same flow on memory driven the same way (issue 22, target 3): at 16 and
  // 64 clients at least half the leads/s of memory, one client's median lead within 5 ms, at most one commit per lead.
  for (const clients of [1, 16, 64]) {
    const both = await sideBySide(clients, n);
    n += 1_000_000;
    if (both === undefined) break;
    const { postgres: onPostgres, memory: onMemory } = both;
    const who = clients === 1 ? '1 client' : `${clients} clients`;
    console.log(
      `PostgreSQL, ${who}: ${onPostgres.perSecond.toFixed(0)} leads/s, p50 ${onPostgres.p50.toFixed(2)} ms, ` +
        `${onPostgres.commitsPerLead.toFixed(2)} commits per lead (${onPostgres.flushesPerLead.toFixed(2)} waiting for the WAL flush); memory: ${onMemory.perSecond.toFixed(0)} leads/s, ` +
        `p50 ${onMemory.p50.toFixed(2)} ms`,
    );
    rows.push(
      compare(`intake: leads/s through service.leads.submit (PostgreSQL, 3 steps, ${who})`, onPostgres.perSecond, {
        name: `memory, ${who}`,
        value: onMemory.perSecond,
        ...(clients === 1 ? {} : { minRatio: 0.5 }),
      }),
    );
    const last = rows[rows.length - 1];
    // The ratio's target holds only with at most one commit per lead: both are issue 22's target 3.
    if (last && clients > 1)
      rows[rows.length - 1] = {
        ...last,
        target: '>= 0.5 with <= 1 commit per lead',
        met: (last.ratio ?? 0) >= 0.5 && onPostgres.commitsPerLead <= 1,
      };
    if (clients === 1)
      rows.push(
        atMost(
          'intake: p50 latency per lead through service.leads.submit (PostgreSQL, 3 steps, 1 client)',
          'ms',
          onPostgres.p50,
          { name: 'memory, 1 client', value: onMemory.p50 },
          5,
        ),
      );
  }
  return rows;
};

export default bench;
