import type { Logger, Storage, StoreError } from '@leadroute/core';
import type { ResultAsync } from 'neverthrow';
import pg, { type Pool } from 'pg';
import { groupCommit } from './batch/group-commit';
import { batchedReader } from './batch/reads';
import { guardPool } from './pool';
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
import { idempotencyStore } from './stores/idempotency';
import { jobStore } from './stores/jobs';
import { leadWrites } from './stores/lead-writes';
import { leadStore } from './stores/leads';
import { fieldRollupStore } from './stores/field-rollups';
import { rollupStore } from './stores/rollups';
import { searchIndex } from './stores/search';
import { postgresSpool } from './stores/spool';

export { DEFAULT_ACQUIRE_TIMEOUT_MS, DEFAULT_STATEMENT_TIMEOUT_MS, guardPool, type PoolGuardOptions } from './pool';
export { isUnavailable } from './query';
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
  /**
   * How long a request may wait for a connection (the pool's `connectionTimeoutMillis`)
   * before it fails with `StorageUnavailable` (HTTP 503 with Retry-After). Applied to the
   * pool; without this option a value already in the pool's config is kept.
   * @default 2000 (DEFAULT_ACQUIRE_TIMEOUT_MS)
   */
  readonly acquireTimeoutMs?: number;
  /**
   * How long one statement may take, on both sides: the server's `statement_timeout`
   * (for connections opened from now on) and pg's client-side `query_timeout` (for a
   * server that answers nothing, as a frozen one does). A statement past it fails with
   * `StorageUnavailable` and a client that timed out is destroyed, not reused. Without
   * this option a `query_timeout` already in the pool's config is kept.
   * @default 5000 (DEFAULT_STATEMENT_TIMEOUT_MS)
   */
  readonly statementTimeoutMs?: number;
  /**
   * Where statistics and lead search read: a pool (or a connection string, from which
   * the adapter makes a pool that never keeps the process alive) of a streaming replica.
   * Only reads that tolerate the replica's lag go there, and only these: the rollups
   * behind `GET /events/stats` and the alert detector's windows (rollups.query,
   * rollups.activeAccounts), and lead search (search.search). Everything else, every
   * write, and every read that must see the latest write (intake, feedback, returns, caps,
   * jobs, the events API) stays on `pool`. docs/scaling.md says how much lag each tolerates.
   * The read pool gets the same acquire and statement timeouts as `pool`.
   * @default pool (every query on the primary)
   * @example new pg.Pool({ connectionString: process.env.DATABASE_READ_URL })
   */
  readonly readPool?: Pool | string;
  /**
   * Where an idle connection's failure is reported (the adapter listens for the pool's
   * `error` event itself, so a database restart never crashes the process).
   * @default console.warn
   */
  readonly logger?: Logger;
}

/**
 * Every storage port on PostgreSQL. Run {@link migrate} first (once per deploy or at
 * start-up) so the tables exist. Driver errors come back as `StoreError` values:
 * `Conflict` for a unique violation, `StorageUnavailable` for a lost, refused or
 * timed-out connection (HTTP 503 with Retry-After), `StorageFailure` otherwise, with
 * the `pg` error as `cause`. It listens for the pool's `error` event and puts an
 * acquire and a statement timeout on the pool (see the options), so a stopped or
 * frozen database costs requests a 503, never the process or a hung request.
 *
 * A lead's records (the lead, its events, their rollup and field rollup rows, its
 * search document) are one write, `leadWrites.commit`, made in one statement: they
 * become visible together or not at all, so a process killed mid-lead leaves no
 * half-written lead. Those writes, and the other batched ones (counters, seen
 * sources), go through a group commit with a queue per kind of write: writes that
 * arrive while a batch of their kind is committing are sent together as the next
 * batch, so concurrent leads share round trips and WAL flushes (a batch of leads is
 * one statement and one commit). Those statements have one text whatever the batch's
 * size (rows go in array parameters), and each connection keeps them as named prepared
 * statements: parsed and planned once, then sent as parameters only. (A transaction-mode
 * pooler between the pool and the server must support protocol-level prepared
 * statements, as PgBouncer 1.21+ does with `max_prepared_statements`.) Each call
 * still answers only once its own write has committed, and a write the database
 * refuses fails only its own call (a lead
 * whole, never part of it). A cap's slot commits without waiting for the WAL flush
 * and is made durable by its lead's commit (see the counter store), so a lead waits
 * for one flush. Lookups of flows, accounts, entities and rolled-up fields made in
 * the same turn of the event loop share one statement.
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
  const db = guardPool(options.pool, {
    ...(options.acquireTimeoutMs === undefined ? {} : { acquireTimeoutMs: options.acquireTimeoutMs }),
    ...(options.statementTimeoutMs === undefined ? {} : { statementTimeoutMs: options.statementTimeoutMs }),
    ...(options.logger === undefined ? {} : { logger: options.logger }),
  });
  // The group commit borrows clients from the pool itself; guardPool gave them the same timeouts.
  const writer = groupCommit(options.pool);
  const reader = batchedReader(db);
  const replica =
    typeof options.readPool === 'string'
      ? new pg.Pool({ connectionString: options.readPool, allowExitOnIdle: true })
      : options.readPool;
  const reads = replica
    ? guardPool(replica, {
        ...(options.acquireTimeoutMs === undefined ? {} : { acquireTimeoutMs: options.acquireTimeoutMs }),
        ...(options.statementTimeoutMs === undefined ? {} : { statementTimeoutMs: options.statementTimeoutMs }),
        ...(options.logger === undefined ? {} : { logger: options.logger }),
      })
    : db;
  return {
    accounts: accountStore(db, schema, reader),
    entities: entityStore(db, schema, reader),
    aliases: aliasStore(db, schema),
    flows: flowStore(db, schema, reader),
    leads: leadStore(db, schema, writer),
    events: eventStore(db, schema, writer),
    counters: counterStore(db, schema, writer),
    credentials: credentialStore(db, schema),
    rollups: rollupStore(db, schema, writer, reads),
    fieldRollups: fieldRollupStore(db, schema, reads, reader),
    search: searchIndex(db, schema, writer, reads),
    exports: exportStore(db, schema),
    jobs: jobStore(db, schema),
    spool: postgresSpool({ pool: options.pool, schema }),
    certificates: certificateStore(db, schema),
    alerts: alertStore(db, schema, writer),
    idempotency: idempotencyStore(db, schema),
    leadWrites: leadWrites(schema, writer),
  };
}
