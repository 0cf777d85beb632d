import { err, ok, type Result } from 'neverthrow';
import { errors, type Issue, type LeadrouteError } from '../errors';
import { isId } from '../ids';
import {
  ACTIVITY_KINDS,
  ACTIVITY_SOURCES,
  type ActivityKind,
  type ActivityQuery,
  type AlertActivityEntry,
  type StoredActivity,
} from '../ports/alerts';
import { parseIsoInZone } from '../time';
import { isRecord } from '../validation';

/** Timeline page size (spec: 1..200, default 50). */
export const ACTIVITY_LIMIT = { min: 1, max: 200, default: 50 } as const;

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

/** The query of GET /alerts/{key}/activity, checked: 400 names each bad parameter. */
export function parseActivityQuery(
  query: URLSearchParams,
): Result<{ before?: ActivityQuery['before']; limit: number; kind?: ActivityKind }, LeadrouteError> {
  const issues: Issue[] = [];
  const out: { before?: ActivityQuery['before']; limit: number; kind?: ActivityKind } = {
    limit: ACTIVITY_LIMIT.default,
  };
  const before = query.get('before');
  if (before !== null) {
    const parsed = fromCursor(before) ?? fromDate(before.trim());
    if (parsed) out.before = parsed;
    else
      issues.push({
        path: '/before',
        message: 'before must be a next_before cursor or an ISO 8601 date or date-time.',
      });
  }
  const limit = query.get('limit');
  if (limit !== null) {
    const n = /^\d{1,4}$/.test(limit) ? Number(limit) : Number.NaN;
    if (n >= ACTIVITY_LIMIT.min && n <= ACTIVITY_LIMIT.max) out.limit = n;
    else
      issues.push({
        path: '/limit',
        message: `limit must be an integer from ${ACTIVITY_LIMIT.min} to ${ACTIVITY_LIMIT.max}.`,
      });
  }
  const kind = query.get('kind');
  if (kind !== null) {
    if ((ACTIVITY_KINDS as readonly string[]).includes(kind)) out.kind = kind as ActivityKind;
    else issues.push({ path: '/kind', message: `kind must be one of ${ACTIVITY_KINDS.join(', ')}.` });
  }
  return issues.length > 0 ? err(errors.badRequest('Invalid activity query.', issues)) : ok(out);
}

/** What the host records about what people did (`service.alerts.addActivity`). */
export interface ActivityInput {
  readonly kind: ActivityKind;
  readonly actor: { readonly type: string; readonly id: string; readonly name: string };
  /** @default 'customer' */
  readonly visibility?: 'customer' | 'internal';
  /** @default 'api' */
  readonly source?: 'ui' | 'slack' | 'api' | 'collector';
  readonly data?: Readonly<Record<string, unknown>> | null;
  /** ISO 8601; @default now */
  readonly at?: string;
}

const DETECTOR_KINDS: ReadonlySet<string> = new Set([
  'created',
  'severity_change',
  'relabel',
  'message_change',
  'resolved',
]);

/** Checks an activity input; the detector's own kinds are refused, as only the detector writes them. */
export function validateActivity(input: unknown): Issue[] {
  if (!isRecord(input)) return [{ path: '', message: 'An activity entry must be an object.' }];
  const issues: Issue[] = [];
  if (
    typeof input.kind !== 'string' ||
    !(ACTIVITY_KINDS as readonly string[]).includes(input.kind) ||
    DETECTOR_KINDS.has(input.kind)
  )
    issues.push({
      path: '/kind',
      message: `kind must be one of ${ACTIVITY_KINDS.filter((k) => !DETECTOR_KINDS.has(k)).join(', ')}.`,
    });
  const actor = input.actor;
  if (
    !isRecord(actor) ||
    !['type', 'id', 'name'].every((f) => typeof actor[f] === 'string' && (actor[f] as string).length <= 200)
  )
    issues.push({ path: '/actor', message: 'actor must have type, id and name strings.' });
  if (input.visibility !== undefined && input.visibility !== 'customer' && input.visibility !== 'internal')
    issues.push({ path: '/visibility', message: 'visibility must be customer or internal.' });
  if (input.source !== undefined && !(ACTIVITY_SOURCES as readonly unknown[]).includes(input.source))
    issues.push({ path: '/source', message: `source must be one of ${ACTIVITY_SOURCES.join(', ')}.` });
  if (input.data !== undefined && input.data !== null && !isRecord(input.data))
    issues.push({ path: '/data', message: 'data must be an object or null.' });
  // UTC when it has no offset (Date.parse would take the process zone).
  if (input.at !== undefined && (typeof input.at !== 'string' || parseIsoInZone(input.at, 'UTC') === undefined)) {
    issues.push({ path: '/at', message: 'at must be an ISO 8601 date-time.' });
  }
  return issues;
}

/** The entry as the API shows it: the storage fields left out. */
export function publicEntry(e: StoredActivity): AlertActivityEntry {
  return { at: e.at, kind: e.kind, actor: e.actor, visibility: e.visibility, source: e.source, data: e.data };
}
