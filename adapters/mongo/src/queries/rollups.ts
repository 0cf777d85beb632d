import type { RollupQuery, RollupRow } from '@leadroute/core';
import type { Filter } from 'mongodb';
import { toDate } from '../documents';
import type { RollupDoc } from '../records-work';
import type { Pipeline } from './types';

/** The fields that make a cell, in the order of the unique index and of the query's sort. */
export const ROLLUP_CELL = [
  'account_id',
  'hour',
  'flow_id',
  'source_id',
  'recipient_id',
  'step_id',
  'kind',
  'outcome',
  'category',
  'stage',
] as const;

/**
 * The cell `row` adds to: equality on every field of `rollups_cell_unique`, so the server retries a racing upsert
 * itself.
 */
export const rollupCell = (row: RollupRow): Filter<RollupDoc> => ({
  account_id: row.account_id,
  hour: toDate(row.hour),
  flow_id: row.flow_id,
  source_id: row.source_id,
  recipient_id: row.recipient_id,
  step_id: row.step_id,
  kind: row.kind,
  outcome: row.outcome,
  category: row.category,
  stage: row.stage,
});

/** Adds the row's sums to its cell (an upsert starts them at zero): a rollup's or a field rollup's. */
export const rollupIncrement = (row: Pick<RollupRow, 'count' | 'cost' | 'revenue' | 'purchase_price'>) => ({
  $inc: { count: row.count, cost: row.cost, revenue: row.revenue, purchase_price: row.purchase_price },
});

/**
 * The cells of one account in `[from, to)`, optionally of some kinds or one flow,
 * by hour and then cell: a `$match` on `rollups_account_hour`, the sort, and a
 * projection that leaves the server's `_id` out.
 */
export const rollupPipeline = (q: RollupQuery): Pipeline => [
  {
    $match: {
      account_id: q.account_id,
      hour: { $gte: toDate(q.from), $lt: toDate(q.to) },
      ...(q.kinds === undefined ? {} : { kind: { $in: [...q.kinds] } }),
      ...(q.flow_id === undefined ? {} : { flow_id: q.flow_id }),
    },
  },
  { $sort: Object.fromEntries(ROLLUP_CELL.slice(1).map((field) => [field, 1])) },
  { $project: { _id: 0 } },
];

/** Accounts with any cell in `[from, to)`, each once, in ID order (`rollups_hour_account`). */
export const activeAccountsPipeline = (from: string, to: string): Pipeline => [
  { $match: { hour: { $gte: toDate(from), $lt: toDate(to) } } },
  { $group: { _id: '$account_id' } },
  { $sort: { _id: 1 } },
  { $project: { _id: 0, account_id: '$_id' } },
];
