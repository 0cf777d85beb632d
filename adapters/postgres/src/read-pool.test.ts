import { anAccount, aRollupRow, aSearchDocument, freshId } from '@leadroute/testkit';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresStorage } from './index';
import { DATABASE_URL, databaseAvailable, freshSchema, type TestSchema } from './test-support';

const available = await databaseAvailable('read-pool.test.ts');

/**
 * A pool standing for a replica: a second pool on the same server whose sessions are
 * read-only (as a hot standby's are), and which records every statement sent through it.
 */
function replicaPool(): pg.Pool & { readonly sent: string[] } {
  const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 4, options: '-c default_transaction_read_only=on' });
  const sent: string[] = [];
  const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
  (pool as unknown as { query: unknown }).query = (config: unknown, ...rest: unknown[]) => {
    sent.push(typeof config === 'string' ? config : (config as { text: string }).text);
    return query(config, ...rest);
  };
  return Object.assign(pool, { sent });
}

const HOUR = '2026-03-02T10:00:00.000Z';

const cell = (account: string) => aRollupRow(account, { hour: HOUR, flow_id: freshId(), count: 3, purchase_price: 6 });
const doc = (account: string, name: string) =>
  aSearchDocument(account, { first_name: name }, { expires_at: '2099-01-01T00:00:00.000Z' });

describe.skipIf(!available)('postgresStorage readPool', () => {
  let db: TestSchema;
  beforeAll(async () => {
    db = await freshSchema();
  });
  afterAll(async () => {
    await db?.drop();
  });

  it('sends statistics and search reads to the read pool, and every write and other read to the primary', async () => {
    const replica = replicaPool();
    try {
      const storage = postgresStorage({ pool: db.pool, schema: db.schema, readPool: replica });
      const account = anAccount().id;
      const row = cell(account);
      (await storage.rollups.add([row]))._unsafeUnwrap();
      (await storage.search.index(doc(account, 'Ottoline')))._unsafeUnwrap();
      (await storage.accounts.insert(anAccount()))._unsafeUnwrap();
      // No write went to the read pool (it would have failed there: its sessions are read-only).
      expect(replica.sent).toEqual([]);

      const stats = (
        await storage.rollups.query({ account_id: account, from: HOUR, to: '2026-03-02T11:00:00.000Z' })
      )._unsafeUnwrap();
      expect(stats).toEqual([row]);
      expect(replica.sent).toHaveLength(1);
      expect((await storage.rollups.activeAccounts(HOUR, '2026-03-02T11:00:00.000Z'))._unsafeUnwrap()).toContain(
        account,
      );
      expect(replica.sent).toHaveLength(2);
      const found = (
        await storage.search.search({ account_id: account, terms: ['ottol'], phrases: [], from: 0, limit: 10 })
      )._unsafeUnwrap();
      expect(found.total).toBe(1);
      // The count, which scored the one match and returned the page with it.
      expect(replica.sent).toHaveLength(3);
      expect(replica.sent.every((text) => /^\s*(SELECT|WITH)\b/i.test(text))).toBe(true);

      // Reads that must see the latest write stay on the primary, as does the search purge.
      (await storage.search.purgeExpired('2000-01-01T00:00:00.000Z'))._unsafeUnwrap();
      (await storage.events.query({ account_id: account, live_at: HOUR, sort: 'desc', limit: 10 }))._unsafeUnwrap();
      (await storage.counters.get('cap:x'))._unsafeUnwrap();
      expect(replica.sent).toHaveLength(3);
    } finally {
      await replica.end();
    }
  });

  it('takes a connection string and makes the read pool itself', async () => {
    const storage = postgresStorage({
      pool: db.pool,
      schema: db.schema,
      readPool: `${DATABASE_URL}${DATABASE_URL.includes('?') ? '&' : '?'}options=-c%20default_transaction_read_only%3Don`,
    });
    const account = anAccount().id;
    (await storage.search.index(doc(account, 'Philippa')))._unsafeUnwrap();
    const found = (
      await storage.search.search({ account_id: account, terms: ['phil'], phrases: [], from: 0, limit: 10 })
    )._unsafeUnwrap();
    expect(found.documents.map((d) => d.fields.first_name)).toEqual(['Philippa']);
  });
});
