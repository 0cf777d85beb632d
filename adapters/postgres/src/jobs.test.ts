import type { JobStore } from '@leadroute/core';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { jobStore } from './stores/jobs';
import { qualified } from './sql';
import { DATABASE_URL, databaseAvailable, freshSchema, type TestSchema } from './test-support';

const available = await databaseAvailable('jobs.test.ts');

const T0 = Date.UTC(2026, 2, 1, 12);
const LEASE = 30_000;

describe.skipIf(!available)('postgres jobs shared by several processes', () => {
  let db: TestSchema;
  let pools: pg.Pool[];
  beforeAll(async () => {
    db = await freshSchema();
    // Separate pools stand for separate worker processes.
    pools = Array.from({ length: 4 }, () => new pg.Pool({ connectionString: DATABASE_URL, max: 3 }));
  });
  afterAll(async () => {
    await Promise.all((pools ?? []).map((pool) => pool.end()));
    await db?.drop();
  });
  beforeEach(async () => {
    await db.truncate();
  });

  const stores = (): JobStore[] => pools.map((pool) => jobStore(pool, db.schema));

  it('never hands one job to two workers: every job is processed exactly once', async () => {
    const [first] = stores();
    const ids = Array.from({ length: 60 }, (_, i) => `job-${String(i).padStart(2, '0')}`);
    for (const id of ids)
      (await first?.enqueue({ kind: 'export', id, dueAt: T0 - 1000, payload: { id } }, T0 - 1000))?._unsafeUnwrap();
    const processed: string[] = [];
    // Three workers per process claim, "work" (yield to the others) and complete until nothing is left.
    const worker = async (jobs: JobStore) => {
      for (;;) {
        const job = (await jobs.claim('export', T0, LEASE))._unsafeUnwrap();
        if (!job) return;
        expect(job.payload).toEqual({ id: job.id });
        processed.push(job.id);
        await new Promise((resolve) => setImmediate(resolve));
        expect((await jobs.complete({ kind: job.kind, id: job.id, leaseId: job.leaseId }, T0))._unsafeUnwrap()).toBe(
          true,
        );
      }
    };
    await Promise.all(stores().flatMap((jobs) => [worker(jobs), worker(jobs), worker(jobs)]));
    expect([...processed].sort()).toEqual(ids);
    const { rows } = await db.pool.query<{ state: string; attempts: number; n: number }>(
      `SELECT state, attempts, count(*)::int AS n FROM ${qualified(db.schema, 'jobs')} GROUP BY state, attempts`,
    );
    expect(rows).toEqual([{ state: 'done', attempts: 1, n: 60 }]);
  });

  it('hands the job of a worker that died mid-job to another once its lease runs out', async () => {
    const [dying, survivor] = stores() as [JobStore, JobStore];
    (await dying.enqueue({ kind: 'export', id: 'e1', dueAt: T0 }, T0))._unsafeUnwrap();
    const claimed = (await dying.claim('export', T0, LEASE))._unsafeUnwrap();
    if (!claimed) throw new Error('no job claimed');
    // The dying worker extends once, then its process goes away without settling the job.
    expect(
      (await dying.extend({ kind: 'export', id: 'e1', leaseId: claimed.leaseId }, T0 + 10_000, LEASE))._unsafeUnwrap(),
    ).toBe(true);
    await pools[0]?.end();
    pools[0] = new pg.Pool({ connectionString: DATABASE_URL, max: 3 });
    expect((await survivor.claim('export', T0 + 10_000 + LEASE - 1, LEASE))._unsafeUnwrap()).toBeUndefined();
    const taken = (await survivor.claim('export', T0 + 10_000 + LEASE, LEASE))._unsafeUnwrap();
    expect(taken).toMatchObject({ id: 'e1', attempts: 2, state: 'pending', leasedUntil: T0 + 10_000 + 2 * LEASE });
    // Were the first worker to come back, its lease is void; the job finishes once, under the new lease.
    const revived = jobStore(pools[0] as pg.Pool, db.schema);
    expect(
      (await revived.complete({ kind: 'export', id: 'e1', leaseId: claimed.leaseId }, T0 + 100_000))._unsafeUnwrap(),
    ).toBe(false);
    expect(
      (
        await survivor.complete({ kind: 'export', id: 'e1', leaseId: taken?.leaseId as string }, T0 + 100_000)
      )._unsafeUnwrap(),
    ).toBe(true);
    expect((await survivor.get('export', 'e1'))._unsafeUnwrap()).toMatchObject({ state: 'done', attempts: 2 });
  });

  it('skips a job whose row a killed session still locks instead of waiting, and claims it once the lock is gone', async () => {
    const [jobs] = stores() as [JobStore];
    (await jobs.enqueue({ kind: 'export', id: 'locked', dueAt: T0 }, T0))._unsafeUnwrap();
    (await jobs.enqueue({ kind: 'export', id: 'free', dueAt: T0 + 1 }, T0))._unsafeUnwrap();
    // A session in the middle of claiming (the row locked, nothing committed) ...
    const stuck = new pg.Client({ connectionString: DATABASE_URL });
    await stuck.connect();
    stuck.on('error', () => undefined);
    await stuck.query('BEGIN');
    await stuck.query(`SELECT 1 FROM ${qualified(db.schema, 'jobs')} WHERE id = 'locked' FOR UPDATE`);
    const { rows } = await stuck.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    // ... is skipped: the claim answers at once with the next job rather than waiting on the lock.
    expect((await jobs.claim('export', T0 + 10, LEASE))._unsafeUnwrap()?.id).toBe('free');
    expect((await jobs.claim('export', T0 + 10, LEASE))._unsafeUnwrap()).toBeUndefined();
    // Its process is killed: the transaction rolls back, the lock goes, and the job is claimable.
    // With a timeout, pg_terminate_backend waits until the session is gone, so its locks are too.
    await db.pool.query('SELECT pg_terminate_backend($1, 5000)', [rows[0]?.pid]);
    await stuck.end().catch(() => undefined);
    expect((await jobs.claim('export', T0 + 10, LEASE))._unsafeUnwrap()).toMatchObject({ id: 'locked', attempts: 1 });
  });
});
