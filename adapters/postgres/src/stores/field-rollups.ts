import type { FieldRollupRow, FieldRollupStore, TrackedField } from '@leadroute/core';
import { errAsync, okAsync } from 'neverthrow';
import { directReader, type ReadKind, type Reader } from '../batch/reads';
import { columnsOf, oneStatement, type WriteKind } from '../batch/writer';
import { type Queryable, query, toStoreError } from '../query';
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
    const columns = rowColumns(calls, true);
    return {
      statements: [{ text: cellUpsert(table, CELL, CELL_TYPES), values: columns, prepared: true }],
      answers: () => calls.map(() => undefined),
    };
  },
});

/** A day cell's columns (its primary key, without step_id), then the sums. */
const DAY_CELL = [
  'account_id',
  'field',
  'day',
  'has_value',
  'value',
  ...ROLLUP_DIMENSIONS.filter((c) => c !== 'step_id'),
] as const;
const DAY_COLUMNS = [...DAY_CELL, ...ROLLUP_SUMS];
const DAY_CELL_TYPES = ['text', 'text', 'timestamptz', 'boolean', ...DAY_CELL.slice(4).map(() => 'text')];

/** The rows of every call as one array per column: `COLUMNS`, or `DAY_COLUMNS` (no step_id) for day cells. */
function rowColumns(calls: readonly (readonly FieldRollupRow[])[], withStep: boolean): unknown[][] {
  return columnsOf(calls.flat(), (withStep ? COLUMNS : DAY_COLUMNS).length, (row) => [
    row.account_id,
    row.field,
    row.hour,
    row.value !== null,
    row.value ?? '',
    row.flow_id,
    row.source_id,
    row.recipient_id,
    ...(withStep ? [row.step_id] : []),
    row.kind,
    row.outcome,
    row.category,
    row.stage,
    row.count,
    row.cost,
    row.revenue,
    row.purchase_price,
  ]);
}

/**
 * Adding field rollup rows to the cells per UTC day in `field_rollup_days` (migration 19), as
 * {@link addFieldRollups} adds them to the hourly ones: the same rows, summed by the UTC day of their
 * hour and over step_id. Whoever adds hourly cells adds these in the same statement (or transaction),
 * so a day cell is always the sum of its day's hourly cells.
 */
export const addFieldRollupDays = (table: string): WriteKind<readonly FieldRollupRow[], undefined> => ({
  what: 'add field rollups per day',
  plan: (calls) => {
    // The rows' hours go in as `hour`, each cut to its UTC day.
    const text = cellUpsert(table, DAY_CELL, DAY_CELL_TYPES, {
      column: 'day',
      input: 'hour',
      expression: "date_trunc('day', hour, 'UTC')",
    });
    return {
      statements: [{ text, values: rowColumns(calls, false), prepared: true }],
      answers: () => calls.map(() => undefined),
    };
  },
});

type Run = { readonly from: number; readonly to: number };
const DAY = 86_400_000;

/**
 * [from, to) as the runs of `days` a query may read from day cells (whole UTC days inside the range, in order, not
 * overlapping; any other is left to the hourly cells) and the hours around them; undefined when no day is left.
 */
function splitRange(
  from: string,
  to: string,
  days: readonly { readonly from: string; readonly to: string }[],
): { days: Run[]; hours: Run[] } | undefined {
  const start = Date.parse(from);
  const end = Date.parse(to);
  const whole: Run[] = [];
  let at = start;
  for (const run of days) {
    const f = Date.parse(run.from);
    const t = Date.parse(run.to);
    if (!(f % DAY === 0 && t % DAY === 0 && f >= at && f < t && t <= end)) continue;
    whole.push({ from: f, to: t });
    at = t;
  }
  if (whole.length === 0) return undefined;
  const hours: Run[] = [];
  at = start;
  for (const run of whole) {
    if (run.from > at) hours.push({ from: at, to: run.from });
    at = run.to;
  }
  if (end > at) hours.push({ from: at, to: end });
  return { days: whole, hours };
}

/**
 * Field rollup cells in `field_rollups` (migration 18) and per UTC day in `field_rollup_days` (migration 19): `add` is
 * one statement of two `INSERT ... SELECT FROM unnest ... ON CONFLICT DO UPDATE` adding to the sums of both (rows of
 * one cell summed first, cells in key order); `query` walks the primary key for one account, field and range of hours,
 * and, when the caller sums over step_id (`keep`) and names whole days (`days`), reads those days' cells instead of
 * their hours: a month by state is about a fifth of the cells. The account's fields are one jsonb row in `rollup_fields`, read through
 * `reader` (lookups made in one turn share a statement).
 */
export function fieldRollupStore(
  db: Queryable,
  schema: string,
  reads: Queryable = db,
  reader: Reader = directReader(db),
): FieldRollupStore {
  const table = qualified(schema, 'field_rollups');
  const days = qualified(schema, 'field_rollup_days');
  const add = addFieldRollups(table);
  const addDays = addFieldRollupDays(days);
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
      if (rows.length === 0) return okAsync(undefined);
      // Hourly and day cells in one statement: both or neither.
      const parts = [
        ...add.plan([rows]).statements.map((st) => ({ ...st, table })),
        ...addDays.plan([rows]).statements.map((st) => ({ ...st, table: days })),
      ];
      const one = oneStatement(parts);
      return one
        ? query(db, add.what, one.text, one.values).map(() => undefined)
        : // Two statements of 33 array parameters are always one: this is never reached.
          errAsync(toStoreError(add.what, new Error('field rollup writes cannot be one statement')));
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
      const filters = 'AND ($5::text[] IS NULL OR kind = ANY($5)) AND ($6::text IS NULL OR flow_id = $6)';
      const values: unknown[] = [q.account_id, q.field, q.from, q.to, q.kinds ? [...q.kinds] : null, q.flow_id ?? null];
      // Whole days from the day cells (only summed over step_id, so only with keep), the other hours from hourly ones.
      const split = keep ? splitRange(q.from, q.to, q.days ?? []) : undefined;
      let from = `${table} WHERE account_id = $1 AND field = $2 AND hour >= $3 AND hour < $4 ${filters}`;
      if (split) {
        const ranges = (column: string, runs: readonly Run[]) =>
          runs
            .map((run) => {
              values.push(new Date(run.from).toISOString(), new Date(run.to).toISOString());
              return `(${column} >= $${values.length - 1} AND ${column} < $${values.length})`;
            })
            .join(' OR ');
        const sums = ROLLUP_SUMS.join(', ');
        const dims = 'has_value, value, flow_id, source_id, recipient_id';
        const kinds = 'kind, outcome, category, stage';
        const parts = [
          `SELECT day AS hour, ${dims}, '' AS step_id, ${kinds}, ${sums} FROM ${days}
           WHERE account_id = $1 AND field = $2 AND day >= $3 AND day < $4 AND (${ranges('day', split.days)}) ${filters}`,
          ...(split.hours.length > 0
            ? [
                `SELECT hour, ${dims}, step_id, ${kinds}, ${sums} FROM ${table}
                 WHERE account_id = $1 AND field = $2 AND hour >= $3 AND hour < $4 AND (${ranges('hour', split.hours)})
                   ${filters}`,
              ]
            : []),
        ];
        from = `(${parts.join(' UNION ALL ')}) AS cells`;
      }
      return query<FieldRollupDbRow>(
        reads,
        'query field rollups',
        `SELECT ${grouped} FROM ${from}
         ${groupBy}
         ORDER BY 1`,
        values,
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
