import type { FieldRollupRow, FieldRollupStore, TrackedField } from '@leadroute/core';
import { okAsync } from 'neverthrow';
import { directReader, type ReadKind, type Reader } from '../batch/reads';
import type { WriteKind } from '../batch/writer';
import { type Queryable, query } from '../query';
import { iso, qualified } from '../sql';
import { cellUpsert, ROLLUP_DIMENSIONS, ROLLUP_SUMS } from './rollups';

/** The cell's columns (the primary key), then the sums `add` adds to. */
const CELL = ['account_id', 'field', 'hour', 'has_value', 'value', ...ROLLUP_DIMENSIONS] as const;
const COLUMNS = [...CELL, ...ROLLUP_SUMS];
const CELL_TYPES = ['text', 'text', 'timestamptz', 'boolean', 'text', ...ROLLUP_DIMENSIONS.map(() => 'text')];

interface FieldRollupDbRow {
  readonly hour: Date | string;
  readonly has_value: boolean;
  readonly value: string;
  readonly flow_id: string;
  readonly source_id: string;
  readonly recipient_id: string;
  readonly step_id: string;
  readonly kind: FieldRollupRow['kind'];
  readonly outcome: string;
  readonly category: string;
  readonly stage: string;
  readonly count: string | number;
  readonly cost: number;
  readonly revenue: number;
  readonly purchase_price: number;
}

/**
 * Adding field rollup rows: the rows of every call in one `INSERT ... SELECT FROM unnest(...) ON CONFLICT DO UPDATE`
 * adding to the stored sums (rows of one cell summed first, cells in key order, as {@link cellUpsert} does). A lead's
 * rows go in its bundle ({@link commitLeadBundles}), in the transaction of its events.
 */
export const addFieldRollups = (table: string): WriteKind<readonly FieldRollupRow[], undefined> => ({
  what: 'add field rollups',
  plan: (calls) => {
    const columns: unknown[][] = COLUMNS.map(() => []);
    for (const rows of calls)
      for (const row of rows) {
        const values: unknown[] = [
          row.account_id,
          row.field,
          row.hour,
          row.value !== null,
          row.value ?? '',
          row.flow_id,
          row.source_id,
          row.recipient_id,
          row.step_id,
          row.kind,
          row.outcome,
          row.category,
          row.stage,
          row.count,
          row.cost,
          row.revenue,
          row.purchase_price,
        ];
        for (const [i, v] of values.entries()) columns[i]?.push(v);
      }
    return {
      statements: [{ text: cellUpsert(table, CELL, CELL_TYPES), values: columns, prepared: true }],
      answers: () => calls.map(() => undefined),
    };
  },
});

/**
 * Field rollup cells in `field_rollups` (migration 18): `add` is one `INSERT ... SELECT FROM unnest ... ON CONFLICT
 * DO UPDATE` adding to the sums (rows of one cell summed first, cells in key order); `query` walks the primary key
 * for one account, field and range of hours. The account's fields are one jsonb row in `rollup_fields`, read through
 * `reader` (lookups made in one turn share a statement).
 */
export function fieldRollupStore(
  db: Queryable,
  schema: string,
  reads: Queryable = db,
  reader: Reader = directReader(db),
): FieldRollupStore {
  const table = qualified(schema, 'field_rollups');
  const add = addFieldRollups(table);
  const fieldsOf: ReadKind<{ account_id: string; fields: TrackedField[] }> = {
    what: 'read rolled-up fields',
    statement: (ids) => ({
      text: `SELECT account_id, fields FROM ${settings} WHERE account_id = ANY($1::text[])`,
      values: [ids],
    }),
    id: (row) => row.account_id,
  };
  const settings = qualified(schema, 'rollup_fields');
  return {
    add: (rows) => {
      const [statement] = add.plan([rows]).statements;
      return statement
        ? query(db, add.what, statement.text, statement.values).map(() => undefined)
        : okAsync(undefined);
    },
    query: (q) => {
      // Summed over the columns the caller does not read: a month by state is hundreds of rows, not a cell per hour.
      const keep = q.keep ? new Set<string>(q.keep) : undefined;
      const column = (c: string, blank: string) => (!keep || keep.has(c) ? c : `${blank} AS ${c}`);
      const columns = [
        column('hour', '$3::timestamptz'),
        'has_value',
        'value',
        column('flow_id', "''"),
        column('source_id', "''"),
        column('recipient_id', "''"),
        keep ? "'' AS step_id" : 'step_id',
        'kind',
        'outcome',
        'category',
        'stage',
      ];
      const grouped = keep
        ? `${columns.join(', ')}, ${ROLLUP_SUMS.map((c) => `sum(${c}) AS ${c}`).join(', ')}`
        : `${columns.join(', ')}, ${ROLLUP_SUMS.join(', ')}`;
      const groupBy = keep
        ? `GROUP BY ${['has_value', 'value', 'kind', 'outcome', 'category', 'stage', ...(q.keep ?? [])].join(', ')}`
        : '';
      return query<FieldRollupDbRow>(
        reads,
        'query field rollups',
        `SELECT ${grouped} FROM ${table}
         WHERE account_id = $1 AND field = $2 AND hour >= $3 AND hour < $4
           AND ($5::text[] IS NULL OR kind = ANY($5)) AND ($6::text IS NULL OR flow_id = $6)
         ${groupBy}
         ORDER BY 1`,
        [q.account_id, q.field, q.from, q.to, q.kinds ? [...q.kinds] : null, q.flow_id ?? null],
      ).map(({ rows }) =>
        rows.map(
          (r): FieldRollupRow => ({
            account_id: q.account_id,
            field: q.field,
            hour: iso(r.hour),
            value: r.has_value ? r.value : null,
            flow_id: r.flow_id,
            source_id: r.source_id,
            recipient_id: r.recipient_id,
            step_id: r.step_id,
            kind: r.kind,
            outcome: r.outcome,
            category: r.category,
            stage: r.stage,
            count: Number(r.count),
            cost: r.cost,
            revenue: r.revenue,
            purchase_price: r.purchase_price,
          }),
        ),
      );
    },
    // Every lead's intake asks: the lookups of one turn share a statement.
    fields: (account_id) => reader.get(fieldsOf, account_id).map((row) => row?.fields),
    setFields: (account_id, fields) =>
      query(
        db,
        'set rolled-up fields',
        `INSERT INTO ${settings} (account_id, fields) VALUES ($1, $2::jsonb)
         ON CONFLICT (account_id) DO UPDATE SET fields = EXCLUDED.fields`,
        [account_id, JSON.stringify(fields)],
      ).map(() => undefined),
  };
}
