import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spoolSuite } from '@leadroute/testkit/suites';
import { postgresSpool } from './stores/spool';
import { databaseAvailable, freshSchema, type TestSchema } from './test-support';

const available = await databaseAvailable('spool.test.ts');

describe.skipIf(!available)('postgres spool', () => {
  let db: TestSchema;
  beforeAll(async () => {
    db = await freshSchema();
  });
  afterAll(async () => {
    await db?.drop();
  });

  spoolSuite(async () => {
    await db.truncate();
    return { spool: postgresSpool({ pool: db.pool, schema: db.schema }) };
  }, 'postgres');

  it('never hands one item to two workers leasing at once', async () => {
    await db.truncate();
    const spool = postgresSpool({ pool: db.pool, schema: db.schema });
    const now = Date.UTC(2025, 0, 1);
    for (let i = 0; i < 60; i++) {
      (
        await spool.enqueue({ target: 't', key: `k${i}`, payload: '{}', route: {}, dueAt: now }, { nowMs: now })
      )._unsafeUnwrap();
    }
    const batches = await Promise.all(
      Array.from({ length: 6 }, () => spool.lease(now, { limit: 15, leaseMs: 60_000 })),
    );
    const keys = batches.flatMap((b) => b._unsafeUnwrap().map((item) => item.key));
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys).toHaveLength(60);
  });

  it('keeps millisecond times exact through timestamptz', async () => {
    await db.truncate();
    const spool = postgresSpool({ pool: db.pool, schema: db.schema });
    const due = Date.UTC(2025, 5, 30, 23, 59, 59, 999);
    (
      await spool.enqueue({ target: 't', key: 'k', payload: 'p', route: { a: 'b' }, dueAt: due }, { nowMs: due - 1 })
    )._unsafeUnwrap();
    const [item] = (await spool.lease(due, { limit: 1, leaseMs: 1 }))._unsafeUnwrap();
    expect(item).toMatchObject({
      dueAt: due,
      enqueuedAt: due - 1,
      leasedUntil: due + 1,
      route: { a: 'b' },
      attempts: 0,
    });
    expect(item).not.toHaveProperty('lastError');
  });
});
