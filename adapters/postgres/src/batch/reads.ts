import type { StoreError } from '@leadroute/core';
import { err, ok, type Result, ResultAsync } from 'neverthrow';
import type { QueryResultRow } from 'pg';
import { attempt, type Queryable, toStoreError } from '../query';
import { asStored } from '../sql';
import type { Statement } from './writer';

/**
 * The next turn of the event loop, taken when this module loads: a host's fake timers
 * (installed later, in its tests) must not hold back writes and reads to a real database.
 */
const nextTurn = setImmediate;

/** A lookup by primary key that one statement can make for many keys at once. */
export interface ReadKind<Row extends QueryResultRow> {
  /** The operation in error messages (`get entity`). */
  readonly what: string;
  /** One statement answering the rows of these keys (each asked once), in any order. */
  statement(ids: readonly string[]): Statement;
  /** The key a row answers. */
  id(row: Row): string;
}

/** Where stores send their lookups by primary key. */
export interface Reader {
  get<Row extends QueryResultRow>(kind: ReadKind<Row>, id: string): ResultAsync<Row | undefined, StoreError>;
}

/** A reader making each lookup on its own, straight away. */
export function directReader(db: Queryable): Reader {
  return {
    get: <Row extends QueryResultRow>(kind: ReadKind<Row>, id: string) =>
      attempt(kind.what, async () => {
        const statement = kind.statement([id]);
        const { rows } = await db.query<Row>(statement.text, statement.values as unknown[]);
        return rows.find((row) => kind.id(row) === asStored(id));
      }),
  };
}

interface Waiting {
  readonly id: string;
  readonly settle: (result: Result<QueryResultRow | undefined, StoreError>) => void;
}

/**
 * A reader that gathers the lookups of one kind made in the same turn of the event
 * loop into one `WHERE id = ANY(...)` statement (callers resumed together, as after a
 * group commit, ask together). A key asked twice is read once, and each later caller
 * gets a copy of the row, never an object another caller holds. When the statement
 * fails, each key is looked up alone, so one caller's bad key fails only that caller.
 */
export function batchedReader(db: Queryable): Reader {
  const waiting = new Map<ReadKind<QueryResultRow>, Waiting[]>();

  const lookUp = async (kind: ReadKind<QueryResultRow>, batch: readonly Waiting[]): Promise<void> => {
    // Keys as the database compares them: two that UTF-8 makes one are asked once.
    const ids = [...new Set(batch.map((w) => asStored(w.id)))];
    let rows: QueryResultRow[];
    try {
      const statement = kind.statement(ids);
      rows = (await db.query(statement.text, statement.values as unknown[])).rows;
    } catch (error) {
      if (ids.length > 1) {
        await Promise.all(
          ids.map((id) =>
            lookUp(
              kind,
              batch.filter((w) => asStored(w.id) === id),
            ),
          ),
        );
        return;
      }
      for (const w of batch) w.settle(err(toStoreError(kind.what, error)));
      return;
    }
    const byId = new Map(rows.map((row) => [kind.id(row), row]));
    const handed = new Set<string>();
    for (const w of batch) {
      const id = asStored(w.id);
      const row = byId.get(id);
      if (row && handed.has(id)) {
        w.settle(ok(structuredClone(row)));
      } else {
        handed.add(id);
        w.settle(ok(row));
      }
    }
  };

  const flush = (kind: ReadKind<QueryResultRow>) => {
    const batch = waiting.get(kind) ?? [];
    waiting.delete(kind);
    lookUp(kind, batch).catch((error: unknown) => {
      for (const w of batch) w.settle(err(toStoreError(kind.what, error)));
    });
  };

  return {
    get: <Row extends QueryResultRow>(kind: ReadKind<Row>, id: string) =>
      new ResultAsync<Row | undefined, StoreError>(
        new Promise((settle) => {
          const key = kind as unknown as ReadKind<QueryResultRow>;
          const batch = waiting.get(key);
          const entry = { id, settle: settle as Waiting['settle'] };
          if (batch) batch.push(entry);
          else {
            waiting.set(key, [entry]);
            nextTurn(() => flush(key));
          }
        }),
      ),
  };
}
