import { aCertificate, aFlow, aLead, anAccount, anExport, freshId } from '@leadroute/testkit';
import type { RollupRow, Storage, StoreError } from '@leadroute/core';
import type { Result, ResultAsync } from 'neverthrow';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { postgresStorage } from './index';
import { DATABASE_URL, databaseAvailable, freshSchema, type TestSchema } from './test-support';

const available = await databaseAvailable('concurrency.test.ts');

/** Pools standing for separate processes, each with several connections of its own. */
const PROCESSES = 4;
const CONNECTIONS = 4;

describe.skipIf(!available)('postgres under concurrency (several pools, several clients each)', () => {
  let db: TestSchema;
  let pools: pg.Pool[];
  /** One storage per pool: what each process would build. */
  const storages = () => pools.map((pool) => postgresStorage({ pool, schema: db.schema }));
  /** `calls` calls spread round-robin over the processes, all started before any is awaited. */
  const race = <T>(
    calls: number,
    call: (storage: Storage, i: number) => ResultAsync<T, StoreError>,
  ): Promise<Result<T, StoreError>[]> => {
    const all = storages();
    return Promise.all(Array.from({ length: calls }, (_, i) => call(all[i % all.length] as Storage, i)));
  };

  beforeAll(async () => {
    db = await freshSchema();
    pools = Array.from({ length: PROCESSES }, () => new pg.Pool({ connectionString: DATABASE_URL, max: CONNECTIONS }));
    // Open every connection first, so the races below are between live sessions rather than connection set-up.
    await Promise.all(
      pools.map((pool) =>
        Promise.all(Array.from({ length: CONNECTIONS }, () => pool.connect())).then((clients) =>
          clients.forEach((c) => {
            c.release();
          }),
        ),
      ),
    );
  });
  afterAll(async () => {
    await Promise.all((pools ?? []).map((pool) => pool.end()));
    await db?.drop();
  });
  beforeEach(async () => {
    await db.truncate();
  });

  it('lets one claim of a key win among many at once, again only once it expires or is released', async () => {
    const key = `dup:${freshId()}`;
    const claims = await race(60, (s) => s.counters.claim(key, '2030-01-01T00:00:00.000Z', '2029-01-01T00:00:00.000Z'));
    expect(claims.map((r) => r._unsafeUnwrap()).filter(Boolean)).toHaveLength(1);
    const [first] = storages();
    // Held until it expires: an earlier now is refused, a later one claims it again.
    expect(
      (await first?.counters.claim(key, '2031-01-01T00:00:00.000Z', '2029-12-31T23:59:59.999Z'))?._unsafeUnwrap(),
    ).toBe(false);
    expect(
      (await first?.counters.claim(key, '2031-01-01T00:00:00.000Z', '2030-01-01T00:00:00.000Z'))?._unsafeUnwrap(),
    ).toBe(true);
    // Released (decremented): free at once.
    (await first?.counters.decrement(key))?._unsafeUnwrap();
    const again = await race(20, (s) => s.counters.claim(key, '2032-01-01T00:00:00.000Z', '2030-06-01T00:00:00.000Z'));
    expect(again.map((r) => r._unsafeUnwrap()).filter(Boolean)).toHaveLength(1);
  });

  it('never lets a cap count past its maximum, for one key or many at once', async () => {
    const keys = Array.from({ length: 3 }, () => `cap:${freshId()}`);
    const results = await race(150, (s, i) =>
      s.counters.tryIncrement(keys[i % 3] as string, 13, '2030-01-01T00:00:00.000Z'),
    );
    const counted = results.map((r) => r._unsafeUnwrap());
    expect(counted.filter(Boolean)).toHaveLength(39);
    for (const key of keys) expect((await storages()[0]?.counters.get(key))?._unsafeUnwrap()).toBe(13);
  });

  it('keeps a cap exact when slots are given back while others are taken', async () => {
    const key = `cap:${freshId()}`;
    const [s] = storages();
    for (let i = 0; i < 5; i++) (await s!.counters.tryIncrement(key, 5, '2030-01-01T00:00:00.000Z'))._unsafeUnwrap();
    // Two slots given back while 40 callers race for them: exactly two more get in.
    const results = await race<boolean | 'returned'>(42, (storage, i) =>
      i < 2
        ? storage.counters.decrement(key).map(() => 'returned' as const)
        : storage.counters.tryIncrement(key, 5, '2030-01-01T00:00:00.000Z'),
    );
    const taken = results.map((r) => r._unsafeUnwrap()).filter((v) => v === true).length;
    expect(taken).toBeLessThanOrEqual(2);
    expect((await s?.counters.get(key))?._unsafeUnwrap()).toBe(3 + taken);
    expect((await s?.counters.tryIncrement(key, 5, '2030-01-01T00:00:00.000Z'))?._unsafeUnwrap()).toBe(taken < 2);
  });

  it("marks a lead returned for exactly one of many concurrent callers, keeping that caller's time", async () => {
    const lead = aLead(anAccount().id);
    (await storages()[0]?.leads.insert(lead))?._unsafeUnwrap();
    const at = (i: number) => new Date(Date.UTC(2026, 2, 1, 12, 0, i)).toISOString();
    const results = (await race(40, (s, i) => s.leads.markReturned(lead.id, at(i)))).map((r) => r._unsafeUnwrap());
    expect(results.filter(Boolean)).toHaveLength(1);
    const winner = results.indexOf(true);
    expect((await storages()[1]?.leads.get(lead.id))?._unsafeUnwrap()?.returned_at).toBe(at(winner));
  });

  it('lets exactly one of several concurrent updates from the same flow version through', async () => {
    const flow = aFlow(anAccount().id);
    (await storages()[0]?.flows.insert(flow))?._unsafeUnwrap();
    const results = await race(16, (s, i) => s.flows.update({ ...flow, name: `Editor ${i}`, version: 2 }, 1));
    const ok = results.map((r, i) => (r.isOk() ? i : -1)).filter((i) => i >= 0);
    expect(ok).toHaveLength(1);
    expect(results.filter((r) => r.isErr()).map((r) => r._unsafeUnwrapErr().type)).toEqual(Array(15).fill('Conflict'));
    expect((await storages()[2]?.flows.get(flow.id))?._unsafeUnwrap()).toMatchObject({
      name: `Editor ${ok[0]}`,
      version: 2,
    });
  });

  it('loses no rollup count when many processes add to the same cells at once', async () => {
    const account = anAccount().id;
    const cell = (kind: RollupRow['kind']): RollupRow => ({
      account_id: account,
      hour: '2026-03-08T07:00:00.000Z',
      flow_id: 'f'.repeat(24),
      source_id: 'a'.repeat(24),
      recipient_id: '',
      step_id: '',
      kind,
      outcome: 'success',
      category: '',
      stage: '',
      count: 1,
      cost: 0.25,
      revenue: 2,
      purchase_price: 0.5,
    });
    // Each call adds two rows to one cell and one to another: a batch touching a cell twice.
    const results = await race(60, (s) => s.rollups.add([cell('source'), cell('ping'), cell('source')]));
    for (const r of results) r._unsafeUnwrap();
    const rows = (
      await storages()[0]?.rollups.query({
        account_id: account,
        from: '2026-03-08T00:00:00.000Z',
        to: '2026-03-09T00:00:00.000Z',
      })
    )?._unsafeUnwrap();
    expect(rows?.find((r) => r.kind === 'source')).toMatchObject({
      count: 120,
      cost: 30,
      revenue: 240,
      purchase_price: 60,
    });
    expect(rows?.find((r) => r.kind === 'ping')).toMatchObject({
      count: 60,
      cost: 15,
      revenue: 120,
      purchase_price: 30,
    });
  });

  it('marks a source seen for exactly one of many concurrent detector passes', async () => {
    const account = anAccount().id;
    const source = freshId();
    const results = (
      await race(24, (s, i) =>
        s.alerts.markSourceSeen(account, source, new Date(Date.UTC(2026, 0, 15, 15, 0, i)).toISOString()),
      )
    ).map((r) => r._unsafeUnwrap());
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it('gives a detector lease to exactly one of many processes asking at once', async () => {
    const name = `alerts:${anAccount().id}`;
    const results = (
      await race(24, (s, i) =>
        s.alerts.tryLease(name, `process-${i}`, '2026-01-15T15:00:00.000Z', '2026-01-15T15:05:00.000Z'),
      )
    ).map((r) => r._unsafeUnwrap());
    expect(results.filter(Boolean)).toHaveLength(1);
    // The winner keeps it; every other owner is refused until it expires.
    const winner = `process-${results.indexOf(true)}`;
    expect(
      (
        await storages()[0]?.alerts.tryLease(name, winner, '2026-01-15T15:04:00.000Z', '2026-01-15T15:09:00.000Z')
      )?._unsafeUnwrap(),
    ).toBe(true);
    expect(
      (
        await storages()[1]?.alerts.tryLease(name, 'late', '2026-01-15T15:08:59.000Z', '2026-01-15T15:13:00.000Z')
      )?._unsafeUnwrap(),
    ).toBe(false);
  });

  it('keeps every concurrent certificate claim and export download', async () => {
    const certificate = aCertificate();
    const exp = anExport(anAccount().id);
    (await storages()[0]?.certificates.insert(certificate))?._unsafeUnwrap();
    (await storages()[0]?.exports.insert(exp))?._unsafeUnwrap();
    const at = (i: number) => new Date(Date.UTC(2026, 0, 16, 0, 0, i)).toISOString();
    const expiry = (i: number) => new Date(Date.UTC(2026, 3, 16, 0, 0, i)).toISOString();
    const claims = await race(20, (s, i) =>
      s.certificates.claim(certificate.id, { at: at(i), event_id: freshId(), lead_id: freshId() }, expiry(i)),
    );
    const downloads = await race(20, (s, i) => s.exports.addDownload(exp.id, { at: at(i), user: exp.user }));
    for (const r of [...claims, ...downloads]) r._unsafeUnwrap();
    const stored = (await storages()[1]?.certificates.get(certificate.id))?._unsafeUnwrap();
    expect(stored?.claims.map((c) => c.at).sort()).toEqual(Array.from({ length: 20 }, (_, i) => at(i)));
    // The latest expiry wins whatever order the claims landed in.
    expect(stored?.expires_at).toBe(expiry(19));
    expect((await storages()[2]?.exports.get(exp.id))?._unsafeUnwrap()?.downloads).toHaveLength(20);
  });
});
