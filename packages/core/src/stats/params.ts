import { err, ok, type Result } from 'neverthrow';
import type { Issue } from '../errors';
import type { RollupKind } from '../ports/rollups';
import { type RuleElement, validateRules } from '../rules';
import { MAX_STATS_RANGE_DAYS, type STATS_TYPES, StatsQueryParams } from '../schemas/queries';
import { isTimeZone, parseIsoInZone } from '../time';
import { INTERVALS, type StatsInterval, today } from './buckets';

/** Group keys rollups hold; any other group_by is a lead field and is read from events. */
export const ROLLUP_KEYS = ['flow_id', 'source_id', 'recipient_id', 'time'] as const;

/** A validated GET /events/stats query. */
export interface StatsQuery {
  /** The kinds counted (from `type`). */
  readonly kinds: ReadonlySet<RollupKind>;
  /** Group keys in the order asked; `time` when an interval is given. */
  readonly groupBy: readonly string[];
  readonly interval?: StatsInterval;
  readonly zone: string;
  /** Range of event start times, [start, end) in epoch ms. */
  readonly start: number;
  readonly end: number;
  readonly rules: readonly RuleElement[];
}

/**
 * `type` values: the event types (feedback types stand for both their kinds) and
 * the statistics kinds themselves; `all` counts everything. Exactly the schema's
 * STATS_TYPES, which the OpenAPI document lists (checked by `satisfies`).
 */
const TYPES: Readonly<Record<string, readonly RollupKind[]>> = {
  source: ['source'],
  recipient: ['recipient'],
  ping: ['ping'],
  'feedback-received': ['return-received', 'conversion-received'],
  'feedback-sent': ['return-sent', 'conversion-sent'],
  'return-received': ['return-received'],
  'return-sent': ['return-sent'],
  'conversion-received': ['conversion-received'],
  'conversion-sent': ['conversion-sent'],
  all: ['source', 'recipient', 'ping', 'return-received', 'return-sent', 'conversion-received', 'conversion-sent'],
} satisfies Record<(typeof STATS_TYPES)[number], readonly RollupKind[]>;
const PARAMS = new Set(Object.keys(StatsQueryParams.properties));
const FIELD = /^[A-Za-z0-9_-]{1,64}(\.[A-Za-z0-9_-]{1,64}){0,5}$/;
const MAX_GROUPS = 6;

export { MAX_STATS_RANGE_DAYS };
const MAX_RANGE_MS = MAX_STATS_RANGE_DAYS * 86_400_000;

/**
 * Reads an instant: epoch ms, ISO 8601 with an offset, or a date or date-time
 * without one, read in the requested zone (`start=2026-03-08` is midnight there).
 */
function instant(value: string, zone: string): number | undefined {
  if (/^\d{10,}$/.test(value)) return Number(value);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value)) return undefined;
  return parseIsoInZone(value, zone);
}

/** Validates the parameters of GET /events/stats, naming every bad one (400). */
export function parseStatsQuery(
  params: URLSearchParams,
  accountZone: string,
  now: number,
): Result<StatsQuery, Issue[]> {
  const issues: Issue[] = [];
  const bad = (name: string, message: string) => issues.push({ path: `/${name}`, message: `${name} ${message}.` });
  for (const key of new Set(params.keys()))
    if (!PARAMS.has(key)) bad(key, `is not a parameter of event statistics (use ${[...PARAMS].join(', ')})`);
  const single = (name: string): string | undefined => {
    const all = params.getAll(name);
    if (all.length > 1) bad(name, 'must be given once');
    return all[0];
  };
  const many = (name: string): string[] =>
    params
      .getAll(name)
      .flatMap((v) => v.split(','))
      .map((v) => v.trim())
      .filter((v) => v !== '');

  const kinds = new Set<RollupKind>();
  const types = many('type');
  for (const t of types.length > 0 ? types : ['source']) {
    const k = TYPES[t];
    if (k) for (const kind of k) kinds.add(kind);
    else bad('type', `must be one of ${Object.keys(TYPES).join(', ')}`);
  }

  const zone = single('timezone') ?? accountZone;
  if (!isTimeZone(zone)) bad('timezone', 'must be an IANA time zone such as America/New_York');
  const safeZone = isTimeZone(zone) ? zone : 'UTC';

  const intervalText = single('interval');
  let interval: StatsInterval | undefined;
  if (intervalText !== undefined) {
    if ((INTERVALS as readonly string[]).includes(intervalText)) interval = intervalText as StatsInterval;
    else bad('interval', `must be one of ${INTERVALS.join(', ')}`);
  }
  const groupBy = [...new Set(many('group_by'))];
  for (const g of groupBy)
    if (!FIELD.test(g))
      bad(
        'group_by',
        `must name flow_id, source_id, recipient_id, time or a lead field such as state (got ${JSON.stringify(g.slice(0, 80))})`,
      );
  if (groupBy.length > MAX_GROUPS) bad('group_by', `may be given at most ${MAX_GROUPS} times`);
  if (interval && !groupBy.includes('time')) groupBy.push('time');
  if (!interval && groupBy.includes('time')) interval = 'daily';

  const day = today(now, safeZone);
  const startText = single('start');
  const endText = single('end');
  const start = startText === undefined ? day.start : instant(startText, safeZone);
  const end =
    endText === undefined
      ? startText === undefined
        ? day.end
        : Math.max(day.end, (start ?? 0) + 1)
      : instant(endText, safeZone);
  if (start === undefined) bad('start', 'must be an ISO 8601 date or date-time, or epoch milliseconds');
  if (end === undefined) bad('end', 'must be an ISO 8601 date or date-time, or epoch milliseconds');
  if (start !== undefined && end !== undefined && end <= start) bad('end', 'must be after start');
  else if (start !== undefined && end !== undefined && end - start > MAX_RANGE_MS) {
    if (endText === undefined)
      bad('start', `must be at most ${MAX_STATS_RANGE_DAYS} days before the end of today when end is not given`);
    else bad('end', `must be at most ${MAX_STATS_RANGE_DAYS} days after start (events are kept 90 days)`);
  }

  const rules: RuleElement[] = [];
  for (const [i, text] of params.getAll('rule').entries()) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      bad('rule', 'must be a JSON rule such as {"lhv":"lead.state","op":"is equal to","rhv":"TX"}');
      continue;
    }
    const valid = validateRules(Array.isArray(parsed) ? parsed : [parsed], { path: `/rule/${i}` });
    if (valid.isErr()) issues.push(...valid.error);
    else rules.push(...valid.value);
  }

  if (issues.length > 0 || start === undefined || end === undefined) return err(issues);
  return ok({ kinds, groupBy, ...(interval ? { interval } : {}), zone: safeZone, start, end, rules });
}
