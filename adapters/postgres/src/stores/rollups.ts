import type { RollupRow, RollupStore } from '@leadroute/core';
import { type Queryable, query } from '../query';
import { iso, qualified } from '../sql';

/** The cell's columns: the primary key, what `add` sums into. */
const CELL = ['account_id', 'hour', 'flow_id', 'source_id', 'recipient_id', 'step_id', 'kind', 'outcome', 'category', 'stage'] as const;
const SUMS = ['count', 'cost', 'revenue', 'purchase_price'] as const;
const COLUMNS = [...CELL, ...SUMS];
/** Array types of the unnest parameters, in {@link COLUMNS} order. */
const TYPES = ['text', 'timestamptz', 'text', 'text', 'text', 'text', 'text', 'text', 'text', 'text', 'bigint', 'float8', 'float8', 'float8'];

type RollupDbRow = Omit<RollupRow, 'hour' | 'count'> & { hour: Date | string; count: string | number };

const toRow = (row: RollupDbRow): RollupRow => ({ ...row, hour: iso(row.hour), count: Number(row.count) });

/**
 * Statistics counters per cell. `add` is one `INSERT ... SELECT FROM unnest(...)
 * ON CONFLICT DO UPDATE` that adds to the stored sums, so concurrent adds to one
 * cell never lose a count. Rows for the same cell within one call are summed first:
 * ON CONFLICT cannot touch one row twice in a statement.
 */
export function rollupStore(db: Queryable, schema: string): RollupStore {
  const table = qualified(schema, 'rollups');
  const select = `SELECT ${CELL.join(', ')}, count, cost, revenue, purchase_price FROM ${table}`;
  return {
    add: (rows) => {
      const columns: unknown[][] = COLUMNS.map(() => []);
      for (const row of rows) COLUMNS.forEach((column, i) => columns[i]?.push(row[column]));
      return query(
        db,
        'add rollups',
        `INSERT INTO ${table} AS r (${COLUMNS.join(', ')})
         SELECT ${CELL.join(', ')}, sum(count), sum(cost), sum(revenue), sum(purchase_price)
         FROM unnest(${TYPES.map((type, i) => `$${i + 1}::${type}[]`).join(', ')}) AS t (${COLUMNS.join(', ')})
         GROUP BY ${CELL.join(', ')}
         ON CONFLICT (${CELL.join(', ')}) DO UPDATE SET
           ${SUMS.map((sum) => `${sum} = r.${sum} + EXCLUDED.${sum}`).join(', ')}`,
        columns,
      ).map(() => undefined);
    },
    query: (q) =>
      query<RollupDbRow>(
        db,
        'query rollups',
        `${select} WHERE account_id = $1 AND hour >= $2 AND hour < $3
           AND ($4::text[] IS NULL OR kind = ANY($4)) AND ($5::text IS NULL OR flow_id = $5)
         ORDER BY hour, ${CELL.slice(2).join(', ')}`,
        [q.account_id, q.from, q.to, q.kinds ? [...q.kinds] : null, q.flow_id ?? null],
      ).map(({ rows }) => rows.map(toRow)),
    activeAccounts: (from, to) =>
      query<{ account_id: string }>(db, 'list active accounts', `SELECT DISTINCT account_id FROM ${table} WHERE hour >= $1 AND hour < $2 ORDER BY account_id`, [
        from,
        to,
      ]).map(({ rows }) => rows.map((row) => row.account_id)),
  };
}
