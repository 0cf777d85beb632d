import type { Storage, StoreError } from '@leadroute/core';
import type { ResultAsync } from 'neverthrow';
import type { Pool } from 'pg';
import { groupCommit } from './batch/group-commit';
import { batchedReader } from './batch/reads';
import { DEFAULT_SCHEMA, quoteIdent } from './sql';
import { accountStore } from './stores/accounts';
import { alertStore } from './stores/alerts';
import { aliasStore } from './stores/aliases';
import { certificateStore } from './stores/certificates';
import { counterStore, purgeExpiredCounters } from './stores/counters';
import { credentialStore } from './stores/credentials';
import { entityStore } from './stores/entities';
import { eventStore } from './stores/events';
import { exportStore } from './stores/exports';
import { flowStore } from './stores/flows';
import { jobStore } from './stores/jobs';
import { leadWrites } from './stores/lead-writes';
import { leadStore } from './stores/leads';
import { rollupStore } from './stores/rollups';
import { searchIndex } from './stores/search';
import { postgresSpool } from './stores/spool';

export { type MigrateOptions, type MigrationReport, migrate } from './migrate';
export { type PostgresSpoolOptions, postgresSpool } from './stores/spool';

/**
 * Deletes the cap and ping-limit counters whose window ended before `before` (ISO).
 * Run it from the host's job runner with the other retention purges.
 * @example
 * await purgeCounters({ pool }, new Date().toISOString());
 */
export function purgeCounters(options: PostgresStorageOptions, before: string): ResultAsync<number, StoreError> {
  return purgeExpiredCounters(options.pool, options.schema ?? DEFAULT_SCHEMA, before);
}

/** Options of {@link postgresStorage}. */
export interface PostgresStorageOptions {
  /**
   * The `pg` pool every store queries through. The host creates, configures and
   * ends it; the adapter only borrows connections, for a statement or for one
   * batch of writes (see {@link postgresStorage}) at a time.
   * @example new pg.Pool({ connectionString: process.env.DATABASE_URL })
   */
  readonly pool: Pool;
  /**
   * The schema holding Leadroute's tables: the one given to {@link migrate}.
   * @default 'public'
   */
  readonly schema?: string;
}

/**
 * Every storage port on PostgreSQL. Run {@link migrate} first (once per deploy or at
 * start-up) so the tables exist. Driver errors come back as `StoreError` values:
 * `Conflict` for a unique violation, `StorageFailure` otherwise, with the `pg`
 * error as `cause`.
 *
 * A lead's records (the lead, its events, their rollup rows, its search document)
 * are one write, `leadWrites.commit`, made in one transaction: they become visible
 * together or not at all, so a process killed mid-lead leaves no half-written lead.
 * Those writes, and the other batched ones (counters, seen sources), go through a
 * group commit: writes that arrive while a batch is committing are sent together
 * as the next batch, in one transaction with one statement per kind of write, so
 * concurrent leads share round trips and WAL flushes. Each call still answers only
 * once its own write has committed, and a write the database refuses fails only
 * its own call (a lead whole, never part of it). Lookups of flows, accounts and
 * entities made in the same turn of the event loop share one statement.
 * @example
 * import pg from 'pg';
 * import { migrate, postgresStorage } from '@leadroute/postgres';
 *
 * const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL });
 * (await migrate(pool))._unsafeUnwrap();
 * const service = createLeadService({ storage: postgresStorage({ pool }) });
 */
export function postgresStorage(options: PostgresStorageOptions): Storage {
  const schema = options.schema ?? DEFAULT_SCHEMA;
  quoteIdent(schema); // refuse an unusable schema name now rather than on the first query
  const writer = groupCommit(options.pool);
  const reader = batchedReader(options.pool);
  return {
    accounts: accountStore(options.pool, schema, reader),
    entities: entityStore(options.pool, schema, reader),
    aliases: aliasStore(options.pool, schema),
    flows: flowStore(options.pool, schema, reader),
    leads: leadStore(options.pool, schema, writer),
    events: eventStore(options.pool, schema, writer),
    counters: counterStore(options.pool, schema, writer),
    credentials: credentialStore(options.pool, schema),
    rollups: rollupStore(options.pool, schema, writer),
    search: searchIndex(options.pool, schema, writer),
    exports: exportStore(options.pool, schema),
    jobs: jobStore(options.pool, schema),
    spool: postgresSpool({ pool: options.pool, schema }),
    certificates: certificateStore(options.pool, schema),
    alerts: alertStore(options.pool, schema, writer),
    leadWrites: leadWrites(schema, writer),
  };
}
