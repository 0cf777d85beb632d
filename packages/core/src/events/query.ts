import { err, ok, type Result } from 'neverthrow';
import type { Issue } from '../errors';
import { type Id, isId } from '../ids';
import { type RuleElement, validateRules } from '../rules';
import { parseIsoInZone } from '../time';

/** A parsed events query (GET /events parameters or a POST /events body). */
export interface EventQuery {
  readonly after_id?: Id;
  readonly before_id?: Id;
  readonly start?: number;
  readonly end?: number;
  readonly rules: readonly RuleElement[];
  readonly include?: readonly string[];
  readonly exclude?: readonly string[];
  readonly types?: readonly string[];
  readonly limit: number;
  readonly sort: 'asc' | 'desc';
}

export const EVENTS_DEFAULT_LIMIT = 100;
export const EVENTS_MAX_LIMIT = 1000;
const PATH = /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/;

/**
 * Reads a date-time given as ISO 8601 text (UTC without an offset, whatever the process zone) or epoch milliseconds.
 */
export function parseInstant(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  if (/^\d{10,}$/.test(value)) return Number(value);
  return parseIsoInZone(value, 'UTC');
}

function list(value: unknown): string[] | undefined {
  if (value === undefined) return undefined;
  const items = Array.isArray(value) ? value : [value];
  return items
    .flatMap((v) => (typeof v === 'string' ? v.split(',') : [String(v)]))
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/**
 * Validates an events query from either form: every problem is reported with the
 * name of the parameter (400).
 */
export function parseEventQuery(input: Record<string, unknown>): Result<EventQuery, Issue[]> {
  const issues: Issue[] = [];
  const bad = (name: string, message: string) => issues.push({ path: `/${name}`, message: `${name} ${message}.` });
  const id = (name: string): Id | undefined => {
    const v = input[name];
    if (v === undefined) return undefined;
    if (!isId(v)) return void bad(name, 'must be a 24-character hexadecimal ID');
    return v.toLowerCase();
  };
  const instant = (name: string): number | undefined => {
    const v = input[name];
    if (v === undefined) return undefined;
    const t = parseInstant(v);
    if (t === undefined) bad(name, 'must be an ISO 8601 date-time or epoch milliseconds');
    return t;
  };
  const after_id = id('after_id');
  const before_id = id('before_id');
  const start = instant('start');
  const end = instant('end');
  if (start !== undefined && end !== undefined && end < start) bad('end', 'must not be before start');

  let limit = EVENTS_DEFAULT_LIMIT;
  if (input.limit !== undefined) {
    const n =
      typeof input.limit === 'number'
        ? input.limit
        : /^\d+$/.test(String(input.limit))
          ? Number(input.limit)
          : Number.NaN;
    if (!Number.isInteger(n) || n < 1 || n > EVENTS_MAX_LIMIT)
      bad('limit', `must be an integer from 1 to ${EVENTS_MAX_LIMIT}`);
    else limit = n;
  }
  const sort = input.sort === undefined ? 'desc' : input.sort;
  if (sort !== 'asc' && sort !== 'desc') bad('sort', 'must be asc or desc');

  let rules: readonly RuleElement[] = [];
  if (input.rules !== undefined) {
    let parsed: unknown = input.rules;
    if (typeof parsed === 'string') {
      try {
        parsed = JSON.parse(parsed);
      } catch {
        parsed = undefined;
        bad('rules', 'must be a JSON array of rules');
      }
    }
    if (parsed !== undefined) {
      const valid = validateRules(parsed, { path: '/rules' });
      if (valid.isErr()) issues.push(...valid.error);
      else rules = valid.value;
    }
  }
  const include = list(input.include);
  const exclude = list(input.exclude);
  if (include && exclude) bad('include', 'and exclude cannot be used together');
  for (const [name, paths] of [
    ['include', include],
    ['exclude', exclude],
  ] as const) {
    if (paths?.some((p) => !PATH.test(p))) bad(name, 'must list dotted field paths such as vars.lead.email');
  }
  const types = list(input.type);
  if (types?.some((t) => !/^[a-z-]{1,40}$/.test(t))) bad('type', 'must name event types such as source or recipient');

  if (issues.length > 0) return err(issues);
  return ok({
    ...(after_id ? { after_id } : {}),
    ...(before_id ? { before_id } : {}),
    ...(start !== undefined ? { start } : {}),
    ...(end !== undefined ? { end } : {}),
    rules,
    ...(include ? { include } : {}),
    ...(exclude ? { exclude } : {}),
    ...(types && types.length > 0 ? { types } : {}),
    limit,
    sort: sort as 'asc' | 'desc',
  });
}

/** GET /events parameters as the object {@link parseEventQuery} reads; repeated parameters become arrays. */
export function queryObject(params: URLSearchParams): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of new Set(params.keys())) {
    const all = params.getAll(key);
    out[key] = all.length === 1 ? all[0] : all;
  }
  return out;
}
