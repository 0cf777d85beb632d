import type { Logger } from '@leadroute/core';
import type { Pool, PoolClient, QueryConfig } from 'pg';
import type { Queryable } from './query';

/** How long getting a connection from the pool may take before a request fails with 503. */
export const DEFAULT_ACQUIRE_TIMEOUT_MS = 2_000;
/** How long one statement may run (or wait for a frozen server) before it fails with 503. */
export const DEFAULT_STATEMENT_TIMEOUT_MS = 5_000;

/** Timeouts and logging {@link guardPool} applies to a host's pool. */
export interface PoolGuardOptions {
  readonly acquireTimeoutMs?: number;
  readonly statementTimeoutMs?: number;
  readonly logger?: Logger;
}

/** Writes pool warnings to the console when the host gave no logger: an idle-connection error must leave a trace. */
const consoleLogger: Pick<Logger, 'warn'> = {
  warn: (obj, msg) => console.warn(msg, (obj as { err?: unknown }).err),
};

const listening = new WeakSet<Pool>();
const listeningClients = new WeakSet<PoolClient>();

/** Where pg reads a client's read timeout on every query; not in its types. */
type WithParameters = { connectionParameters?: { query_timeout?: number | false } };

/**
 * Makes a host's pool safe to lean on when the database fails:
 *
 * - an `error` listener on the pool and on every client it lends, so a connection dropped
 *   by a stopping server (idle, or lent between two queries) is logged and replaced
 *   instead of crashing the process (an EventEmitter without an `error` listener throws);
 * - an acquire timeout (`connectionTimeoutMillis`), so a request waiting for a
 *   connection to a stopped or frozen server fails instead of queueing forever;
 * - a statement timeout on both sides: `statement_timeout` (the server cancels a slow
 *   statement and the connection stays usable) and pg's `query_timeout` (the client
 *   gives up on a server that answers nothing, as a frozen one does; pg-pool then
 *   destroys that client, since it is released with the error).
 *
 * A value the host already put in the pool's config is kept unless the option is given.
 * Returns the pool as the stores query it: every statement carries the read timeout.
 */
export function guardPool(pool: Pool, options: PoolGuardOptions = {}): Queryable {
  const logger = options.logger ?? consoleLogger;
  if (!listening.has(pool)) {
    listening.add(pool);
    pool.on('error', (error) =>
      logger.warn(
        { err: error },
        '[leadroute] [postgres] an idle connection failed; the pool opens a new one when needed.',
      ),
    );
    pool.on('acquire', (client: PoolClient) => {
      // pg-pool listens on a client only while it is idle. A lent client that the server drops between two of its
      // queries (a fast shutdown's 57P01 arriving with the last answer) emits `error` too: without a listener, a crash.
      // Its holder learns of it anyway, as the failure of its next query; here it is only logged.
      if (!listeningClients.has(client)) {
        listeningClients.add(client);
        client.on('error', (error) =>
          logger.warn(
            { err: error },
            '[leadroute] [postgres] a connection in use failed; its statement fails and it is discarded.',
          ),
        );
      }
      // Clients opened before the first call (by migrate(), say) were configured without the read timeout; give it to
      // them when lent.
      const parameters = (client as unknown as WithParameters).connectionParameters;
      if (parameters && !parameters.query_timeout) parameters.query_timeout = pool.options.query_timeout ?? false;
    });
  }
  const settings = pool.options;
  const acquire = options.acquireTimeoutMs ?? (settings.connectionTimeoutMillis || DEFAULT_ACQUIRE_TIMEOUT_MS);
  const statement = options.statementTimeoutMs ?? (settings.query_timeout || DEFAULT_STATEMENT_TIMEOUT_MS);
  settings.connectionTimeoutMillis = acquire;
  settings.query_timeout = statement;
  if (options.statementTimeoutMs !== undefined || !settings.statement_timeout) settings.statement_timeout = statement;
  return {
    // pg takes a per-query read timeout in the query config, though its types do not list it.
    query: ((text: string, values?: unknown[]) =>
      pool.query({
        text,
        ...(values ? { values } : {}),
        query_timeout: statement,
      } as QueryConfig)) as Queryable['query'],
  };
}
