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

/**
 * Turns whatever `pg` threw into the port's error, keeping the original as `cause`:
 * a unique violation is a `Conflict` (the caller can act on it), anything else a
 * `StorageFailure` (the database is down, misconfigured or refused the statement).
 */
export function toStoreError(what: string, error: unknown): StoreError {
  const detail = error instanceof Error ? error.message : String(error);
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
