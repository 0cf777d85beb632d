import type { Storage, StoreError } from '@leadroute/core';
import type { ResultAsync } from 'neverthrow';
import type { Pool } from 'pg';
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
   * ends it; the adapter only borrows connections for single statements.
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
  return {
    accounts: accountStore(options.pool, schema),
    entities: entityStore(options.pool, schema),
    aliases: aliasStore(options.pool, schema),
    flows: flowStore(options.pool, schema),
    leads: leadStore(options.pool, schema),
    events: eventStore(options.pool, schema),
    counters: counterStore(options.pool, schema),
    credentials: credentialStore(options.pool, schema),
    rollups: rollupStore(options.pool, schema),
    search: searchIndex(options.pool, schema),
    exports: exportStore(options.pool, schema),
    jobs: jobStore(options.pool, schema),
    spool: postgresSpool({ pool: options.pool, schema }),
    certificates: certificateStore(options.pool, schema),
    alerts: alertStore(options.pool, schema),
  };
}
