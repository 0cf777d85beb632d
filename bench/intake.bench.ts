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
import { type Bench, compare, measure } from './harness';

// Leads per second through service.leads.submit on memory storage, with a
// three-step flow (a filter, a priced and mapped recipient, a capped recipient)
// and an in-memory recipient; against a hand-written pipeline doing the same
// parse, criteria check and three in-memory writes with none of the service.
const lead = (i: number) => ({
  first_name: 'Ada',
  last_name: `Lovelace${i}`,
  email: `ada${i}@example.com`,
  phone_1: '512-555-0142',
  state: i % 2 ? 'TX' : 'CA',
  postal_code: '78701',
  loan_amount: String(1000 + (i % 50) * 100),
});

/** A service with the three-step flow, on the given storage. */
async function setUp(storage: Parameters<typeof createLeadService>[0]['storage']) {
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

  return { service, flow, vendor, recipient, acceptance };
}

/**
 * Leads per second through the three-step flow on PostgreSQL (a schema of its own,
 * dropped afterwards), ten at a time, or undefined when no server answers. Leads are
 * numbered from `first`. Exported so the PostgreSQL figure can be taken on its own.
 */
export async function postgresLeadsPerSecond(
  first = 0,
  options: {
    /** Makes the schema's tables; the partitions bench passes an older history. @default migrate */
    readonly prepare?: (pool: pg.Pool, schema: string) => Promise<void>;
    /** How long the measured run lasts. @default 4000 */
    readonly ms?: number;
    /** Leads submitted at a time (each wave waits for all of them). @default 10 */
    readonly concurrency?: number;
    /** Called at the start and the end of the measured run (the capacity bench reads CPU counters). */
    readonly onMeasured?: (phase: 'start' | 'end', pool: pg.Pool, schema: string, leads: number) => Promise<void>;
  } = {},
): Promise<number | undefined> {
  let n = first;
  const concurrency = options.concurrency ?? 10;
  const pool = new pg.Pool({
    connectionString: process.env.DATABASE_URL ?? 'postgres://leadroute:leadroute@127.0.0.1:5432/leadroute_test',
    max: 10,
  });
  pool.on('error', (error) => console.warn('idle PostgreSQL connection failed:', error.message));
  const schema = `bench_${Date.now()}`;
  try {
    if (options.prepare) await options.prepare(pool, schema);
    else (await migrate(pool, { schema }))._unsafeUnwrap();
    const onPg = await setUp(postgresStorage({ pool, schema }));
    // Ten leads at a time; a lead that fails would count as speed, so any failure stops the row.
    const wave = async () => {
      const results = await Promise.all(
        Array.from({ length: concurrency }, () => onPg.service.leads.submit(onPg.flow.id, onPg.vendor, lead(n++))),
      );
      const failed = results.find((r) => r.isErr());
      if (failed?.isErr()) throw new Error(`a lead failed: ${failed.error.message}`);
    };
    // A warm-up, as measure() has: the pool's connections open and the statements' first plans are not the steady
    // state.
    for (const until = performance.now() + 500; performance.now() < until; ) await wave();
    // Wall time here: the database works in its own processes, which CPU time would not count.
    await options.onMeasured?.('start', pool, schema, 0);
    const started = performance.now();
    let done = 0;
    while (performance.now() - started < (options.ms ?? 4000)) {
      await wave();
      done += concurrency;
    }
    const perSecond = (done / (performance.now() - started)) * 1000;
    await options.onMeasured?.('end', pool, schema, done);
    return perSecond;
  } catch (e) {
    console.log(`(skipped the PostgreSQL row: ${(e as Error).message}; start it with bash scripts/services.sh)`);
    return undefined;
  } finally {
    await pool.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => undefined);
    await pool.end();
  }
}

const bench: Bench = async () => {
  const { service, flow, vendor, recipient, acceptance } = await setUp(memoryStorage());
  // The baseline: the same parse and criteria, and three writes, by hand.
  const criteria = compileRuleSet(validateRuleSet(acceptance)._unsafeUnwrap());
  const baselineStore = new Map<number, unknown>();
  let n = 0;
  // Measured one after the other, the baseline first: the service's stores grow as
  // it runs, and interleaving would charge their garbage collection to the baseline.
  const baseline = await measure(
    async () => {
      const raw = lead(n++);
      const typed = typeLead(raw, [{ id: 'lead.loan_amount', type: 'number' }]);
      const env = { now: Date.now(), timeZone: 'America/Chicago' };
      if (!criteria({ lead: typed }, env).pass) return;
      for (let i = 0; i < 3; i++) baselineStore.set(n * 3 + i, { ...raw, step: i });
      await recipient.deliver({ lead: raw, config: {}, lead_id: '', event_id: '', signal: AbortSignal.any([]) });
    },
    { seconds: 2, batch: 20 },
  );
  // A lead that fails fast would count as speed: every measured lead must be delivered.
  const ours = await measure(
    async () => {
      const result = await service.leads.submit(flow.id, vendor, lead(n++));
      if (result.isErr() || result.value.outcome !== 'success')
        throw new Error(`a lead was not delivered: ${JSON.stringify(result.isErr() ? result.error : result.value)}`);
    },
    { seconds: 2, batch: 20 },
  );
  const results = { leadroute: ours.opsPerSec, 'hand-written pipeline': baseline.opsPerSec };
  const rows = [
    compare('intake: leads/s through service.leads.submit (memory, 3 steps)', results.leadroute, {
      name: 'hand-written pipeline',
      value: results['hand-written pipeline'],
      minRatio: 0.33,
    }),
  ];

  // The same flow on PostgreSQL, beside the same baseline.
  const onPostgres = await postgresLeadsPerSecond(n);
  if (onPostgres !== undefined) {
    rows.push(
      compare('intake: leads/s through service.leads.submit (PostgreSQL, 3 steps, 10 at a time)', onPostgres, {
        name: 'hand-written pipeline (memory)',
        value: results['hand-written pipeline'],
      }),
    );
  }
  return rows;
};

export default bench;
