import { anAccount, anAlias, anEntity, anApiKey, runSuites, type StorageHarness, storageSuites } from '@leadroute/testkit';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresStorage } from './index';
import { qualified } from './sql';
import { databaseAvailable, freshSchema, type TestSchema } from './test-support';

const available = await databaseAvailable('postgres.test.ts');

describe.skipIf(!available)('postgres', () => {
  let db: TestSchema;
  beforeAll(async () => {
    db = await freshSchema();
  });
  afterAll(async () => {
    await db?.drop();
  });

  const rawRow =
    (table: string) =>
    async (id: string): Promise<Record<string, unknown> | undefined> =>
      (await db.pool.query<Record<string, unknown>>(`SELECT * FROM ${qualified(db.schema, table)} WHERE id = $1`, [id])).rows[0];

  const setup = async (): Promise<StorageHarness> => {
    await db.truncate();
    return {
      storage: postgresStorage({ pool: db.pool, schema: db.schema }),
      raw: {
        account: rawRow('accounts'),
        entity: rawRow('entities'),
        alias: rawRow('entity_aliases'),
        flow: rawRow('flows'),
        lead: rawRow('leads'),
        event: rawRow('events'),
      },
    };
  };

  runSuites('postgres', setup, storageSuites);

  describe('columns', () => {
    it('stores times as timestamptz, lists as text[] and the key user as jsonb', async () => {
      const { storage } = await setup();
      const account = anAccount();
      const entity = anEntity(account.id, { invitation_expires_at: '2026-03-04T05:06:07.089Z' });
      await storage.accounts.insert(account);
      await storage.accounts.insertKey(anApiKey(account.id));
      await storage.entities.insert(entity);
      const row = await rawRow('entities')(entity.id);
      expect(row?.created_at).toBeInstanceOf(Date);
      expect((row?.invitation_expires_at as Date).toISOString()).toBe('2026-03-04T05:06:07.089Z');
      expect(row?.flow_ids).toEqual(entity.flow_ids);
      const key = await db.pool.query<{ user: { email: string } }>(`SELECT "user" FROM ${qualified(db.schema, 'api_keys')}`);
      expect(key.rows[0]?.user.email).toBe('ada@example.com');
      expect((await storage.entities.get(entity.id))._unsafeUnwrap()?.invitation_expires_at).toBe('2026-03-04T05:06:07.089Z');
    });

    it('accepts ISO times with an offset and answers them in UTC', async () => {
      const { storage } = await setup();
      const account = anAccount({ created_at: '2026-01-01T01:00:00.000+01:00' });
      await storage.accounts.insert(account);
      expect((await storage.accounts.get(account.id))._unsafeUnwrap()?.created_at).toBe('2026-01-01T00:00:00.000Z');
    });
  });

  describe('errors', () => {
    it('maps a unique violation to a Conflict carrying the pg error', async () => {
      const { storage } = await setup();
      const account = anAccount();
      await storage.accounts.insert(account);
      const error = (await storage.accounts.insert(account))._unsafeUnwrapErr();
      expect(error.type).toBe('Conflict');
      expect(error.message).toMatch(/^\[leadroute\] \[postgres\] insert account: already exists/);
      expect((error as { cause?: { code?: string } }).cause?.code).toBe('23505');
    });

    it('maps a duplicate alias of one entity in one account to a Conflict through the unique index', async () => {
      const { storage } = await setup();
      const alias = anAlias(anAccount().id, anEntity(anAccount().id).id);
      await storage.aliases.insert(alias);
      const error = (await storage.aliases.insert({ ...alias, id: anAccount().id }))._unsafeUnwrapErr();
      expect(error).toMatchObject({ type: 'Conflict', cause: { constraint: 'entity_aliases_account_entity' } });
    });

    it('maps a missing table (an unmigrated schema) to a StorageFailure', async () => {
      const storage = postgresStorage({ pool: db.pool, schema: `${db.schema}_never_migrated` });
      const error = (await storage.entities.get(anAccount().id))._unsafeUnwrapErr();
      expect(error).toMatchObject({ type: 'StorageFailure', cause: { code: '42P01' } });
      expect(error.message).toMatch(/^\[leadroute\] \[postgres\] get entity failed: /);
    });
  });
});

describe('postgres: an unreachable server', () => {
  it('answers a StorageFailure when nothing listens at the address', async () => {
    const pool = new pg.Pool({ connectionString: 'postgres://leadroute:leadroute@127.0.0.1:1/leadroute_test', connectionTimeoutMillis: 2000 });
    try {
      const error = (await postgresStorage({ pool }).accounts.get(anAccount().id))._unsafeUnwrapErr();
      expect(error.type).toBe('StorageFailure');
      expect(error.message).toMatch(/^\[leadroute\] \[postgres\] get account failed: /);
      expect((error as { cause?: { code?: string } }).cause?.code).toBe('ECONNREFUSED');
    } finally {
      await pool.end();
    }
  });

  it('answers a StorageFailure when the pool has been ended', async () => {
    const pool = new pg.Pool({ connectionString: 'postgres://leadroute:leadroute@127.0.0.1:1/leadroute_test' });
    await pool.end();
    const error = (await postgresStorage({ pool }).aliases.listByAccount(anAccount().id))._unsafeUnwrapErr();
    expect(error).toMatchObject({ type: 'StorageFailure', cause: expect.any(Error) });
  });
});
