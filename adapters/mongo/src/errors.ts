import { errors, type StoreError } from '@leadroute/core';
import { ResultAsync } from 'neverthrow';

/** MongoDB's error codes for a unique-index violation (11001 is what pre-2.6 servers sent). */
const DUPLICATE_KEY = new Set([11000, 11001]);

/** Whether `error` is the server refusing a write because a unique index already holds the key. */
export function isDuplicateKey(error: unknown): boolean {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'number' && DUPLICATE_KEY.has(code);
}

/** The unique index a duplicate-key error names, when the server says. */
function indexName(error: unknown): string | undefined {
  const message = error instanceof Error ? error.message : '';
  return /index: (\S+)/.exec(message)?.[1];
}

/** The driver's error classes for a server it cannot reach, lost, or that did not answer in time. */
const UNAVAILABLE = new Set([
  'MongoNetworkError',
  'MongoNetworkTimeoutError',
  'MongoServerSelectionError',
  'MongoTopologyClosedError',
  'MongoOperationTimeoutError',
]);

/**
 * Turns whatever the driver threw into the port's error, keeping the original as
 * `cause`: a duplicate key is a `Conflict` (the caller can act on it), an unreachable
 * or lost server `StorageUnavailable` (503 with Retry-After), anything else a
 * `StorageFailure` (the server refused the operation).
 */
export function toStoreError(what: string, error: unknown): StoreError {
  if (isDuplicateKey(error)) {
    const index = indexName(error);
    const conflict = errors.conflict(
      `[leadroute] [mongo] ${what}: already exists${index === undefined ? '' : ` (${index})`}.`,
    );
    return { ...conflict, cause: error } as StoreError;
  }
  const detail = error instanceof Error ? error.message || error.name : String(error);
  if (error instanceof Error && UNAVAILABLE.has(error.name))
    return errors.storageUnavailable(
      `[leadroute] [mongo] ${what} failed: the server is unavailable (${detail}).`,
      error,
    ) as StoreError;
  return errors.storageFailure(`[leadroute] [mongo] ${what} failed: ${detail}`, error) as StoreError;
}

/**
 * Runs `work` and maps its rejection to a {@link StoreError}: the one place a driver
 * exception becomes a value. `what` names the operation in error messages.
 */
export function attempt<T>(what: string, work: () => Promise<T>): ResultAsync<T, StoreError> {
  // Calling `work` inside the promise means a synchronous throw (a document that
  // cannot be converted, say) is caught too.
  return ResultAsync.fromPromise(Promise.resolve().then(work), (error) => toStoreError(what, error));
}
