import { err, ok, type Result } from 'neverthrow';
import type { Issue } from '../errors';
import type { Id } from '../ids';
import { type RuleElement, validateRules } from '../rules';
import { queryValidator, validator } from '../schemas/define';
import { ExportCreateBody, EXPORTS_DEFAULT_LIMIT, ExportListQueryParams } from '../schemas/exports';
import { parseIsoInZone } from '../time';

export {
  EXPORT_MAX_FIELDS,
  EXPORT_MAX_RECIPIENTS,
  EXPORTS_DEFAULT_LIMIT,
  EXPORTS_MAX_LIMIT,
} from '../schemas/exports';

/** What `POST /exports` reads from its body; everything else is set by the service. */
export interface ExportRequest {
  readonly start: number;
  readonly end: number;
  readonly fields: readonly string[];
  readonly filter_rules: readonly RuleElement[];
  readonly email_to: readonly string[];
  readonly standard_dates: boolean;
}

const ISO_LIKE = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?)?(Z|[+-]\d{2}(:?\d{2})?)?$/i;

/**
 * An ISO 8601 date or date-time as epoch ms. Text without an offset is a wall time
 * in the account's zone (`2026-01-01` is that day's midnight there), so a range
 * reads as the account's users mean it; undefined when it is not a date.
 */
export function parseExportInstant(value: unknown, timeZone: string): number | undefined {
  if (typeof value !== 'string' || !ISO_LIKE.test(value.trim())) return undefined;
  const text = value.trim();
  return parseIsoInZone(text, timeZone);
}

const checkBody = validator(ExportCreateBody);

/**
 * Validates a `POST /exports` body; every problem is reported with its path (422). The schema
 * checks the shape; what it cannot say is checked here, on each property the schema accepted:
 * that the dates exist in the account's zone and end is after start, that no field is listed
 * twice, and the rules (`validateRules`).
 */
export function parseExportRequest(body: unknown, timeZone: string): Result<ExportRequest, Issue[]> {
  const checked = checkBody(body);
  const issues: Issue[] = checked.isErr() ? [...checked.error] : [];
  if (issues.some((i) => i.path === '')) return err(issues);
  const refused = (name: keyof ExportCreateBody) =>
    issues.some((i) => i.path === `/${name}` || i.path.startsWith(`/${name}/`));
  // Each property the schema did not refuse has its schema's type.
  const value = body as ExportCreateBody;
  const bad = (path: string, message: string) => issues.push({ path, message });

  const instant = (name: 'start' | 'end'): number | undefined => {
    if (refused(name)) return undefined;
    const t = parseExportInstant(value[name], timeZone);
    if (t === undefined) bad(`/${name}`, `${name} must be an ISO 8601 date-time such as 2026-01-15T00:00:00Z.`);
    return t;
  };
  const start = instant('start');
  const end = instant('end');
  if (start !== undefined && end !== undefined && end <= start)
    bad('/end', 'end must be after start (the range is start inclusive, end exclusive).');

  // Items the schema refused are named already; the others must each be listed once.
  const fields: string[] = [];
  if (!issues.some((i) => i.path === '/fields'))
    value.fields.forEach((field, i) => {
      if (issues.some((issue) => issue.path === `/fields/${i}`)) return;
      if (fields.includes(field.trim())) bad(`/fields/${i}`, `Field ${field.trim()} is listed twice.`);
      else fields.push(field.trim());
    });

  let filter_rules: RuleElement[] = [];
  if (value.filter_rules !== undefined && value.filter_rules !== null) {
    const valid = validateRules(value.filter_rules, { path: '/filter_rules' });
    if (valid.isErr()) issues.push(...valid.error);
    else filter_rules = valid.value;
  }

  const email_to = refused('email_to') ? [] : [...new Set((value.email_to ?? []).map((a) => a.trim()))];

  if (issues.length > 0) return err(issues);
  return ok({
    start: start as number,
    end: end as number,
    fields,
    filter_rules,
    email_to,
    standard_dates: value.standard_dates === true,
  });
}

/** A parsed `GET /exports` query. */
export interface ExportListParams {
  readonly before_id?: Id;
  readonly after_id?: Id;
  readonly limit: number;
}

const checkList = queryValidator(ExportListQueryParams, 'is not an exports parameter');

/** Validates `GET /exports` parameters (400 on any problem); parameters it does not know are ignored. */
export function parseExportList(query: URLSearchParams): Result<ExportListParams, Issue[]> {
  const issues: Issue[] = [];
  const known = new URLSearchParams();
  for (const key of new Set(query.keys())) {
    if (!Object.hasOwn(ExportListQueryParams.properties, key)) continue;
    const values = query.getAll(key);
    if (values.length > 1) issues.push({ path: `/${key}`, message: `${key} may be given once.` });
    else known.set(key, values[0] as string);
  }
  const checked = checkList(known);
  if (checked.isErr()) issues.push(...checked.error);
  if (issues.length > 0 || checked.isErr()) return err(issues);
  const { before_id, after_id, limit = EXPORTS_DEFAULT_LIMIT } = checked.value;
  return ok({
    limit,
    ...(before_id !== undefined ? { before_id: before_id.toLowerCase() } : {}),
    ...(after_id !== undefined ? { after_id: after_id.toLowerCase() } : {}),
  });
}
