import { randomBytes } from 'node:crypto';
import { aLead, anAccount, anAlias, anApiKey, anEntity, anEvent } from '@leadroute/testkit';
import { leadWritesSuite, runSuites, spoolSuite, type StorageHarness, storageSuites } from '@leadroute/testkit/suites';
import { type Db, MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COLLECTIONS, ensureIndexes, INDEXES, mongoSpool, mongoStorage } from './index';
import { eventPage, searchFilter } from './queries';

/**
 * The testkit suites against a real MongoDB server. No server can be installed on
 * the project's machines, so without MONGODB_URI this file is skipped (never faked);
 * the query builders are still checked by mingo in queries.test.ts.
 */
const uri = process.env.MONGODB_URI;
if (!uri) {
  console.log(
    '[leadroute] [mongo] skipping mongo.test.ts: MONGODB_URI is not set. Run the testkit against a server with `MONGODB_URI=mongodb://127.0.0.1:27017 npx vitest run adapters/mongo`.',
  );
}

/** Transactions (and so `transactions: true`) need a replica set or a sharded cluster. */
async function supportsTransactions(url: string): Promise<boolean> {
  const probe = new MongoClient(url, { serverSelectionTimeoutMS: 10_000 });
  try {
    const hello = await probe.db('admin').command({ hello: 1 });
    return typeof hello.setName === 'string' || hello.msg === 'isdbgrid';
  } finally {
    await probe.close();
  }
}
const transactions = uri ? await supportsTransactions(uri) : false;
if (uri && !transactions)
  console.log(
    '[leadroute] [mongo] the server at MONGODB_URI is standalone: the LeadWrites suite (transactions) is skipped.',
  );

describe.skipIf(!uri)('mongo', () => {
  let client: MongoClient;
  let db: Db;
  // A database of its own per run, so runs sharing a server never meet; dropped at the end.
  const dbName = `leadroute_test_${randomBytes(6).toString('hex')}`;
  const options = () => ({ client, dbName });

  // The fixtures' events expire in early 2026, already past by the wall clock, so the
  // server's TTL monitor (a pass every 60 s) could delete them in the middle of a case.
  // It is paused for the run and restored after; a server that refuses (no admin
  // rights) says so, and a case may then fail when a pass lands inside it.
  let ttlMonitorWas: boolean | undefined;
  const setTtlMonitor = async (enabled: boolean): Promise<boolean | undefined> => {
    try {
      const reply = await client.db('admin').command({ setParameter: 1, ttlMonitorEnabled: enabled });
      return typeof reply.was === 'boolean' ? reply.was : undefined;
    } catch (error) {
      console.log(
        `[leadroute] [mongo] could not pause the TTL monitor (${String(error)}); events the fixtures made may vanish mid-case.`,
      );
      return undefined;
    }
  };

  beforeAll(async () => {
    client = new MongoClient(uri ?? '', { serverSelectionTimeoutMS: 10_000 });
    await client.connect();
    db = client.db(dbName);
    ttlMonitorWas = await setTtlMonitor(false);
    (await ensureIndexes(options()))._unsafeUnwrap();
  });
  afterAll(async () => {
    await db?.dropDatabase();
    if (ttlMonitorWas !== undefined) await setTtlMonitor(ttlMonitorWas);
    await client?.close();
  });

  // Emptied, not dropped, between tests: the indexes (and so the uniqueness rules) stay.
  const clear = async (): Promise<void> => {
    await Promise.all(Object.values(COLLECTIONS).map((name) => db.collection(name).deleteMany({})));
  };
  const rawDoc =
    (collection: string) =>
    async (id: string): Promise<Record<string, unknown> | undefined> =>
      (await db.collection<{ _id: string }>(collection).findOne({ _id: id })) ?? undefined;

  const setup = async (): Promise<StorageHarness> => {
    await clear();
    return {
      storage: mongoStorage(options()),
      raw: {
        account: rawDoc(COLLECTIONS.accounts),
        entity: rawDoc(COLLECTIONS.entities),
        alias: rawDoc(COLLECTIONS.aliases),
        flow: rawDoc(COLLECTIONS.flows),
        lead: rawDoc(COLLECTIONS.leads),
        event: rawDoc(COLLECTIONS.events),
      },
    };
  };

  runSuites('mongo', setup, storageSuites);
  if (transactions)
    runSuites(
      'mongo (transactions)',
      async () => ({ ...(await setup()), storage: mongoStorage({ ...options(), transactions: true }) }),
      [leadWritesSuite],
    );

  spoolSuite(async () => {
    await clear();
    return { spool: mongoSpool(options()) };
  }, 'mongo');

  describe('documents', () => {
    it('stores IDs as _id and times as BSON Dates', async () => {
      const { storage } = await setup();
      const account = anAccount();
      const entity = anEntity(account.id, { invitation_expires_at: '2026-03-04T05:06:07.089Z' });
      (await storage.accounts.insert(account))._unsafeUnwrap();
      (await storage.entities.insert(entity))._unsafeUnwrap();
      const doc = await rawDoc(COLLECTIONS.entities)(entity.id);
      expect(doc).toMatchObject({ _id: entity.id, owner_account_id: account.id, flow_ids: entity.flow_ids });
      expect(doc).not.toHaveProperty('id');
      expect(doc?.created_at).toBeInstanceOf(Date);
      expect((doc?.invitation_expires_at as Date | undefined)?.toISOString()).toBe('2026-03-04T05:06:07.089Z');
    });
  });

  describe('indexes', () => {
    it('ensureIndexes creates every index once and can run again', async () => {
      (await ensureIndexes(options()))._unsafeUnwrap();
      for (const spec of INDEXES) {
        const found = (await db.collection(spec.collection).listIndexes().toArray()).find((i) => i.name === spec.name);
        expect(found, spec.name).toMatchObject({
          key: spec.key,
          ...(spec.unique ? { unique: true } : {}),
          ...(spec.expireAfterSeconds === undefined ? {} : { expireAfterSeconds: spec.expireAfterSeconds }),
        });
      }
    });

    it('refuses an index of the same name with other options as a StorageFailure', async () => {
      const other = client.db(`${dbName}_clash`);
      try {
        await other.collection(COLLECTIONS.apiKeys).createIndex({ hash: 1 }, { name: 'api_keys_hash_unique' });
        const error = (await ensureIndexes({ client, dbName: other.databaseName }))._unsafeUnwrapErr();
        expect(error.type).toBe('StorageFailure');
        expect(error.message).toMatch(/^\[leadroute\] \[mongo\] ensure indexes failed: /);
      } finally {
        await other.dropDatabase();
      }
    });
  });

  describe('errors', () => {
    it('maps a duplicate key hash to a Conflict naming the index, with the driver error as cause', async () => {
      const { storage } = await setup();
      const key = anApiKey(anAccount().id);
      (await storage.accounts.insertKey(key))._unsafeUnwrap();
      const error = (await storage.accounts.insertKey(key))._unsafeUnwrapErr();
      expect(error).toMatchObject({ type: 'Conflict', cause: { code: 11000 } });
      expect(error.message).toBe('[leadroute] [mongo] insert API key: already exists (api_keys_hash_unique).');
    });

    it('maps an alias update that would clash to a Conflict through the unique index', async () => {
      const { storage } = await setup();
      const account = anAccount().id;
      const first = anAlias(account, anEntity(account).id);
      const second = anAlias(account, anEntity(account).id);
      (await storage.aliases.insert(first))._unsafeUnwrap();
      (await storage.aliases.insert(second))._unsafeUnwrap();
      const error = (await storage.aliases.update({ ...second, entity_id: first.entity_id }))._unsafeUnwrapErr();
      expect(error).toMatchObject({ type: 'Conflict', cause: { code: 11000 } });
      expect(error.message).toMatch(/entity_aliases_account_entity_unique/);
    });
  });

  describe('new ports', () => {
    it('keeps a lead’s fields exactly, whatever their names, and event times as BSON Dates the TTL index can read', async () => {
      const { storage } = await setup();
      const account = anAccount().id;
      const lead = aLead(account, { fields: { $where: 'x', 'a.b': { 'c.d': [1, null, 'z'] }, '': 0 } });
      (await storage.leads.insert(lead))._unsafeUnwrap();
      expect((await storage.leads.get(lead.id))._unsafeUnwrap()).toEqual(lead);
      const event = anEvent(account);
      (await storage.events.insert(event))._unsafeUnwrap();
      const doc = await rawDoc(COLLECTIONS.events)(event.id);
      expect(doc?.expires_at).toBeInstanceOf(Date);
      expect((doc?.expires_at as Date | undefined)?.toISOString()).toBe(event.expires_at);
    });

    it('counts every caller of a fresh counter that has room, though all but one lose the race to create it', async () => {
      const { storage } = await setup();
      const results = await Promise.all(
        Array.from({ length: 30 }, () => storage.counters.tryIncrement('fresh', 25, '2030-01-01T00:00:00.000Z')),
      );
      expect(results.filter((r) => r._unsafeUnwrap())).toHaveLength(25);
      expect((await storage.counters.get('fresh'))._unsafeUnwrap()).toBe(25);
    });

    it('hands each job to one of several workers claiming at once', async () => {
      const { storage } = await setup();
      for (let i = 0; i < 20; i++)
        (await storage.jobs.enqueue({ kind: 'export', id: `j${i}`, dueAt: 0 }, 0))._unsafeUnwrap();
      const claimed = await Promise.all(Array.from({ length: 30 }, () => storage.jobs.claim('export', 1, 60_000)));
      const ids = claimed.map((r) => r._unsafeUnwrap()?.id).filter((id) => id !== undefined);
      expect(ids).toHaveLength(20);
      expect(new Set(ids).size).toBe(20);
    });

    it('answers search prefixes and event pages from their indexes', async () => {
      await setup();
      const winning = async (collection: string, filter: object, sort: object) =>
        JSON.stringify(
          (
            (await db
              .collection(collection)
              .find(filter)
              .sort(sort as never)
              .explain()) as { queryPlanner: { winningPlan: unknown } }
          ).queryPlanner.winningPlan,
        );
      const q = { account_id: anAccount().id, terms: ['smi', 'jo'], phrases: [], from: 0, limit: 10 };
      expect(await winning(COLLECTIONS.search, searchFilter(q), {})).toContain('search_account_terms');
      const page = eventPage(
        { account_id: q.account_id, live_at: '2026-01-01T00:00:00.000Z', sort: 'desc', limit: 10 },
        new Date('2026-01-01T00:00:00.000Z'),
      );
      expect(await winning(COLLECTIONS.events, page.filter, page.sort)).toContain('events_account_id');
    });
  });

  describe('spool', () => {
    it('never hands one item to two workers leasing at once', async () => {
      await clear();
      const spool = mongoSpool(options());
      const now = Date.UTC(2025, 0, 1);
      for (let i = 0; i < 60; i++)
        (
          await spool.enqueue({ target: 't', key: `k${i}`, payload: '{}', route: {}, dueAt: now }, { nowMs: now })
        )._unsafeUnwrap();
      const batches = await Promise.all(
        Array.from({ length: 6 }, () => spool.lease(now, { limit: 15, leaseMs: 60_000 })),
      );
      const keys = batches.flatMap((b) => b._unsafeUnwrap().map((item) => item.key));
      expect(new Set(keys).size).toBe(keys.length);
      expect(keys).toHaveLength(60);
    });
  });
});
