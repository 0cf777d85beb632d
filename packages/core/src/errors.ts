/** One problem found while validating input: where it is and what is wrong. */
export interface Issue {
  /** JSON-pointer-like path of the offending element, e.g. `/rules/2/op`; `""` for the whole value. */
  readonly path: string;
  readonly message: string;
}

/**
 * Every error the service returns as a value. Each variant maps to exactly one
 * HTTP status in `http/status.ts`; adding a variant without a mapping does not compile.
 */
export type LeadrouteError =
  | { readonly type: 'BadRequest'; readonly message: string; readonly issues?: readonly Issue[] }
  | { readonly type: 'Unauthorized'; readonly message: string }
  | { readonly type: 'Forbidden'; readonly message: string }
  | { readonly type: 'NotFound'; readonly message: string }
  | { readonly type: 'MethodNotAllowed'; readonly message: string; readonly allow: readonly string[] }
  | { readonly type: 'NotAcceptable'; readonly message: string }
  | { readonly type: 'Conflict'; readonly message: string; readonly current_version?: number }
  | { readonly type: 'PreconditionFailed'; readonly message: string; readonly current_version: number }
  | { readonly type: 'PayloadTooLarge'; readonly message: string; readonly limit: number }
  /** `charset` is set when the media type is readable but its declared charset is not. */
  | { readonly type: 'UnsupportedMediaType'; readonly message: string; readonly charset?: string }
  | { readonly type: 'Validation'; readonly message: string; readonly issues: readonly Issue[] }
  /** Too many failed look-ups from one client address; `retryAfter` is in whole seconds. */
  | { readonly type: 'TooManyRequests'; readonly message: string; readonly retryAfter: number }
  | { readonly type: 'StorageFailure'; readonly message: string; readonly cause?: unknown }
  /**
   * The store cannot be reached (connection refused or lost, shutting down, timed out): worth retrying after
   * `retryAfter` seconds.
   */
  | {
      readonly type: 'StorageUnavailable';
      readonly message: string;
      readonly retryAfter: number;
      readonly cause?: unknown;
    }
  | { readonly type: 'UpstreamFailure'; readonly message: string; readonly cause?: unknown }
  /** The client went away before its answer: read-only work stops, nobody is answered. */
  | { readonly type: 'Aborted'; readonly message: string; readonly cause?: unknown };

export type ErrorType = LeadrouteError['type'];

/**
 * What something was rejected or thrown with, as text for a message: an Error's message, a message-like object's
 * `message`, and never a throw of its own. `reject()` with no reason, a string or an object without a `toString` has
 * no message to read: reading one inside a rejection handler threw there, and left the rejection unhandled.
 */
export function reasonText(e: unknown): string {
  if (e instanceof Error) return e.message;
  if (e === undefined) return 'no reason given';
  try {
    return typeof e === 'object' && e !== null && 'message' in e ? String(e.message) : String(e);
  } catch {
    return 'a reason that cannot be read as text';
  }
}

/** Constructors, one per variant, so call sites read `err(errors.notFound('entity', id))`. */
export const errors = {
  badRequest: (message: string, issues?: readonly Issue[]): LeadrouteError =>
    issues ? { type: 'BadRequest', message, issues } : { type: 'BadRequest', message },
  unauthorized: (message = 'A valid API key is required.'): LeadrouteError => ({ type: 'Unauthorized', message }),
  forbidden: (message: string): LeadrouteError => ({ type: 'Forbidden', message }),
  notFound: (what: string, id?: string): LeadrouteError => ({
    type: 'NotFound',
    message: id === undefined ? `${what} not found.` : `No ${what} with ID ${id}.`,
  }),
  methodNotAllowed: (allow: readonly string[]): LeadrouteError => ({
    type: 'MethodNotAllowed',
    message: `Method not allowed; use ${allow.join(', ')}.`,
    allow,
  }),
  notAcceptable: (message: string): LeadrouteError => ({ type: 'NotAcceptable', message }),
  /** `currentVersion`: the resource's version now, for a stale write of a versioned resource (a flow). */
  conflict: (message: string, currentVersion?: number): LeadrouteError =>
    currentVersion === undefined
      ? { type: 'Conflict', message }
      : { type: 'Conflict', message, current_version: currentVersion },
  /** An `If-Match` that names none of the resource's current version. */
  preconditionFailed: (message: string, currentVersion: number): LeadrouteError => ({
    type: 'PreconditionFailed',
    message,
    current_version: currentVersion,
  }),
  payloadTooLarge: (limit: number): LeadrouteError => ({
    type: 'PayloadTooLarge',
    message: `Request body is larger than ${limit} bytes.`,
    limit,
  }),
  unsupportedMediaType: (message: string, charset?: string): LeadrouteError =>
    charset === undefined
      ? { type: 'UnsupportedMediaType', message }
      : { type: 'UnsupportedMediaType', message, charset },
  validation: (issues: readonly Issue[], message = 'The request is not valid.'): LeadrouteError => ({
    type: 'Validation',
    message,
    issues,
  }),
  tooManyRequests: (retryAfter: number): LeadrouteError => ({
    type: 'TooManyRequests',
    message: `Too many failed requests from this address; retry after ${retryAfter} seconds.`,
    retryAfter,
  }),
  storageFailure: (message: string, cause?: unknown): LeadrouteError => ({ type: 'StorageFailure', message, cause }),
  /** @param retryAfter seconds a client should wait before retrying (the `Retry-After` header). */
  storageUnavailable: (message: string, cause?: unknown, retryAfter = 2): LeadrouteError => ({
    type: 'StorageUnavailable',
    message,
    retryAfter,
    cause,
  }),
  upstreamFailure: (message: string, cause?: unknown): LeadrouteError => ({ type: 'UpstreamFailure', message, cause }),
  aborted: (message = 'The client closed the connection.', cause?: unknown): LeadrouteError => ({
    type: 'Aborted',
    message,
    cause,
  }),
} as const;
