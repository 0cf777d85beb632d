import type { StoreError } from '@leadroute/core';
import type { ResultAsync } from 'neverthrow';
import type { Pool, QueryConfig, QueryResult, QueryResultRow } from 'pg';
import { type Migration, migrations } from './migrations';
import { attempt } from './query';
import { DEFAULT_SCHEMA, quoteIdent } from './sql';

/** Options of {@link migrate}. */
export interface MigrateOptions {
  /**
   * The schema to hold Leadroute's tables; created when missing. Pass the same
   * value to `postgresStorage`.
   * @default 'public'
   */
  readonly schema?: string;
}

/** What {@link migrate} did. */
export interface MigrationReport {
  readonly schema: string;
  /** Versions applied by this call, oldest first; empty when the schema was current. */
  readonly applied: readonly number[];
  /** The schema's version afterwards. */
  readonly version: number;
}

/**
 * Migration statements wait on other processes' locks and may rebuild big tables: they run
 * without postgresStorage's statement timeouts (the longest read timeout Node's timers allow).
 */
const NO_READ_TIMEOUT = 2 ** 31 - 1;

type Run = <Row extends QueryResultRow>(text: string, values?: unknown[]) => Promise<QueryResult<Row>>;

/** The first key of the advisory lock: "LR". The second is the schema name's hash. */
const LOCK_CLASS = 0x4c52;

/**
 * Brings the schema up to date: applies, in order and in one transaction, every
 * migration not yet recorded in `<schema>.leadroute_migrations`. Calling it again is
 * a no-op, and processes calling it at once wait on a transaction-level advisory
 * lock, so exactly one applies each migration. Run it at start-up, before
 * `postgresStorage` serves requests.
 * @example
 * const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL });
 * const report = await migrate(pool);
 * if (report.isErr()) throw report.error;
 */
export function migrate(
  pool: Pick<Pool, 'connect'>,
  options: MigrateOptions = {},
): ResultAsync<MigrationReport, StoreError> {
  return applyMigrations(pool, migrations, options.schema ?? DEFAULT_SCHEMA);
}

/** {@link migrate} with an explicit history: how tests check a failing migration changes nothing. */
export function applyMigrations(
  pool: Pick<Pool, 'connect'>,
  history: readonly Migration[],
  schema: string,
): ResultAsync<MigrationReport, StoreError> {
  const s = quoteIdent(schema);
  return attempt(`migrate schema ${schema}`, async () => {
    const client = await pool.connect();
    const run: Run = (text, values) =>
      client.query({ text, ...(values ? { values } : {}), query_timeout: NO_READ_TIMEOUT } as QueryConfig);
    let broken: Error | undefined;
    try {
      await client.query('BEGIN');
      try {
        // A pool guarded by postgresStorage() opens connections with a statement_timeout; a migration is exempt.
        await client.query('SET LOCAL statement_timeout = 0');
        const report = await applyLocked(run, history, schema, s);
        await client.query('COMMIT');
        return report;
      } catch (error) {
        // A connection that cannot even roll back is discarded rather than returned to the pool.
        await client.query('ROLLBACK').catch((rollbackError: unknown) => {
          broken = rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError));
        });
        throw error;
      }
    } finally {
      client.release(broken);
    }
  });
}

async function applyLocked(
  run: Run,
  history: readonly Migration[],
  schema: string,
  s: string,
): Promise<MigrationReport> {
  await run('SELECT pg_advisory_xact_lock($1, hashtext($2))', [LOCK_CLASS, schema]);
  // Checked first because CREATE SCHEMA IF NOT EXISTS still demands the CREATE privilege.
  const exists = await run('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema]);
  if (exists.rowCount === 0) await run(`CREATE SCHEMA ${s}`);
  await run(`
    CREATE TABLE IF NOT EXISTS ${s}.leadroute_migrations (
      version    integer PRIMARY KEY,
      name       text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
  const recorded = await run<{ version: number }>(`SELECT version FROM ${s}.leadroute_migrations`);
  const done = new Set(recorded.rows.map((row) => row.version));
  const applied: number[] = [];
  for (const migration of [...history].sort((a, b) => a.version - b.version)) {
    if (done.has(migration.version)) continue;
    await run(migration.up(s));
    await run(`INSERT INTO ${s}.leadroute_migrations (version, name) VALUES ($1, $2)`, [
      migration.version,
      migration.name,
    ]);
    applied.push(migration.version);
    done.add(migration.version);
  }
  return { schema, applied, version: Math.max(0, ...done) };
}
