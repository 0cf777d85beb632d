import { err, ok, type Result } from 'neverthrow';
import { errors, type Issue, type LeadrouteError } from '../errors';
import { isId } from '../ids';
import type { ActivityKind, ActivityQuery, AlertActivityEntry, StoredActivity } from '../ports/alerts';
import { ACTIVITY_LIMIT, ActivityInputSchema, ActivityQueryParams } from '../schemas/alerts';
import { queryValidator, validator } from '../schemas/define';
import { parseIsoInZone } from '../time';

export { ACTIVITY_LIMIT } from '../schemas/alerts';

/** One page of a timeline as GET /alerts/{key}/activity answers it. */
export interface ActivityPage {
  readonly entries: AlertActivityEntry[];
  /** Pass as `before` for the next page; null on the last one. */
  readonly next_before: string | null;
}

/** The opaque cursor of an entry: where the next page starts (strictly older). */
export function activityCursor(entry: StoredActivity): string {
  return Buffer.from(JSON.stringify([entry.at, entry.id]), 'utf8').toString('base64url');
}

function fromCursor(text: string): ActivityQuery['before'] | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(text)) return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    if (
      Array.isArray(value) &&
      value.length === 2 &&
      typeof value[0] === 'string' &&
      isId(value[1]) &&
      !Number.isNaN(Date.parse(value[0]))
    )
      return { at: new Date(value[0]).toISOString(), id: value[1] };
  } catch {
    // Not a cursor; it may still be a date.
  }
  return undefined;
}

/** An ISO 8601 date or date-time; one without an offset is read as UTC. */
function fromDate(text: string): ActivityQuery['before'] | undefined {
  if (!/^\d{4}-\d{2}-\d{2}(?:[T ][\d:.,]+(?:Z|[+-]\d{2}(?::?\d{2})?)?)?$/i.test(text)) return undefined;
  const at = parseIsoInZone(text, 'UTC');
  return at === undefined ? undefined : { at: new Date(at).toISOString() };
}

const checkQuery = queryValidator(ActivityQueryParams, 'is not an activity parameter');

/**
 * The query of GET /alerts/{key}/activity, checked: 400 names each bad parameter. Parameters
 * it does not know are ignored, and a repeated one is read at its first value.
 */
export function parseActivityQuery(
  query: URLSearchParams,
): Result<{ before?: ActivityQuery['before']; limit: number; kind?: ActivityKind }, LeadrouteError> {
  const known = new URLSearchParams();
  for (const key of Object.keys(ActivityQueryParams.properties)) {
    const value = query.get(key);
    if (value !== null) known.set(key, value);
  }
  const checked = checkQuery(known);
  const issues: Issue[] = checked.isErr() ? [...checked.error] : [];
  // Whether `before` is a cursor or a date the schema cannot say.
  const text = known.get('before');
  const before = text === null ? undefined : (fromCursor(text) ?? fromDate(text.trim()));
  if (text !== null && before === undefined)
    issues.unshift({
      path: '/before',
      message: 'before must be a next_before cursor or an ISO 8601 date or date-time.',
    });
  if (checked.isErr() || issues.length > 0) return err(errors.badRequest('Invalid activity query.', issues));
  const { limit = ACTIVITY_LIMIT.default, kind } = checked.value;
  return ok({ limit, ...(before ? { before } : {}), ...(kind ? { kind } : {}) });
}

import type { ActivityInput } from '../schemas/alerts';

export type { ActivityInput };

const checkActivity = validator(ActivityInputSchema);

/**
 * Checks an activity input against its schema (the detector's own kinds are refused, as only the
 * detector writes them); then that `at` is a date, which the schema cannot say.
 */
export function validateActivity(input: unknown): Issue[] {
  const checked = checkActivity(input);
  const issues = checked.isErr() ? [...checked.error] : [];
  if (issues.some((i) => i.path === '')) return [{ path: '', message: 'An activity entry must be an object.' }];
  // UTC when it has no offset (Date.parse would take the process zone).
  const { at } = input as ActivityInput;
  if (at !== undefined && !issues.some((i) => i.path === '/at') && parseIsoInZone(at, 'UTC') === undefined)
    issues.push({ path: '/at', message: 'at must be an ISO 8601 date-time.' });
  return issues;
}

/** The entry as the API shows it: the storage fields left out. */
export function publicEntry(e: StoredActivity): AlertActivityEntry {
  return { at: e.at, kind: e.kind, actor: e.actor, visibility: e.visibility, source: e.source, data: e.data };
}
