import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { lead, setUp } from '../../../bench/intake.bench';
import { countCommits } from './commit-count';
import { postgresStorage } from './index';
import { qualified } from './sql';
import { databaseAvailable, freshSchema, type TestSchema } from './test-support';

const available = await databaseAvailable('intake-commits.test.ts');

/** The intake bench's flow: acceptance criteria, a filter, a priced and mapped recipient, a capped recipient. */
async function threeSteps(storage: ReturnType<typeof postgresStorage>) {
  const { service, flow, vendor, account } = await setUp(storage);
  return { account, submit: (i: number) => service.leads.submit(flow.id, vendor, lead(i)) };
}

describe.skipIf(!available)('postgres intake: commits per lead (issue 22, target 3)', () => {
  let db: TestSchema;
  let counter: ReturnType<typeof countCommits>;
  let intake: Awaited<ReturnType<typeof threeSteps>>;
  let n = 0;
  beforeAll(async () => {
    db = await freshSchema();
    counter = countCommits(db.pool);
    intake = await threeSteps(postgresStorage({ pool: db.pool, schema: db.schema }));
    // The first lead of a source raises a new-source alert: writes of their own, once.
    for (let i = 0; i < 3; i++) expect((await intake.submit(n++))._unsafeUnwrap().outcome).toBe('success');
  });
  afterAll(async () => {
    await db?.drop();
  });
  const count = async (table: string) =>
    Number(
      (
        await db.pool.query<{ n: string }>(
          `SELECT count(*) AS n FROM ${qualified(db.schema, table)} WHERE account_id = $1`,
          [intake.account],
        )
      ).rows[0]?.n,
    );

  it("commits a lead's records once, and waits for one flush: its cap's claim commits without waiting", async () => {
    counter.reset();
    expect((await intake.submit(n++))._unsafeUnwrap().outcome).toBe('success');
    const { commits, flushes, log } = counter.counts();
    // The cap's claim must be visible to every other lead before this one is delivered: it commits on its own, without
    // waiting for the disk (the lead's commit flushes it). The lead, its events, rollups, field rollups and search
    // document are the one other commit, the one the lead waits for.
    expect(log).toHaveLength(2);
    expect(commits).toBe(2);
    expect(flushes).toBe(1);
    expect(log[0]).toMatch(/^INSERT INTO \S+\."counters"/);
    expect(log[1]).toMatch(/^WITH w0 AS \(INSERT INTO \S+\."rollups"/);
  });

  it('makes at most one commit per lead for leads arriving together', async () => {
    counter.reset();
    const results = await Promise.all(Array.from({ length: 16 }, () => intake.submit(n++)));
    expect(results.every((r) => r.isOk() && r.value.outcome === 'success')).toBe(true);
    expect(counter.counts().commits).toBeLessThanOrEqual(16);
    expect(counter.counts().flushes).toBeLessThanOrEqual(16);
  });

  describe('a failure injected in the lead', () => {
    afterEach(async () => {
      await db.pool.query(`DROP TRIGGER IF EXISTS fail ON ${qualified(db.schema, 'field_rollups')}`);
      await db.pool.query(`DROP TRIGGER IF EXISTS fail ON ${qualified(db.schema, 'leads')}`);
      await db.pool.query(`DROP FUNCTION IF EXISTS ${qualified(db.schema, 'fail')}()`);
    });
    const failing = async () =>
      db.pool.query(
        `CREATE FUNCTION ${qualified(db.schema, 'fail')}() RETURNS trigger LANGUAGE plpgsql AS
         $$ BEGIN RAISE EXCEPTION 'injected failure'; END $$`,
      );
    const before = async () => ({
      events: await count('events'),
      fieldRollups: Number(
        (
          await db.pool.query<{ n: string }>(
            `SELECT coalesce(sum(count), 0) AS n FROM ${qualified(db.schema, 'field_rollups')} WHERE account_id = $1`,
            [intake.account],
          )
        ).rows[0]?.n,
      ),
      leads: await count('leads'),
    });

    it('writing its field rollups leaves none of its events either: they are one unit', async () => {
      await failing();
      await db.pool.query(
        `CREATE TRIGGER fail BEFORE INSERT ON ${qualified(db.schema, 'field_rollups')}
         FOR EACH ROW EXECUTE FUNCTION ${qualified(db.schema, 'fail')}()`,
      );
      const stored = await before();
      const result = await intake.submit(n++);
      expect(result.isErr()).toBe(true);
      expect(await before()).toEqual(stored);
    });

    it("in the bundle's commit (a deferred check) leaves neither events nor field rollup rows", async () => {
      await failing();
      await db.pool.query(
        `CREATE CONSTRAINT TRIGGER fail AFTER INSERT ON ${qualified(db.schema, 'leads')}
         DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION ${qualified(db.schema, 'fail')}()`,
      );
      const stored = await before();
      const result = await intake.submit(n++);
      expect(result.isErr()).toBe(true);
      expect(await before()).toEqual(stored);
    });
  });
});
