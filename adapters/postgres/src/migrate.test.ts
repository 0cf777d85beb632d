import { anAccount, anEvent } from '@leadroute/testkit';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresStorage } from './index';
import { applyMigrations, migrate } from './migrate';
import { migrations } from './migrations';
import { quoteIdent } from './sql';
import { DATABASE_URL, databaseAvailable, insertEventAsBefore21, randomSchemaName } from './test-support';

const latest = migrations.length;

describe('migrations', () => {
  it('are numbered 1..n without gaps, each named', () => {
    expect(migrations.map((m) => m.version)).toEqual(Array.from({ length: latest }, (_, i) => i + 1));
    for (const m of migrations) expect(m.name).not.toBe('');
  });
});

const available = await databaseAvailable('migrate.test.ts');

describe.skipIf(!available)('migrate', () => {
  let pool: pg.Pool;
  const schemas: string[] = [];
  const newSchema = (name = randomSchemaName()): string => (schemas.push(name), name);
  const history = async (schema: string) =>
    (
      await pool.query<{ version: number; name: string }>(
        `SELECT version, name FROM ${quoteIdent(schema)}.leadroute_migrations ORDER BY version`,
      )
    ).rows;

  beforeAll(() => {
    pool = new pg.Pool({ connectionString: DATABASE_URL, max: 10 });
  });
  afterAll(async () => {
    for (const schema of schemas) await pool.query(`DROP SCHEMA IF EXISTS ${quoteIdent(schema)} CASCADE`);
    await pool.end();
  });

  it('creates the schema, applies every migration and records each in leadroute_migrations', async () => {
    const schema = newSchema();
    expect((await migrate(pool, { schema }))._unsafeUnwrap()).toEqual({
      schema,
      applied: migrations.map((m) => m.version),
      version: latest,
    });
    expect(await history(schema)).toEqual(migrations.map(({ version, name }) => ({ version, name })));
  });

  it('is idempotent: a second call applies nothing', async () => {
    const schema = newSchema();
    (await migrate(pool, { schema }))._unsafeUnwrap();
    expect((await migrate(pool, { schema }))._unsafeUnwrap()).toEqual({ schema, applied: [], version: latest });
    expect(await history(schema)).toHaveLength(latest);
  });

  it('applies each migration exactly once when several processes call it at once', async () => {
    const schema = newSchema();
    // Separate pools stand for separate processes: each call holds its own connection.
    const pools = Array.from({ length: 4 }, () => new pg.Pool({ connectionString: DATABASE_URL, max: 1 }));
    try {
      const reports = (await Promise.all(pools.map((p) => migrate(p, { schema })))).map((r) => r._unsafeUnwrap());
      expect(reports.map((r) => r.version)).toEqual([latest, latest, latest, latest]);
      expect(reports.flatMap((r) => r.applied).sort((a, b) => a - b)).toEqual(migrations.map((m) => m.version));
      expect(reports.filter((r) => r.applied.length > 0)).toHaveLength(1);
      expect(await history(schema)).toHaveLength(latest);
    } finally {
      await Promise.all(pools.map((p) => p.end()));
    }
  });

  it('applies only the migrations a schema lacks, as a later release adds one', async () => {
    const schema = newSchema();
    (await applyMigrations(pool, migrations.slice(0, 1), schema))._unsafeUnwrap();
    expect((await migrate(pool, { schema }))._unsafeUnwrap().applied).toEqual(
      migrations.slice(1).map((m) => m.version),
    );
  });

  it('reads the events written before migration 21 (a jsonb body) beside the ones written after (JSON text)', async () => {
    const schema = newSchema();
    (await applyMigrations(pool, migrations.slice(0, 20), schema))._unsafeUnwrap();
    const account = anAccount().id;
    // As the store wrote them before: the record as jsonb, wrapped where jsonb refuses a value.
    const plain = anEvent(account, { key: 'OLD-1' });
    const wrapped = anEvent(account, { key: 'OLD-2', vars: { lead: { nul: 'a\u0000b' } } });
    for (const e of [plain, wrapped]) await insertEventAsBefore21(pool, schema, e);
    expect((await migrate(pool, { schema }))._unsafeUnwrap().applied).toEqual([21]);
    const storage = postgresStorage({ pool, schema });
    const added = anEvent(account, { key: 'NEW-1' });
    (await storage.events.insert(added))._unsafeUnwrap();
    for (const e of [plain, wrapped, added]) expect((await storage.events.get(e.id))._unsafeUnwrap()).toEqual(e);
    const page = (
      await storage.events.query({ account_id: account, live_at: '2000-01-01T00:00:00.000Z', limit: 10, sort: 'asc' })
    )._unsafeUnwrap();
    expect(page).toEqual([plain, wrapped, added].sort((a, b) => (a.id < b.id ? -1 : 1)));
    expect(
      (
        await storage.events.findByReference({ reference: 'OLD-2', live_at: '2000-01-01T00:00:00.000Z' })
      )._unsafeUnwrap(),
    ).toEqual([wrapped]);
  });

  it('rolls a failing migration back whole and reports a StorageFailure', async () => {
    const schema = newSchema();
    (await migrate(pool, { schema }))._unsafeUnwrap();
    const broken = [
      ...migrations,
      { version: latest + 1, name: 'broken', up: (s: string) => `CREATE TABLE ${s}.half_done (x int); SELECT 1 / 0;` },
    ];
    const error = (await applyMigrations(pool, broken, schema))._unsafeUnwrapErr();
    expect(error).toMatchObject({ type: 'StorageFailure', cause: { code: '22012' } });
    expect(error.message).toMatch(/^\[leadroute\] \[postgres\] migrate schema /);
    expect(await history(schema)).toHaveLength(latest);
    const table = await pool.query('SELECT 1 FROM pg_tables WHERE schemaname = $1 AND tablename = $2', [
      schema,
      'half_done',
    ]);
    expect(table.rowCount).toBe(0);
    // The connection went back to the pool usable.
    expect((await pool.query('SELECT 1 AS one')).rows[0]).toEqual({ one: 1 });
  });

  it('quotes the schema name, so any name works', async () => {
    const schema = newSchema(`${randomSchemaName()} "odd"; name`);
    expect((await migrate(pool, { schema })).isOk()).toBe(true);
    const storage = postgresStorage({ pool, schema });
    const account = anAccount();
    (await storage.accounts.insert(account))._unsafeUnwrap();
    expect((await storage.accounts.get(account.id))._unsafeUnwrap()).toEqual(account);
  });

  it('migrates the public schema by default', async () => {
    // Only reads: the default schema may be shared with other runs, so nothing is dropped.
    const report = (await migrate(pool))._unsafeUnwrap();
    expect(report).toMatchObject({ schema: 'public', version: latest });
  });
});
