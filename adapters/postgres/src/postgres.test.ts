import { aLead, anAccount, anAlias, anEntity, anApiKey, anEvent } from '@leadroute/testkit';
import { leadWritesSuite, runSuites, type StorageHarness, storageSuites } from '@leadroute/testkit/suites';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresStorage, purgeCounters } from './index';
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
      (await db.pool.query<Record<string, unknown>>(`SELECT * FROM ${qualified(db.schema, table)} WHERE id = $1`, [id]))
        .rows[0];

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

  runSuites('postgres', setup, [...storageSuites, leadWritesSuite]);

  describe('columns', () => {
    it('stores times as timestamptz, lists as text[] and the key user as jsonb', async () => {
      const { storage } = await setup();
      const account = anAccount();
      const entity = anEntity(account.id, { invitation_expires_at: '2026-03-04T05:06:07.089Z' });
      (await storage.accounts.insert(account))._unsafeUnwrap();
      (await storage.accounts.insertKey(anApiKey(account.id)))._unsafeUnwrap();
      (await storage.entities.insert(entity))._unsafeUnwrap();
      const row = await rawRow('entities')(entity.id);
      expect(row?.created_at).toBeInstanceOf(Date);
      expect((row?.invitation_expires_at as Date | undefined)?.toISOString()).toBe('2026-03-04T05:06:07.089Z');
      expect(row?.flow_ids).toEqual(entity.flow_ids);
      const key = await db.pool.query<{ user: { email: string } }>(
        `SELECT "user" FROM ${qualified(db.schema, 'api_keys')}`,
      );
      expect(key.rows[0]?.user.email).toBe('ada@example.com');
      expect((await storage.entities.get(entity.id))._unsafeUnwrap()?.invitation_expires_at).toBe(
        '2026-03-04T05:06:07.089Z',
      );
    });

    it('accepts ISO times with an offset and answers them in UTC', async () => {
      const { storage } = await setup();
      const account = anAccount({ created_at: '2026-01-01T01:00:00.000+01:00' });
      (await storage.accounts.insert(account))._unsafeUnwrap();
      expect((await storage.accounts.get(account.id))._unsafeUnwrap()?.created_at).toBe('2026-01-01T00:00:00.000Z');
    });
  });

  describe('jsonb documents', () => {
    it('keeps an event as JSON text beside the columns the API filters on, and no jsonb body', async () => {
      const { storage } = await setup();
      const event = anEvent(anAccount().id, { key: 'REF-1' });
      (await storage.events.insert(event))._unsafeUnwrap();
      const { rows } = await db.pool.query<Record<string, unknown>>(
        `SELECT pg_typeof(doc)::text AS doc_type, doc::jsonb->'vars'->'lead'->>'state' AS state, body, doc, account_id, type, key, start_timestamp, expires_at
         FROM ${qualified(db.schema, 'events')} WHERE id = $1`,
        [event.id],
      );
      expect(rows[0]).toMatchObject({
        doc_type: 'text',
        state: 'TX',
        body: null,
        account_id: event.account_id,
        type: 'recipient',
        key: 'REF-1',
        start_timestamp: event.start_timestamp,
      });
      expect(JSON.parse(rows[0]?.doc as string)).toEqual(event);
      expect((rows[0]?.expires_at as Date | undefined)?.toISOString()).toBe(event.expires_at);
    });

    it('gives back exactly what jsonb cannot hold as is: NULs, lone surrogates, a look-alike of its own wrapper', async () => {
      const { storage } = await setup();
      const account = anAccount().id;
      const odd = {
        nul: 'a\u0000b',
        lone: 'x\ud800',
        low: '\udc00',
        pair: '😀',
        backslash: '\\u0000',
        // Events are sent a line each: a line break in a value must not split one.
        lines: 'a\nb\r\n\u2028c',
      };
      const lead = aLead(account, { fields: { ...odd, nested: [odd] } });
      const wrapperLike = aLead(account, { fields: { '$leadroute:json': '{"a":1}' } });
      const event = anEvent(account, { vars: { lead: odd }, key: 'REF\u0000NUL' });
      for (const inserted of [
        await storage.leads.insert(lead),
        await storage.leads.insert(wrapperLike),
        await storage.events.insert(event),
      ]) {
        expect(inserted.isOk()).toBe(true);
      }
      expect((await storage.leads.get(lead.id))._unsafeUnwrap()).toEqual(lead);
      expect((await storage.leads.get(wrapperLike.id))._unsafeUnwrap()).toEqual(wrapperLike);
      expect((await storage.events.get(event.id))._unsafeUnwrap()).toEqual(event);
      const live = '2026-01-01T00:00:00.000Z';
      expect(
        (await storage.events.findByReference({ reference: 'REF\u0000NUL', live_at: live }))
          ._unsafeUnwrap()
          .map((e) => e.id),
      ).toEqual([event.id]);
      // The column drops the NUL; the exact comparison happens on the body.
      expect((await storage.events.findByReference({ reference: 'REFNUL', live_at: live }))._unsafeUnwrap()).toEqual(
        [],
      );
    });
    it('answers a StorageFailure naming a row written by hand without a readable record, never a missing event', async () => {
      const { storage } = await setup();
      const account = anAccount().id;
      const kept = anEvent(account, { key: 'REF-KEPT' });
      (await storage.events.insert(kept))._unsafeUnwrap();
      const bare = anEvent(account, { key: 'REF-BARE' });
      const garbled = anEvent(account, { key: 'REF-GARBLED' });
      for (const [e, doc] of [
        [bare, null],
        [garbled, '{"id": '],
      ] as const)
        await db.pool.query(
          `INSERT INTO ${qualified(db.schema, 'events')} (id, account_id, type, start_timestamp, lead_id, flow_id, key, expires_at, doc)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
          [e.id, e.account_id, e.type, e.start_timestamp, e.lead_id, e.flow_id, e.key, e.expires_at, doc],
        );
      const live = '2000-01-01T00:00:00.000Z';
      expect((await storage.events.get(kept.id))._unsafeUnwrap()).toEqual(kept);
      for (const e of [bare, garbled]) {
        const failure = { type: 'StorageFailure', message: expect.stringContaining(`event ${e.id} has no record`) };
        expect((await storage.events.get(e.id))._unsafeUnwrapErr()).toMatchObject(failure);
        expect(
          (await storage.events.findByReference({ reference: e.key ?? '', live_at: live }))._unsafeUnwrapErr(),
        ).toMatchObject(failure);
      }
      expect(
        (await storage.events.query({ account_id: account, live_at: live, sort: 'asc', limit: 10 }))._unsafeUnwrapErr(),
      ).toMatchObject({ type: 'StorageFailure' });
    });
  });

  describe('retention', () => {
    it('purges counters whose window is over and keeps the rest', async () => {
      const { storage } = await setup();
      (await storage.counters.tryIncrement('cap:old', 5, '2026-01-01T00:00:00.000Z'))._unsafeUnwrap();
      (await storage.counters.tryIncrement('cap:live', 5, '2026-03-01T00:00:00.000Z'))._unsafeUnwrap();
      expect(
        (await purgeCounters({ pool: db.pool, schema: db.schema }, '2026-02-01T00:00:00.000Z'))._unsafeUnwrap(),
      ).toBe(1);
      expect((await storage.counters.get('cap:old'))._unsafeUnwrap()).toBe(0);
      expect((await storage.counters.get('cap:live'))._unsafeUnwrap()).toBe(1);
    });
  });

  describe('errors', () => {
    it('maps a unique violation to a Conflict carrying the pg error', async () => {
      const { storage } = await setup();
      const account = anAccount();
      (await storage.accounts.insert(account))._unsafeUnwrap();
      const error = (await storage.accounts.insert(account))._unsafeUnwrapErr();
      expect(error.type).toBe('Conflict');
      expect(error.message).toMatch(/^\[leadroute\] \[postgres\] insert account: already exists/);
      expect((error as { cause?: { code?: string } }).cause?.code).toBe('23505');
    });

    it('maps a duplicate alias of one entity in one account to a Conflict through the unique index', async () => {
      const { storage } = await setup();
      const alias = anAlias(anAccount().id, anEntity(anAccount().id).id);
      (await storage.aliases.insert(alias))._unsafeUnwrap();
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
  it('#18.10 answers StorageUnavailable (503, retryable) when nothing listens at the address', async () => {
    const pool = new pg.Pool({
      connectionString: 'postgres://leadroute:leadroute@127.0.0.1:1/leadroute_test',
      connectionTimeoutMillis: 2000,
    });
    try {
      const error = (await postgresStorage({ pool }).accounts.get(anAccount().id))._unsafeUnwrapErr();
      expect(error.type).toBe('StorageUnavailable');
      expect(error.message).toMatch(/^\[leadroute\] \[postgres\] get account failed: the database is unavailable/);
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
