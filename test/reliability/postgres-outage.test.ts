import { createLeadService, type LeadService, type Logger } from '@leadroute/core';
import { migrate, postgresStorage } from '@leadroute/postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Answer, call } from '../support/call';
import { createPgCluster, hasPostgresBinaries, type PgCluster } from '../support/pg-cluster';
import { BINDINGS, type Binding, startBinding } from '../support/servers';

// Issue #18 items 10 and 11 on a real PostgreSQL of this test's own, stopped (fast and
// immediate), frozen (SIGSTOP) and brought back under load through both bindings.
// Unlike postgres-faults.test.ts, the host adds NO pool error listener and sets no pool
// timeouts: postgresStorage must do both, or the process crashes / requests hang.
const run = hasPostgresBinaries() || process.env.CI ? describe : describe.skip;

const ACQUIRE_MS = 1000;
const STATEMENT_MS = 2000;
/**
 * Generous: a request meets a read, a write batch and an acquire at most, each bounded by the timeouts above; 2 busy
 * cores.
 */
const ANSWER_WITHIN_MS = 3 * STATEMENT_MS + ACQUIRE_MS + 3000;

run('PostgreSQL stopped and frozen under load (#18.10, #18.11)', () => {
  let cluster: PgCluster;
  let pool: pg.Pool;
  let service: LeadService;
  const bindings: Binding[] = [];
  let flowId: string;
  let vendorId: string;
  const warnings: unknown[] = [];
  const logger: Logger = {
    debug() {},
    info() {},
    warn: (obj) => warnings.push((obj as { err?: unknown }).err),
    error() {},
  };

  /** Every request sent, with its status, Retry-After and how long it took. */
  const answers: { status: number; retryAfter: string | null; ms: number; text: string }[] = [];
  const acknowledged = new Map<string, string>(); // lead id -> e-mail sent
  let n = 0;
  const post = async (
    lead: Record<string, unknown>,
    headers: Record<string, string> = {},
    signal?: AbortSignal,
  ): Promise<Answer> => {
    const binding = bindings[n++ % bindings.length] as Binding;
    const started = performance.now();
    const res = await call(binding.url, {
      path: `/flows/${flowId}/sources/${vendorId}/submit`,
      json: lead,
      headers,
      ...(signal ? { signal } : {}),
    });
    answers.push({
      status: res.status,
      retryAfter: res.headers.get('retry-after'),
      ms: performance.now() - started,
      text: res.text,
    });
    if (res.status === 201) acknowledged.set(res.body.lead.id, String(lead.email));
    return res;
  };
  /** Five clients posting back to back until `stop()`. */
  const load = () => {
    let running = true;
    const client = async () => {
      while (running) {
        const i = n;
        await post({ first_name: `Load${i}`, email: `load${i}@example.com` });
      }
    };
    const clients = Array.from({ length: 5 }, client);
    return async () => {
      running = false;
      await Promise.all(clients);
    };
  };
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  /** Posts until one is acknowledged again: recovery without a restart. */
  const recovered = async (within = 30_000) => {
    const deadline = Date.now() + within;
    while (Date.now() < deadline) {
      if ((await post({ first_name: 'Probe', email: `probe${n}@example.com` })).status === 201) return true;
      await sleep(200);
    }
    return false;
  };
  const expectOnly201Or503 = () => {
    for (const a of answers) {
      expect([201, 503], a.text).toContain(a.status);
      if (a.status === 503) expect(a.retryAfter, '503 carries Retry-After').toMatch(/^\d+$/);
    }
  };
  /** Every acknowledged lead is stored whole: its row with the fields sent, and the source event it points at. */
  const expectAcknowledgedWhole = async () => {
    const ids = [...acknowledged.keys()];
    const { rows } = await pool.query<{ id: string; email: string; event: string | null }>(
      `SELECT l.id, l.fields->>'email' AS email, e.id AS event
         FROM leads l LEFT JOIN events e ON e.id = l.latest_event_id AND e.lead_id = l.id
        WHERE l.id = ANY($1)`,
      [ids],
    );
    expect(rows.length, 'every acknowledged lead is stored').toBe(ids.length);
    for (const row of rows) {
      expect(row.email).toBe(acknowledged.get(row.id));
      expect(row.event, `lead ${row.id} has its source event`).not.toBeNull();
    }
  };

  beforeAll(async () => {
    cluster = await createPgCluster();
    // What a host writes: no error listener, no timeouts. migrate() first, so its idle client predates postgresStorage.
    pool = new pg.Pool({ connectionString: cluster.url, max: 8 });
    (await migrate(pool))._unsafeUnwrap();
    service = createLeadService({
      storage: postgresStorage({ pool, acquireTimeoutMs: ACQUIRE_MS, statementTimeoutMs: STATEMENT_MS, logger }),
      exports: { worker: false },
    });
    const { api_key } = (await service.accounts.create({ name: 'Outage' }))._unsafeUnwrap();
    const principal = (await service.accounts.authenticate(api_key))._unsafeUnwrap();
    vendorId = (
      await service.entities.create(principal, { name: 'Vendor', module_ids: [], source: 'seller', recipient: null })
    )._unsafeUnwrap().id;
    flowId = (
      await service.flows.create(principal, { name: 'Outage', sources: [{ entity_id: vendorId }], steps: [] })
    )._unsafeUnwrap().id;
    for (const name of BINDINGS) bindings.push(await startBinding(name, service));
  }, 60_000);

  afterAll(async () => {
    cluster?.thaw();
    for (const b of bindings) await b.close();
    await pool?.end().catch(() => undefined);
    cluster?.destroy();
  });

  it('#18.10 a fast stop while idle: the process stays up, answers 503 with Retry-After, and recovers after start', async () => {
    expect(pool.listenerCount('error'), 'postgresStorage listens for pool errors itself').toBeGreaterThan(0);
    for (let i = 0; i < 8; i++) expect((await post({ email: `idle${i}@example.com` })).status).toBe(201);
    expect(pool.idleCount, 'idle connections the stop will break').toBeGreaterThan(0);
    cluster.stop('fast');
    // The idle clients are told 57P01 and dropped: an `error` on the pool, logged instead of crashing the process.
    for (let i = 0; i < 50 && warnings.length === 0; i++) await sleep(100);
    expect(warnings.length, "idle-client errors reached the adapter's listener").toBeGreaterThan(0);
    const down = await post({ email: 'down@example.com' });
    expect(down.status, down.text).toBe(503);
    expect(down.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(down.body).toMatchObject({ status: 503, code: 'StorageUnavailable' });
    cluster.start();
    expect(await recovered(), 'answers 201 again without a restart').toBe(true);
    expectOnly201Or503();
    await expectAcknowledgedWhole();
  }, 90_000);

  it('#18.10 fast and immediate stops under load: only 201 or 503, recovery, every acknowledged lead whole', async () => {
    answers.length = 0;
    for (const mode of ['fast', 'immediate'] as const) {
      const stopLoad = load();
      await sleep(1000);
      cluster.stop(mode);
      await sleep(1500);
      cluster.start();
      expect(await recovered(), `recovered after a ${mode} stop`).toBe(true);
      await sleep(500);
      await stopLoad();
    }
    expect(
      answers.some((a) => a.status === 503),
      'requests during the outages got 503',
    ).toBe(true);
    expectOnly201Or503();
    expect(Math.max(...answers.map((a) => a.ms)), 'no request waited past the timeouts').toBeLessThan(ANSWER_WITHIN_MS);
    await expectAcknowledgedWhole();
  }, 120_000);

  it('#18.11 a frozen database: answers 503 within the timeouts, recovers after SIGCONT, and Idempotency-Key retries make one lead', async () => {
    answers.length = 0;
    const first = await post({ email: 'keyed-a@example.com' }, { 'idempotency-key': 'freeze-a' });
    expect(first.status, first.text).toBe(201);
    const stopLoad = load();
    await sleep(500);
    cluster.freeze();
    const frozenAt = Date.now();
    try {
      // A client that gives up after 300 ms while the database answers nothing.
      await post({ email: 'keyed-b@example.com' }, { 'idempotency-key': 'freeze-b' }, AbortSignal.timeout(300)).catch(
        () => undefined,
      );
      // A retry of an acknowledged submission while frozen: 503, not a hang and not a second lead.
      const retried = await post({ email: 'keyed-a@example.com' }, { 'idempotency-key': 'freeze-a' });
      expect(retried.status, retried.text).toBe(503);
      await sleep(Math.max(0, 6000 - (Date.now() - frozenAt)));
    } finally {
      cluster.thaw();
    }
    expect(await recovered(), 'answers 201 again after SIGCONT').toBe(true);
    await stopLoad();

    const replay = await post({ email: 'keyed-a@example.com' }, { 'idempotency-key': 'freeze-a' });
    expect(replay.status).toBe(201);
    expect(replay.body).toEqual(first.body);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    let b = await post({ email: 'keyed-b@example.com' }, { 'idempotency-key': 'freeze-b' });
    for (let i = 0; i < 20 && b.status !== 201; i++) {
      await sleep(500);
      b = await post({ email: 'keyed-b@example.com' }, { 'idempotency-key': 'freeze-b' });
    }
    expect(b.status, b.text).toBe(201);
    const again = await post({ email: 'keyed-b@example.com' }, { 'idempotency-key': 'freeze-b' });
    expect(again.body).toEqual(b.body);

    const counts = await pool.query<{ email: string; n: number }>(
      `SELECT fields->>'email' AS email, count(*)::int AS n FROM leads
        WHERE fields->>'email' IN ('keyed-a@example.com', 'keyed-b@example.com') GROUP BY 1 ORDER BY 1`,
    );
    expect(counts.rows).toEqual([
      { email: 'keyed-a@example.com', n: 1 },
      { email: 'keyed-b@example.com', n: 1 },
    ]);
    expect(
      answers.some((a) => a.status === 503),
      'requests during the freeze got 503',
    ).toBe(true);
    expectOnly201Or503();
    expect(Math.max(...answers.map((a) => a.ms)), 'no request hung past the timeouts').toBeLessThan(ANSWER_WITHIN_MS);
    await expectAcknowledgedWhole();
  }, 120_000);
});
