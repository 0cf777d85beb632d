import { err, ok, type Result } from 'neverthrow';
import type { Issue } from './errors';
import { isId } from './ids';
import { isTimeZone } from './time';

/** Checks one value; returns the problem in words, or undefined when the value is fine. */
export type Check = (value: unknown) => string | undefined;

/** A plain JSON object (not an array, not null). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export const checks = {
  text:
    (max: number, { required = false } = {}): Check =>
    (v) =>
      typeof v === 'string' && v.length <= max && (!required || v.trim() !== '')
        ? undefined
        : `must be a ${required ? 'non-empty ' : ''}string of at most ${max} characters`,
  boolean: (): Check => (v) => (typeof v === 'boolean' ? undefined : 'must be true or false'),
  id: (): Check => (v) => (isId(v) ? undefined : 'must be a 24-character hexadecimal ID'),
  timeZone: (): Check => (v) => (isTimeZone(v) ? undefined : 'must be an IANA time zone such as America/New_York'),
  url: (): Check => (v) => {
    if (typeof v !== 'string' || v.length > 2048) return 'must be an http or https URL';
    try {
      const url = new URL(v);
      return url.protocol === 'http:' || url.protocol === 'https:' ? undefined : 'must be an http or https URL';
    } catch {
      return 'must be an http or https URL';
    }
  },
  pattern:
    (re: RegExp, describe: string): Check =>
    (v) =>
      typeof v === 'string' && re.test(v) ? undefined : `must be ${describe}`,
  oneOf:
    (values: readonly unknown[]): Check =>
    (v) =>
      values.includes(v)
        ? undefined
        : `must be one of ${values.map((x) => (x === null ? 'null' : String(x))).join(', ')}`,
  nullable:
    (inner: Check): Check =>
    (v) =>
      v === null ? undefined : inner(v),
  arrayOf:
    (inner: Check, { max = 1000, unique = false } = {}): Check =>
    (v) => {
      if (!Array.isArray(v) || v.length > max) return `must be an array of at most ${max} items`;
      for (const [i, item] of v.entries()) {
        const problem = inner(item);
        if (problem) return `item ${i} ${problem}`;
      }
      if (unique && new Set(v).size !== v.length) return 'must not repeat an item';
      return undefined;
    },
} as const;

/**
 * Validates the writable fields of a request body against a table of checks.
 * Properties outside the table (read-only or unknown) are ignored; `required`
 * names the fields that must be present.
 */
export function validateFields<T extends object>(
  body: unknown,
  table: { readonly [K in keyof T]-?: Check },
  required: readonly (keyof T & string)[] = [],
): Result<Partial<T>, Issue[]> {
  if (!isRecord(body)) return err([{ path: '', message: 'The body must be a JSON object.' }]);
  const issues: Issue[] = [];
  const out: Partial<T> = {};
  for (const key of Object.keys(table) as (keyof T & string)[]) {
    if (!Object.hasOwn(body, key)) {
      if (required.includes(key)) issues.push({ path: `/${key}`, message: `${key} is required.` });
      continue;
    }
    const value = body[key];
    const problem = table[key](value);
    if (problem) issues.push({ path: `/${key}`, message: `${key} ${problem}.` });
    else out[key] = value as T[keyof T & string];
  }
  return issues.length > 0 ? err(issues) : ok(out);
}
