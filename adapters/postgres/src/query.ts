import { errors, type StoreError } from '@leadroute/core';
import { ResultAsync } from 'neverthrow';
import type { Pool, QueryResultRow } from 'pg';

/** What the stores need of a pool: one-statement queries. A `pg.Pool` or a `pg.Client` fits. */
export type Queryable = Pick<Pool, 'query'>;

/** PostgreSQL's SQLSTATE for a unique-constraint violation. */
const UNIQUE_VIOLATION = '23505';

/** The SQLSTATE of a server error, if `error` is one. */
export function sqlState(error: unknown): string | undefined {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : undefined;
}

/** Socket errors meaning the server cannot be reached or went away. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * SQLSTATEs meaning "not now" rather than "not this": admin/crash shutdown and cannot-connect-now
 * (57P01..57P03), a statement cancelled (57014, how `statement_timeout` ends one), and
 * every connection exception (class 08).
 */
const UNAVAILABLE_STATES = new Set(['57P01', '57P02', '57P03', '57014']);

/**
 * What `pg` and `pg-pool` say, as plain `Error`s without a code, when a connection is lost
 * or an acquire or a query times out (`query_timeout`, `connectionTimeoutMillis`).
 */
const UNAVAILABLE_MESSAGES = [
  'Connection terminated',
  'Query read timeout',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
  'the database system is',
];

/**
 * Whether `error` says the database cannot be reached or did not answer in time, so the
 * same request may well succeed shortly: refused or reset connections, shutdown, a timeout.
 */
export function isUnavailable(error: unknown): boolean {
  const state = sqlState(error);
  if (state !== undefined && (UNAVAILABLE_STATES.has(state) || state.startsWith('08') || NETWORK_CODES.has(state)))
    return true;
  // A failed connect to a host with several addresses (localhost: ::1 and 127.0.0.1) is an AggregateError of socket
  // errors.
  if (error instanceof AggregateError) return error.errors.some(isUnavailable);
  const message = error instanceof Error ? error.message : '';
  return UNAVAILABLE_MESSAGES.some((m) => message.includes(m));
}

/**
 * Turns whatever `pg` threw into the port's error, keeping the original as `cause`:
 * a unique violation is a `Conflict` (the caller can act on it), a lost, refused or
 * timed-out connection `StorageUnavailable` (503 with Retry-After: try again soon),
 * anything else a `StorageFailure` (misconfigured, or the statement was refused).
 */
export function toStoreError(what: string, error: unknown): StoreError {
  const detail = error instanceof Error ? error.message || error.name : String(error);
  if (isUnavailable(error))
    return errors.storageUnavailable(
      `[leadroute] [postgres] ${what} failed: the database is unavailable (${detail}).`,
      error,
    ) as StoreError;
  if (sqlState(error) === UNIQUE_VIOLATION) {
    const constraint = (error as { constraint?: unknown }).constraint;
    const conflict = errors.conflict(
      `[leadroute] [postgres] ${what}: already exists${typeof constraint === 'string' ? ` (${constraint})` : ''}.`,
    );
    return { ...conflict, cause: error } as StoreError;
  }
  return errors.storageFailure(`[leadroute] [postgres] ${what} failed: ${detail}`, error) as StoreError;
}

/**
 * Runs `work` and maps its rejection to a {@link StoreError}: the one place a `pg`
 * exception becomes a value.
 */
export function attempt<T>(what: string, work: () => Promise<T>): ResultAsync<T, StoreError> {
  // Calling `work` inside the promise means a synchronous throw is caught too.
  return ResultAsync.fromPromise(Promise.resolve().then(work), (error) => toStoreError(what, error));
}

/** One parameterised statement; `what` names the operation in error messages. */
export function query<Row extends QueryResultRow>(
  db: Queryable,
  what: string,
  text: string,
  values: readonly unknown[] = [],
): ResultAsync<{ rows: Row[]; rowCount: number }, StoreError> {
  return attempt(what, async () => {
    const result = await db.query<Row>(text, values as unknown[]);
    return { rows: result.rows, rowCount: result.rowCount ?? 0 };
  });
}
