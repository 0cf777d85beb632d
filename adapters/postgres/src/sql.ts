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
