import { err, ok, type Result } from 'neverthrow';
import type { Issue } from '../errors';
import { type Id, isId } from '../ids';
import { isEmailAddress, type RuleElement, validateRules } from '../rules';
import { parseIsoInZone } from '../time';
import { isRecord } from '../validation';

/** What `POST /exports` reads from its body; everything else is set by the service. */
export interface ExportRequest {
  readonly start: number;
  readonly end: number;
  readonly fields: readonly string[];
  readonly filter_rules: readonly RuleElement[];
  readonly email_to: readonly string[];
  readonly standard_dates: boolean;
}

/** Most columns an export may have. */
export const EXPORT_MAX_FIELDS = 500;
/** Most addresses `email_to` may hold. */
export const EXPORT_MAX_RECIPIENTS = 50;
/** `GET /exports` limit bounds (spec: 1..100) and the default page size (spec: not shown). */
export const EXPORTS_MAX_LIMIT = 100;
export const EXPORTS_DEFAULT_LIMIT = 25;

const FIELD_PATH = /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/;
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

/** Validates a `POST /exports` body; every problem is reported with its path (422). */
export function parseExportRequest(body: unknown, timeZone: string): Result<ExportRequest, Issue[]> {
  if (!isRecord(body)) return err([{ path: '', message: 'The body must be a JSON object.' }]);
  const issues: Issue[] = [];
  const bad = (path: string, message: string) => issues.push({ path, message });

  const instant = (name: 'start' | 'end'): number | undefined => {
    if (body[name] === undefined) return void bad(`/${name}`, `${name} is required.`);
    const t = parseExportInstant(body[name], timeZone);
    if (t === undefined) bad(`/${name}`, `${name} must be an ISO 8601 date-time such as 2026-01-15T00:00:00Z.`);
    return t;
  };
  const start = instant('start');
  const end = instant('end');
  if (start !== undefined && end !== undefined && end <= start)
    bad('/end', 'end must be after start (the range is start inclusive, end exclusive).');

  const fields: string[] = [];
  if (!Array.isArray(body.fields) || body.fields.length === 0 || body.fields.length > EXPORT_MAX_FIELDS) {
    bad('/fields', `fields must be a non-empty array of at most ${EXPORT_MAX_FIELDS} field paths.`);
  } else {
    body.fields.forEach((field: unknown, i) => {
      if (typeof field !== 'string' || !FIELD_PATH.test(field.trim()))
        bad(`/fields/${i}`, 'Each field must be a dotted path such as vars.lead.email or outcome.');
      else if (fields.includes(field.trim())) bad(`/fields/${i}`, `Field ${field.trim()} is listed twice.`);
      else fields.push(field.trim());
    });
  }

  let filter_rules: RuleElement[] = [];
  if (body.filter_rules !== undefined && body.filter_rules !== null) {
    const valid = validateRules(body.filter_rules, { path: '/filter_rules' });
    if (valid.isErr()) issues.push(...valid.error);
    else filter_rules = valid.value;
  }

  const email_to: string[] = [];
  if (body.email_to !== undefined && body.email_to !== null) {
    if (!Array.isArray(body.email_to) || body.email_to.length > EXPORT_MAX_RECIPIENTS) {
      bad('/email_to', `email_to must be an array of at most ${EXPORT_MAX_RECIPIENTS} e-mail addresses.`);
    } else {
      body.email_to.forEach((address: unknown, i) => {
        if (typeof address !== 'string' || !isEmailAddress(address.trim()))
          bad(`/email_to/${i}`, 'Each address must be an e-mail address.');
        else if (!email_to.includes(address.trim())) email_to.push(address.trim());
      });
    }
  }

  if (body.standard_dates !== undefined && body.standard_dates !== null && typeof body.standard_dates !== 'boolean')
    bad('/standard_dates', 'standard_dates must be true or false.');

  if (issues.length > 0) return err(issues);
  return ok({
    start: start as number,
    end: end as number,
    fields,
    filter_rules,
    email_to,
    standard_dates: body.standard_dates === true,
  });
}

/** A parsed `GET /exports` query. */
export interface ExportListParams {
  readonly before_id?: Id;
  readonly after_id?: Id;
  readonly limit: number;
}

/** Validates `GET /exports` parameters (400 on any problem). */
export function parseExportList(query: URLSearchParams): Result<ExportListParams, Issue[]> {
  const issues: Issue[] = [];
  const known = new Set(['before_id', 'after_id', 'limit']);
  const out: { before_id?: Id; after_id?: Id; limit: number } = { limit: EXPORTS_DEFAULT_LIMIT };
  for (const key of new Set(query.keys())) {
    const values = query.getAll(key);
    if (!known.has(key)) continue;
    if (values.length > 1) {
      issues.push({ path: `/${key}`, message: `${key} may be given once.` });
      continue;
    }
    const value = values[0] as string;
    if (key === 'limit') {
      const n = /^\d{1,4}$/.test(value) ? Number(value) : Number.NaN;
      if (!Number.isInteger(n) || n < 1 || n > EXPORTS_MAX_LIMIT)
        issues.push({ path: '/limit', message: `limit must be an integer from 1 to ${EXPORTS_MAX_LIMIT}.` });
      else out.limit = n;
    } else if (!isId(value)) issues.push({ path: `/${key}`, message: `${key} must be a 24-character hexadecimal ID.` });
    else out[key as 'before_id' | 'after_id'] = value.toLowerCase();
  }
  return issues.length > 0 ? err(issues) : ok(out);
}
