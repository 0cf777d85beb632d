import { createHash } from 'node:crypto';
import { add } from 'date-fns/add';
import { okAsync, type ResultAsync } from 'neverthrow';
import type { DuplicateCheck } from '../domain/flows';
import type { LeadrouteError } from '../errors';
import type { CounterStore } from '../ports/counters';
import { normalOf } from '../rules';
import { isoTime } from '../time';

/** The reason a source is given for a lead its flow refuses as a duplicate. */
export const DUPLICATE_REASON = 'Duplicate lead';

/** What a duplicate check found, and the keys it now holds for this lead (released with `releaseCaps` if the lead is not accepted). */
export interface DuplicateVerdict {
  readonly duplicate: boolean;
  /** The fields (or field combination) that matched an earlier lead. */
  readonly matched: readonly string[];
  readonly claimed: readonly string[];
}

const NOT_CHECKED: DuplicateVerdict = { duplicate: false, matched: [], claimed: [] };

/** A field's value as compared: its normal form, text in lower case; undefined when blank. */
export function comparable(lead: Record<string, unknown>, field: string): string | undefined {
  const value = normalOf(lead[field]);
  if (value === undefined || value === null) return undefined;
  const text = (typeof value === 'string' ? value : JSON.stringify(value)).trim().toLowerCase();
  return text === '' ? undefined : text;
}

/**
 * The counter key of some fields' values in an account: a SHA-256 of the field names and
 * values, so the counters table holds no lead data.
 */
const keyOf = (accountId: string, fields: readonly string[], values: readonly string[]) =>
  `dup:${accountId}:${createHash('sha256')
    .update(JSON.stringify([fields, values]))
    .digest('base64url')}`;

/** The keys a lead claims, each with the fields it stands for: one for `all` (none if a field is blank), one per given field for `any`. */
function keysOf(check: DuplicateCheck, accountId: string, lead: Record<string, unknown>) {
  const fields = [...check.fields].sort();
  const values = fields.map((f) => comparable(lead, f));
  if (check.match === 'any')
    return fields.flatMap((f, i) => {
      const value = values[i];
      return value === undefined ? [] : [{ key: keyOf(accountId, [f], [value]), label: f }];
    });
  if (values.some((v) => v === undefined)) return [];
  return [{ key: keyOf(accountId, fields, values as string[]), label: fields.join('+') }];
}

/**
 * Checks a lead against the leads its account accepted within the window, atomically: each
 * key is claimed (`CounterStore.claim`), so of two identical leads submitted at once exactly
 * one finds its keys free. A lead without the fields is not checked.
 */
export function checkDuplicate(
  counters: CounterStore,
  check: DuplicateCheck | undefined,
  accountId: string,
  lead: Record<string, unknown>,
  now: number,
): ResultAsync<DuplicateVerdict, LeadrouteError> {
  if (check === undefined) return okAsync(NOT_CHECKED);
  const keys = keysOf(check, accountId, lead);
  const until = isoTime(add(now, { [check.duration_units]: check.duration }).getTime());
  return keys
    .reduce<ResultAsync<{ key: string; label: string; claimed: boolean }[], LeadrouteError>>(
      (acc, { key, label }) =>
        acc.andThen((done) =>
          counters.claim(key, until, isoTime(now)).map((claimed) => [...done, { key, label, claimed }]),
        ),
      okAsync([]),
    )
    .map((results) => ({
      duplicate: results.some((r) => !r.claimed),
      matched: results.filter((r) => !r.claimed).map((r) => r.label),
      claimed: results.filter((r) => r.claimed).map((r) => r.key),
    }));
}
