import type { Static } from '@sinclair/typebox';
import { err, ok, type Result } from 'neverthrow';
import type { Issue } from '../errors';
import type { Id } from '../ids';
import { validator } from '../schemas/define';
import { EVENTS_DEFAULT_LIMIT, EventQueryChecked } from '../schemas/events';
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

export { EVENTS_DEFAULT_LIMIT, EVENTS_MAX_LIMIT } from '../schemas/events';
// after_id, before_id, limit and sort are checked by their schema; times, rules, field paths and types by code below.
const checkShape = validator(EventQueryChecked);
/** The order issues are told in: the order of the parameters. */
const ORDER = ['after_id', 'before_id', 'start', 'end', 'limit', 'sort', 'rules', 'include', 'exclude', 'type'];
const rank = (issue: Issue) => {
  const at = ORDER.indexOf(issue.path.split('/')[1] ?? '');
  return at === -1 ? ORDER.length : at;
};
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
  const instant = (name: string): number | undefined => {
    const v = input[name];
    if (v === undefined) return undefined;
    const t = parseInstant(v);
    if (t === undefined) bad(name, 'must be an ISO 8601 date-time or epoch milliseconds');
    return t;
  };
  // Query text and form bodies send a limit as digits, as queryValidator converts them.
  const limitText = typeof input.limit === 'string' && /^\d+$/.test(input.limit);
  const shape = checkShape({
    after_id: input.after_id,
    before_id: input.before_id,
    limit: limitText ? Number(input.limit) : input.limit,
    sort: input.sort,
  });
  if (shape.isErr()) issues.push(...shape.error);
  const {
    after_id: afterId,
    before_id: beforeId,
    limit = EVENTS_DEFAULT_LIMIT,
    sort = 'desc',
  } = shape.unwrapOr({} as Static<typeof EventQueryChecked>);
  const after_id = afterId?.toLowerCase();
  const before_id = beforeId?.toLowerCase();
  const start = instant('start');
  const end = instant('end');
  if (start !== undefined && end !== undefined && end < start) bad('end', 'must not be before start');

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

  if (issues.length > 0) return err(issues.sort((a, b) => rank(a) - rank(b)));
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
    sort,
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
