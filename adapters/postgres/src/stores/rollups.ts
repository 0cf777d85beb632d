import type { RollupRow, RollupStore } from '@leadroute/core';
import { directWriter, unnestOf, type WriteKind, type Writer } from '../batch/writer';
import { type Queryable, query } from '../query';
import { iso, qualified } from '../sql';

/** What a rollup cell is counted by, beside its account and hour (and, for field rollups, the field's value). */
export const ROLLUP_DIMENSIONS = [
  'flow_id',
  'source_id',
  'recipient_id',
  'step_id',
  'kind',
  'outcome',
  'category',
  'stage',
] as const;
/** What `add` sums into a cell. */
export const ROLLUP_SUMS = ['count', 'cost', 'revenue', 'purchase_price'] as const;

/** A rollup cell's columns: the primary key (the columns a batch's rows of one cell share). */
export const ROLLUP_CELL = ['account_id', 'hour', ...ROLLUP_DIMENSIONS] as const;
const COLUMNS = [...ROLLUP_CELL, ...ROLLUP_SUMS];

/**
 * The statement that adds rows to their cells: every column as one array parameter (`cellTypes`
 * for the cell's, in order, then the sums'), rows of one cell summed first, cells in key order
 * (so concurrent writers lock them alike), each added to its stored sums. `derived`: a cell
 * column computed from an input column (its parameter comes in as `input`, the cell holds
 * `expression` of it), as field cells per day take their day from the rows' hours.
 */
export function cellUpsert(
  table: string,
  cell: readonly string[],
  cellTypes: readonly string[],
  derived?: { readonly column: string; readonly input: string; readonly expression: string },
): string {
  const inputs = [...cell, ...ROLLUP_SUMS].map((c) => (c === derived?.column ? derived.input : c));
  const keys = cell.map((c) => (c === derived?.column ? derived.expression : c)).join(', ');
  return `INSERT INTO ${table} AS r (${[...cell, ...ROLLUP_SUMS].join(', ')})
         SELECT ${keys}, ${ROLLUP_SUMS.map((sum) => `sum(${sum})`).join(', ')}
         FROM ${unnestOf([...cellTypes, 'bigint', 'float8', 'float8', 'float8'])} AS t (${inputs.join(', ')})
         GROUP BY ${keys}
         ORDER BY ${keys}
         ON CONFLICT (${cell.join(', ')}) DO UPDATE SET
           ${ROLLUP_SUMS.map((sum) => `${sum} = r.${sum} + EXCLUDED.${sum}`).join(', ')}`;
}

type RollupDbRow = Omit<RollupRow, 'hour' | 'count'> & { hour: Date | string; count: string | number };

const toRow = (row: RollupDbRow): RollupRow => ({ ...row, hour: iso(row.hour), count: Number(row.count) });

/**
 * Adding rollup rows: the rows of every call in the batch in one `INSERT ... SELECT
 * FROM unnest(...) ON CONFLICT DO UPDATE` that adds to the stored sums. Rows for the
 * same cell are summed first (ON CONFLICT cannot touch one row twice in a
 * statement), and cells go in key order, so batches of several processes lock
 * cells in the same order.
 */
export const addRollups = (table: string): WriteKind<readonly RollupRow[], undefined> => ({
  what: 'add rollups',
  plan: (calls) => {
    const columns: unknown[][] = COLUMNS.map(() => []);
    for (const rows of calls)
      for (const row of rows) for (const [i, column] of COLUMNS.entries()) columns[i]?.push(row[column]);
    return {
      statements: [
        {
          text: cellUpsert(table, ROLLUP_CELL, ['text', 'timestamptz', ...ROLLUP_DIMENSIONS.map(() => 'text')]),
          values: columns,
          prepared: true,
        },
      ],
      answers: () => calls.map(() => undefined),
    };
  },
});

/**
 * Statistics counters per cell. `add` is one upsert (see above), so concurrent adds
 * to one cell never lose a count; it goes through `writer`, which may send several
 * callers' rows in one statement.
 */
export function rollupStore(
  db: Queryable,
  schema: string,
  writer: Writer = directWriter(db),
  reads: Queryable = db,
): RollupStore {
  const table = qualified(schema, 'rollups');
  const select = `SELECT ${ROLLUP_CELL.join(', ')}, count, cost, revenue, purchase_price FROM ${table}`;
  const add = addRollups(table);
  return {
    add: (rows) => writer.write(add, rows),
    query: (q) =>
      query<RollupDbRow>(
        reads,
        'query rollups',
        `${select} WHERE account_id = $1 AND hour >= $2 AND hour < $3
           AND ($4::text[] IS NULL OR kind = ANY($4)) AND ($5::text IS NULL OR flow_id = $5)
         ORDER BY hour, ${ROLLUP_CELL.slice(2).join(', ')}`,
        [q.account_id, q.from, q.to, q.kinds ? [...q.kinds] : null, q.flow_id ?? null],
      ).map(({ rows }) => rows.map(toRow)),
    activeAccounts: (from, to) =>
      query<{ account_id: string }>(
        reads,
        'list active accounts',
        `SELECT DISTINCT account_id FROM ${table} WHERE hour >= $1 AND hour < $2 ORDER BY account_id`,
        [from, to],
      ).map(({ rows }) => rows.map((row) => row.account_id)),
  };
}
