import { err, ok, okAsync, type Result, type ResultAsync } from 'neverthrow';
import type { StoredEvent } from '../domain/events';
import type { Issue } from '../errors';
import type { FieldRollupRow, TrackedField } from '../ports/field-rollups';
import type { RollupRow } from '../ports/rollups';
import type { Storage } from '../ports/storage';
import type { StoreError } from '../ports/store-error';
import { ROLLUP_KEYS } from './params';
import { mapAsync } from '../results';

/** The lead fields every account rolls up until it sets its own: counted from the start. */
export const DEFAULT_ROLLUP_FIELDS: readonly string[] = ['state'];
/** At most this many rolled-up fields per account: each multiplies the cells an event adds. */
export const MAX_ROLLUP_FIELDS = 10;
const FIELD = /^[A-Za-z0-9_-]{1,64}(\.[A-Za-z0-9_-]{1,64}){0,5}$/;
const HOUR = 3_600_000;

const text = (v: unknown): string | null =>
  v === undefined || v === null
    ? null
    : typeof v === 'string'
      ? v
      : typeof v === 'number' || typeof v === 'boolean'
        ? String(v)
        : JSON.stringify(v);

const at = (o: unknown, key: string): unknown =>
  o && typeof o === 'object' ? (o as Record<string, unknown>)[key] : undefined;

/**
 * A lead field of an event: a dotted path on its vars (`lead.state`), or a bare name among the lead's and appended
 * fields.
 */
export function fieldValue(event: StoredEvent, path: string): string | null {
  if (path.includes('.')) return text(path.split('.').reduce<unknown>((o, k) => at(o, k), event.vars));
  return text(at(event.vars.lead, path) ?? at(event.vars.appended, path) ?? at(event.appended, path));
}

/** The account's rolled-up fields: those it set, else the defaults (counted from the start). */
export function trackedFields(storage: Storage, accountId: string): ResultAsync<readonly TrackedField[], StoreError> {
  if (!storage.fieldRollups) return okAsync([]);
  return mapAsync(
    storage.fieldRollups.fields(accountId),
    (set) => set ?? DEFAULT_ROLLUP_FIELDS.map((field) => ({ field, since: 0 })),
  );
}

/** The field rows of an event's rollup rows: one per row and field, with the event's value of the field. */
export function fieldRows(
  event: StoredEvent,
  rows: readonly RollupRow[],
  fields: readonly TrackedField[],
): FieldRollupRow[] {
  const out: FieldRollupRow[] = [];
  for (const { field } of fields) {
    const value = fieldValue(event, field);
    for (const row of rows) out.push({ ...row, field, value });
  }
  return out;
}

/** Validates a list of fields to roll up: lead field names as `group_by` takes them, no rollup keys, no repeats. */
export function validateRollupFields(input: unknown): Result<string[], Issue[]> {
  if (!Array.isArray(input)) return err([{ path: '/fields', message: 'fields must be an array of lead field names.' }]);
  const issues: Issue[] = [];
  if (input.length > MAX_ROLLUP_FIELDS)
    issues.push({ path: '/fields', message: `At most ${MAX_ROLLUP_FIELDS} fields can be rolled up.` });
  input.forEach((f, i) => {
    if (typeof f !== 'string' || !FIELD.test(f))
      issues.push({ path: `/fields/${i}`, message: 'A field is a lead field name such as state or lead.state.' });
    else if ((ROLLUP_KEYS as readonly string[]).includes(f))
      issues.push({ path: `/fields/${i}`, message: `${f} is always rolled up; it is not a lead field.` });
    else if (input.indexOf(f) !== i) issues.push({ path: `/fields/${i}`, message: `${f} is listed twice.` });
  });
  return issues.length > 0 ? err(issues) : ok(input as string[]);
}

/**
 * The tracked fields after setting `fields` at `now`: a field kept keeps its start; a new one starts at the next
 * hour, the first whose cells are sure to hold every event of it.
 */
export function nextTracked(prior: readonly TrackedField[], fields: readonly string[], now: number): TrackedField[] {
  const next = Math.floor(now / HOUR) * HOUR + HOUR;
  return fields.map((field) => prior.find((t) => t.field === field) ?? { field, since: next });
}
