import type { StoreError } from '@leadroute/core';
import type { ResultAsync } from 'neverthrow';
import type { QueryResult } from 'pg';
import { attempt, type Queryable } from '../query';

/** One parameterised statement. */
export interface Statement {
  readonly text: string;
  readonly values: readonly unknown[];
  /**
   * The text is one of a few fixed texts (its rows go in array parameters, never in the text), so a connection may
   * keep it parsed and planned as a named prepared statement and send only the parameters next time.
   */
  readonly prepared?: boolean;
}

/**
 * An answer meaning "this input was not written with the others; write it alone":
 * for a write whose batched form only decides the common case (several increments
 * of one counter all fitting under its maximum). A plan of one input never answers it.
 */
export const WRITE_ALONE: unique symbol = Symbol('write alone');

/** The statements that write a set of inputs, and how each input's answer is read from their results. */
export interface Plan<Out> {
  readonly statements: readonly Statement[];
  /** One answer per input, in input order, from the statements' results (in statement order). */
  answers(results: readonly QueryResult[]): (Out | typeof WRITE_ALONE)[];
}

/**
 * A kind of write that several callers' inputs can share statements for: a
 * multi-row INSERT, one upsert over unnested arrays. `plan([input])` is the write
 * made alone; `plan(inputs)` the same writes made together, inputs in arrival order.
 */
export interface WriteKind<In, Out> {
  /**
   * The operation in error messages (`insert event` gives `[leadroute] [postgres]
   * insert event failed: ...`), and the kind's identity: the group commit keeps one
   * queue per name, so a batch holds writes of one kind only.
   */
  readonly what: string;
  plan(inputs: readonly In[]): Plan<Out>;
}

/** Where stores send the writes that can be batched. */
export interface Writer {
  write<In, Out>(kind: WriteKind<In, Out>, input: In): ResultAsync<Out, StoreError>;
}

/** Makes one write: its plan's statement(s) one after the other on `db`. */
async function writeAlone<Out>(db: Queryable, plan: Plan<Out>): Promise<Out> {
  const results: QueryResult[] = [];
  for (const statement of plan.statements) results.push(await db.query(statement.text, statement.values as unknown[]));
  const [answer] = plan.answers(results);
  if (answer === WRITE_ALONE) throw new Error('[leadroute] [postgres] a plan of one write left it unwritten.');
  return answer as Out;
}

/** A writer making each write on its own, straight away: a store used on a `pg.Client` or without a pool. */
export function directWriter(db: Queryable): Writer {
  return {
    write: <In, Out>(kind: WriteKind<In, Out>, input: In) =>
      attempt(kind.what, () => writeAlone(db, kind.plan([input]))),
  };
}

/**
 * Splits inputs into rounds in which no key occurs twice, the n-th occurrence of a key
 * in the n-th round: an upsert cannot touch one row twice in a statement, and a
 * key's writes stay in arrival order from round to round.
 */
export function distinctRounds<T>(inputs: readonly T[], key: (input: T) => string): { input: T; index: number }[][] {
  const rounds: { input: T; index: number }[][] = [];
  const seen = new Map<string, number>();
  inputs.forEach((input, index) => {
    const k = key(input);
    const round = seen.get(k) ?? 0;
    seen.set(k, round + 1);
    (rounds[round] ??= []).push({ input, index });
  });
  return rounds;
}

/** `($1, $2::jsonb), ($3, $4::jsonb)`: a VALUES list of `rows` rows, each column cast as `casts` says ('' for none). */
export function valuesList(rows: number, casts: readonly string[]): string {
  const width = casts.length;
  return Array.from(
    { length: rows },
    (_, r) => `(${casts.map((cast, c) => `$${r * width + c + 1}${cast ? `::${cast}` : ''}`).join(', ')})`,
  ).join(', ');
}

/**
 * `unnest($1::text[], $2::jsonb[], ...)`: one array parameter per column, typed as `types` says, numbered from `from`,
 * then the array expressions `also` as the last columns.
 * A statement whose rows come in arrays has one text whatever their number (see {@link Statement.prepared}).
 */
export function unnestOf(types: readonly string[], from = 1, also: readonly string[] = []): string {
  return `unnest(${[...types.map((type, i) => `$${from + i}::${type}[]`), ...also].join(', ')})`;
}

/**
 * `values` as the rows of {@link unnestOf}'s arrays: one array per column, `row(value)` giving each value's columns.
 */
export function columnsOf<T>(values: readonly T[], width: number, row: (value: T) => readonly unknown[]): unknown[][] {
  const columns: unknown[][] = Array.from({ length: width }, () => []);
  for (const value of values) {
    const cells = row(value);
    for (let i = 0; i < width; i++) (columns[i] as unknown[]).push(cells[i]);
  }
  return columns;
}

/**
 * Documents already encoded as jsonb text (by `toJsonb`) as one jsonb array, for a statement of one text that takes
 * row `n`'s document as `$k::jsonb -> n`: the server parses them once, as one parameter, and they need none of the
 * escaping an array parameter's elements would.
 */
export function jsonbArray(documents: readonly string[]): string {
  return `[${documents.join(',')}]`;
}

/** The texts {@link oneStatement} made of prepared parts, by their parts' texts and parameter counts. */
const combined = new Map<string, string>();

/** The most parameters one statement can carry (the protocol counts them in 16 bits). */
const MAX_PARAMETERS = 65_535;

/**
 * `text` with each parameter `$n` made `$(n + by)`: outside quoted identifiers (a schema name may hold `$1`) and
 * string literals, and not inside a word (`a$1` is an identifier).
 */
export function renumbered(text: string, by: number): string {
  return text.replace(/"(?:[^"]|"")*"|'(?:[^']|'')*'|[\w$]*\$(\d+)/g, (token, n?: string) =>
    n !== undefined && token === `$${n}` ? `$${Number(n) + by}` : token,
  );
}

/**
 * Writes that answer nothing (no RETURNING), each on a different table, as one statement: each a data-modifying
 * `WITH` query, parameters renumbered. One statement is one round trip and commits by itself, whole or not at all,
 * as the statements would in one transaction; every part sees the same snapshot, which is why no table may occur
 * twice (an upsert cannot touch a row twice in a statement). Undefined when they cannot be one: two statements on one
 * table, or too many parameters.
 */
export function oneStatement(parts: readonly (Statement & { readonly table: string })[]): Statement | undefined {
  const [only] = parts;
  if (!only) return undefined;
  if (parts.length === 1) return only;
  if (new Set(parts.map((part) => part.table)).size < parts.length) return undefined;
  if (parts.reduce((n, part) => n + part.values.length, 0) > MAX_PARAMETERS) return undefined;
  const prepared = parts.every((part) => part.prepared === true);
  // Prepared parts have fixed texts, so their combinations are few: each is renumbered once.
  const key = prepared ? parts.map((part) => `${part.values.length} ${part.text}`).join('\u0000') : '';
  let text = prepared ? combined.get(key) : undefined;
  if (text === undefined) {
    let offset = 0;
    const queries = parts.map((part, i) => {
      const at = offset;
      offset += part.values.length;
      return `w${i} AS (${renumbered(part.text, at)})`;
    });
    text = `WITH ${queries.join(', ')} SELECT`;
    if (prepared) combined.set(key, text);
  }
  return { text, values: parts.flatMap((part) => part.values), ...(prepared ? { prepared: true } : {}) };
}
