import type { Issue } from '@leadroute/core';
import type { Result } from 'neverthrow';

/**
 * What {@link unwrap} throws for an Err: the error value, its validation issues (empty when
 * it has none) and a message that names each issue as `path: message`, so a failed test
 * says why the service refused (where neverthrow's `_unsafeUnwrap()` says "Unknown Error").
 */
export class UnwrapError extends Error {
  /** The Err value, as the service returned it. */
  readonly error: unknown;
  /** Its validation issues (`LeadrouteError` of type Validation or BadRequest), else empty. */
  readonly issues: readonly Issue[];

  constructor(error: unknown) {
    const issues = issuesOf(error);
    super(describe(error, issues));
    this.name = 'UnwrapError';
    this.error = error;
    this.issues = issues;
  }
}

function issuesOf(error: unknown): readonly Issue[] {
  if (typeof error !== 'object' || error === null || !('issues' in error) || !Array.isArray(error.issues)) return [];
  return error.issues.filter(
    (issue): issue is Issue =>
      typeof issue === 'object' &&
      issue !== null &&
      typeof issue.path === 'string' &&
      typeof issue.message === 'string',
  );
}

function headline(error: unknown): string {
  if (typeof error === 'string') return error;
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  if (typeof error === 'object' && error !== null && 'message' in error && typeof error.message === 'string')
    return 'type' in error && typeof error.type === 'string' ? `${error.type}: ${error.message}` : error.message;
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    return String(error);
  }
}

function describe(error: unknown, issues: readonly Issue[]): string {
  const lines = issues.map((issue) => `  ${issue.path === '' ? '(root)' : issue.path}: ${issue.message}`);
  return [headline(error), ...lines].join('\n');
}

/**
 * The value of an Ok, or an {@link UnwrapError} thrown for an Err. Takes a `Result`, or a
 * `ResultAsync` (any promise of a Result), then returns a promise.
 * @example
 * const flow = await unwrap(t.service.flows.create(t.principal, body));
 * // Throws: Validation: The flow is not valid.
 * //           /steps/0/module_id: No outbound module platform-acme.outbound.post is installed.
 */
export function unwrap<T, E>(result: Result<T, E>): T;
export function unwrap<T, E>(result: PromiseLike<Result<T, E>>): Promise<T>;
export function unwrap<T, E>(result: Result<T, E> | PromiseLike<Result<T, E>>): T | Promise<T> {
  if ('then' in result && typeof result.then === 'function')
    return Promise.resolve(result).then((settled) => unwrap(settled));
  const settled = result as Result<T, E>;
  if (settled.isOk()) return settled.value;
  throw new UnwrapError(settled.error);
}
