/** The schema the adapter uses when none is given. */
export const DEFAULT_SCHEMA = 'public';

/**
 * Quotes an identifier for SQL text (`my"schema` → `"my""schema"`). Schema names
 * cannot be bound as parameters, so they are quoted instead; any name is then safe.
 */
export function quoteIdent(name: string): string {
  if (name.length === 0 || name.includes('\u0000')) {
    throw new TypeError(`[leadroute] [postgres] invalid identifier ${JSON.stringify(name)}.`);
  }
  return `"${name.replaceAll('"', '""')}"`;
}

/** A table name qualified by its schema, ready for SQL text: `"public"."accounts"`. */
export function qualified(schema: string, table: string): string {
  return `${quoteIdent(schema)}.${quoteIdent(table)}`;
}

/** Placeholders `$from, $from+1, ...` for `count` parameters. */
export function placeholders(count: number, from = 1): string {
  return Array.from({ length: count }, (_, i) => `$${from + i}`).join(', ');
}

/**
 * SQL turning a parameter of epoch milliseconds into a timestamptz (the ports that
 * count time in milliseconds: spool, jobs). Exact: timestamptz keeps microseconds.
 */
export const msToTimestamp = (param: string): string => `to_timestamp(${param}::float8 / 1000)`;

/** SQL reading a timestamptz column back as epoch milliseconds (a float8, so `pg` answers a number). */
export const timestampToMs = (column: string): string => `round(extract(epoch FROM ${column}) * 1000)::float8`;

/** A timestamptz as the ISO 8601 UTC text the ports use; `pg` hands back a Date unless told otherwise. */
export function iso(value: Date | string): string {
  return (value instanceof Date ? value : new Date(value)).toISOString();
}

/** An optional timestamptz as ISO text or null. */
export function isoOrNull(value: Date | string | null): string | null {
  return value === null ? null : iso(value);
}

/** A jsonb value: `pg` parses it, unless the host installed a type parser that keeps text. */
export function json<T>(value: T | string): T {
  return typeof value === 'string' ? (JSON.parse(value) as T) : value;
}

/** The one key of a document {@link toJsonb} had to wrap. */
const WRAPPED = '$leadroute:json';

/**
 * JSON text that jsonb refuses: a NUL (`\u0000`) or a lone surrogate, which JSON
 * allows and lead data from outside can carry. (A false positive on a literal
 * backslash sequence only costs a wrap.)
 */
const JSONB_REFUSES = /\\u0000|\\ud[89a-f]/i;

const isWrapped = (value: unknown): value is Record<typeof WRAPPED, string> =>
  typeof value === 'object' &&
  value !== null &&
  !Array.isArray(value) &&
  Object.keys(value).length === 1 &&
  typeof (value as Record<string, unknown>)[WRAPPED] === 'string';

/**
 * A value as text for a `$n::jsonb` parameter. A value jsonb cannot hold as is is
 * stored as `{"$leadroute:json": "<its JSON text>"}` (the escapes are then plain
 * characters of a string), and so is a value that already looks like that wrapper,
 * so {@link fromJsonb} gives every value back exactly. What a store queries on lives
 * in ordinary columns, so a wrapped body is only ever read whole.
 */
export function toJsonb(value: unknown): string {
  const text = JSON.stringify(value);
  return JSONB_REFUSES.test(text) || isWrapped(value) ? JSON.stringify({ [WRAPPED]: text }) : text;
}

/**
 * What {@link toJsonb} stored, as the value it was given. For an object or array
 * column as `pg` parses it; a column that can hold a bare JSON string must be
 * selected as `::text` and read with {@link fromJsonbText}, since a string here is
 * taken for unparsed JSON text.
 */
export function fromJsonb<T>(value: T | string): T {
  const parsed = json<unknown>(value);
  return (isWrapped(parsed) ? JSON.parse(parsed[WRAPPED]) : parsed) as T;
}

/** What {@link toJsonb} stored, from the column selected as `::text`. */
export function fromJsonbText<T>(text: string): T {
  const parsed = JSON.parse(text) as unknown;
  return (isWrapped(parsed) ? JSON.parse(parsed[WRAPPED]) : parsed) as T;
}

/**
 * An array for a jsonb column that statements append to (`col || jsonb_build_array(...)`):
 * each element encoded by {@link toJsonb} on its own, so the array itself is never wrapped.
 */
export function toJsonbArray(items: readonly unknown[]): string {
  return `[${items.map((item) => toJsonb(item)).join(',')}]`;
}

/** The elements {@link toJsonbArray} (and appends of {@link toJsonb} elements) stored, as given. */
export function fromJsonbArray<T>(value: unknown[] | string): T[] {
  return json<unknown[]>(value).map((item) => fromJsonb(item as T));
}

/**
 * The text PostgreSQL holds for a string `pg` sent: UTF-8 encoding turns a lone
 * surrogate into U+FFFD. What RETURNING answers is matched to its caller's input
 * through this, so the match is the one the database made.
 */
export const asStored = (text: string): string => Buffer.from(text, 'utf8').toString('utf8');
