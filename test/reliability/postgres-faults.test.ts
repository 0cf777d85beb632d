import { createLeadService, type LeadService } from '@leadroute/core';
import { migrate, postgresStorage } from '@leadroute/postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../support/call';
import { createPgCluster, hasPostgresBinaries, type PgCluster } from '../support/pg-cluster';
import { type Binding, startBinding } from '../support/servers';

// Invariants: while the database is down the service answers 503 (never a 500 or
// a crash), it recovers by itself when the database returns, and every lead it
// acknowledged is stored. The database is a cluster of this test's own, stopped
// and started in the middle of a load.
const run = hasPostgresBinaries() || process.env.CI ? describe : describe.skip;

run('PostgreSQL restarted during a load', () => {
  let cluster: PgCluster;
  let pool: pg.Pool;
  let service: LeadService;
  let binding: Binding;
  let flowId: string;
  let vendorId: string;
  const poolErrors: Error[] = [];

  beforeAll(async () => {
    cluster = await createPgCluster();
    pool = new pg.Pool({ connectionString: cluster.url, max: 8, connectionTimeoutMillis: 1000 });
    // Idle clients lose their connection when the server stops; the host must listen, or Node crashes.
    pool.on('error', (e) => poolErrors.push(e));
    (await migrate(pool))._unsafeUnwrap();
    service = createLeadService({ storage: postgresStorage({ pool }), exports: { worker: false } });
    const { api_key } = (await service.accounts.create({ name: 'Faults' }))._unsafeUnwrap();
    const principal = (await service.accounts.authenticate(api_key))._unsafeUnwrap();
    vendorId = (
      await service.entities.create(principal, { name: 'Vendor', module_ids: [], source: 'seller', recipient: null })
    )._unsafeUnwrap().id;
    flowId = (
      await service.flows.create(principal, { name: 'Faults', sources: [{ entity_id: vendorId }], steps: [] })
    )._unsafeUnwrap().id;
    binding = await startBinding('express', service);
  }, 60_000);

  afterAll(async () => {
    await binding?.close();
    await pool?.end().catch(() => undefined);
    cluster?.destroy();
  });

  it('answers 503 while down, recovers, and stores every acknowledged lead', async () => {
    const acknowledged: string[] = [];
    const statuses = new Map<number, number>();
    const post = async (i: number) => {
      const res = await call(binding.url, {
        path: `/flows/${flowId}/sources/${vendorId}/submit`,
        json: { first_name: `Load${i}`, email: `load${i}@example.com` },
      });
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      if (res.status === 201) acknowledged.push(res.body.lead.id);
      else expect(res.status, res.text).toBe(503);
    };
    let i = 0;
    const load = async (ms: number) => {
      const until = Date.now() + ms;
      while (Date.now() < until) await Promise.all(Array.from({ length: 5 }, () => post(i++)));
    };
    await load(1500);
    cluster.stop();
    await load(1500);
    cluster.start();
    // Recovery: the pool reconnects on its own; keep posting until leads are acknowledged again.
    const before = acknowledged.length;
    const deadline = Date.now() + 20_000;
    while (acknowledged.length < before + 20 && Date.now() < deadline) await load(300);
    expect(statuses.get(503), 'requests during the outage get 503').toBeGreaterThan(0);
    expect(acknowledged.length, 'the service recovered').toBeGreaterThanOrEqual(before + 20);
    const stored = await pool.query<{ id: string }>('SELECT id FROM leads WHERE id = ANY($1)', [acknowledged]);
    expect(new Set(stored.rows.map((r) => r.id))).toEqual(new Set(acknowledged));
  }, 90_000);
});
