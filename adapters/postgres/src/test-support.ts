import { randomBytes } from 'node:crypto';
import type { StoredEvent } from '@leadroute/core';
import pg from 'pg';
import { describe, it } from 'vitest';
import { migrate } from './migrate';
import { qualified, quoteIdent, toJsonb } from './sql';

/** Where the tests find PostgreSQL; `bash scripts/services.sh` creates this role and database. */
export const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://leadroute:leadroute@127.0.0.1:5432/leadroute_test';

const redacted = (url: string): string => {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparsable DATABASE_URL)';
  }
};

/** Why the server at {@link DATABASE_URL} cannot be used, or undefined when it answers. */
async function unreachable(): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: DATABASE_URL, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message || error.name : String(error);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * Whether a test file can reach PostgreSQL. When it cannot: under CI this registers
 * a failing test (CI must prove the adapter on a real server); elsewhere it says how
 * to start one, and the caller skips its tests.
 */
export async function databaseAvailable(file: string): Promise<boolean> {
  const reason = await unreachable();
  if (reason === undefined) return true;
  const where = `no PostgreSQL at ${redacted(DATABASE_URL)} (${reason})`;
  if (process.env.CI) {
    describe(`postgres: ${file}`, () => {
      it('reaches the PostgreSQL server at DATABASE_URL', () => {
        throw new Error(`[leadroute] [postgres] ${where}; CI must run scripts/services.sh first.`);
      });
    });
  } else {
    console.log(
      `[leadroute] [postgres] skipping ${file}: ${where}. Start PostgreSQL with \`bash scripts/services.sh\` or set DATABASE_URL.`,
    );
  }
  return false;
}

/** A schema of its own for one test file, migrated, on its own pool. */
export interface TestSchema {
  readonly pool: pg.Pool;
  readonly schema: string;
  /** Empties every table but the migration history: a fresh store for the next test (identity counters go on). */
  truncate(): Promise<void>;
  /** Drops the schema and ends the pool. */
  drop(): Promise<void>;
}

/** A random schema name, so test files (and CI runs sharing a server) never meet. */
export const randomSchemaName = (): string => `leadroute_test_${randomBytes(6).toString('hex')}`;

/** Creates a randomly named schema, migrates it and hands it over. */
export async function freshSchema(): Promise<TestSchema> {
  const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 8 });
  // Tests that use the pool without postgresStorage() must not crash when the server drops an idle connection.
  pool.on('error', () => undefined);
  const schema = randomSchemaName();
  await pool.query(`CREATE SCHEMA ${quoteIdent(schema)}`);
  let tables: string[] | undefined;
  const migrated = await migrate(pool, { schema });
  if (migrated.isErr()) throw new Error(migrated.error.message, { cause: migrated.error });
  return {
    pool,
    schema,
    async truncate() {
      tables ??= (
        await pool.query<{ tablename: string }>(
          "SELECT tablename FROM pg_tables WHERE schemaname = $1 AND tablename <> 'leadroute_migrations'",
          [schema],
        )
      ).rows.map((r) => qualified(schema, r.tablename));
      // DELETE rather than TRUNCATE: a test leaves a few rows, and TRUNCATE replaces every
      // table's and index's files, which costs far more on a busy machine.
      if (tables.length > 0) await pool.query(tables.map((table) => `DELETE FROM ${table};`).join(' '));
    },
    async drop() {
      await pool.query(`DROP SCHEMA IF EXISTS ${quoteIdent(schema)} CASCADE`);
      await pool.end();
    },
  };
}

/**
 * Inserts an event as the store wrote events before migration 21: the record as a jsonb `body`, wrapped where jsonb
 * refuses a value. For the tests of schemas an older release left behind.
 */
export async function insertEventAsBefore21(pool: pg.Pool, schema: string, e: StoredEvent): Promise<void> {
  await pool.query(
    `INSERT INTO ${qualified(schema, 'events')} (id, account_id, type, start_timestamp, lead_id, flow_id, key, expires_at, body)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb)`,
    [e.id, e.account_id, e.type, e.start_timestamp, e.lead_id, e.flow_id, e.key, e.expires_at, toJsonb(e)],
  );
}
