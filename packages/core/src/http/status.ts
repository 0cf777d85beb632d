import { match } from 'ts-pattern';
import type { LeadrouteError } from '../errors';

/** The one mapping from error to HTTP status. Exhaustive: a new error type must be added here. */
export function statusOf(error: LeadrouteError): number {
  return (
    match(error)
      .with({ type: 'BadRequest' }, () => 400)
      .with({ type: 'Unauthorized' }, () => 401)
      .with({ type: 'Forbidden' }, () => 403)
      .with({ type: 'NotFound' }, () => 404)
      .with({ type: 'MethodNotAllowed' }, () => 405)
      .with({ type: 'NotAcceptable' }, () => 406)
      .with({ type: 'Conflict' }, () => 409)
      .with({ type: 'PreconditionFailed' }, () => 412)
      .with({ type: 'PayloadTooLarge' }, () => 413)
      .with({ type: 'UnsupportedMediaType' }, () => 415)
      .with({ type: 'Validation' }, () => 422)
      .with({ type: 'TooManyRequests' }, () => 429)
      .with({ type: 'UpstreamFailure' }, () => 502)
      .with({ type: 'StorageFailure' }, () => 503)
      .with({ type: 'StorageUnavailable' }, () => 503)
      // nginx's code for a client that closed the connection: it only reaches logs, never a client.
      .with({ type: 'Aborted' }, () => 499)
      .exhaustive()
  );
}

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  409: 'Conflict',
  412: 'Precondition Failed',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  499: 'Client Closed Request',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};

/** RFC 9457 problem details for an error (`type` is about:blank, so `title` is the status phrase). */
export interface Problem {
  readonly type: 'about:blank';
  readonly title: string;
  readonly status: number;
  readonly detail: string;
  /** The error's kind, stable for clients to branch on. */
  readonly code: string;
  readonly errors?: readonly { path: string; message: string }[];
  /** On a stale write of a versioned resource (409, 412): its version now, to read it again and retry. */
  readonly current_version?: number;
}

/**
 * What a caller is told of a storage error: a store's own message names the database, its address and the operation
 * (`[leadroute] [postgres] get event failed: connect ECONNREFUSED 10.0.0.5:5432`), which the handler logs with the
 * request ID; a caller, with or without a key, learns only that storage failed.
 */
const STORAGE_DETAIL = {
  StorageFailure: 'A storage operation failed; the server log has the details under this request ID.',
  StorageUnavailable: 'Storage is unavailable for the moment; retry after Retry-After seconds.',
} as const;

export function problemOf(error: LeadrouteError): Problem {
  const status = statusOf(error);
  // Storage and upstream causes stay in the logs; the caller learns only what failed.
  const base = {
    type: 'about:blank' as const,
    title: TITLES[status] ?? 'Error',
    status,
    detail:
      error.type === 'StorageFailure' || error.type === 'StorageUnavailable'
        ? STORAGE_DETAIL[error.type]
        : error.message,
    code: error.type,
  };
  const withIssues = 'issues' in error && error.issues ? { ...base, errors: error.issues } : base;
  return 'current_version' in error && error.current_version !== undefined
    ? { ...withIssues, current_version: error.current_version }
    : withIssues;
}

/** Problem for an exception nobody turned into a value: a bug, reported without its internals. */
export function internalProblem(): Problem {
  return {
    type: 'about:blank',
    title: TITLES[500] as string,
    status: 500,
    detail: 'Internal error.',
    code: 'Internal',
  };
}
