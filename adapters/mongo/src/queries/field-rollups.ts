import type { FieldRollupQuery, FieldRollupRow, TrackedField } from '@leadroute/core';
import type { Filter } from 'mongodb';
import { COLLECTIONS, toDate } from '../documents';
import { ROLLUP_CELL, rollupCell } from './rollups';
import type { Pipeline } from './types';

/** Collections of field rollup cells and of each account's rolled-up fields. */
export const FIELD_ROLLUP_COLLECTIONS = {
  cells: COLLECTIONS.fieldRollups,
  settings: COLLECTIONS.rollupFields,
} as const;

/** A field rollup cell as stored: the row with its hour as a Date (value null when the lead had no such field). */
export interface FieldRollupDoc extends Omit<FieldRollupRow, 'hour'> {
  hour: Date;
}

/**
 * The fields that make a cell, a rollup cell's with the field and its value: `field_rollups_cell_unique`'s key, in
 * the order FieldRollupStore.query reads it (equality on account and field, a range of hours).
 */
export const FIELD_ROLLUP_CELL = ['account_id', 'field', 'hour', 'value', ...ROLLUP_CELL.slice(2)] as const;

/**
 * The upsert filter of a row's cell: equality on every field of `field_rollups_cell_unique`, so the server retries a
 * racing upsert itself.
 */
export const fieldRollupCell = (row: FieldRollupRow): Record<string, unknown> => ({
  ...rollupCell(row),
  field: row.field,
  value: row.value,
});

/**
 * The cells of one account's field in `[from, to)`. With `keep`, `$group` sums them over the columns the caller does
 * not read (the hour then reads as `from`, IDs as ''), so a month by state is hundreds of documents.
 */
export const fieldRollupPipeline = (q: FieldRollupQuery): Pipeline => {
  const match = {
    $match: {
      account_id: q.account_id,
      field: q.field,
      hour: { $gte: toDate(q.from), $lt: toDate(q.to) },
      ...(q.kinds === undefined ? {} : { kind: { $in: [...q.kinds] } }),
      ...(q.flow_id === undefined ? {} : { flow_id: q.flow_id }),
    },
  };
  if (!q.keep) return [match, { $sort: { hour: 1 } }, { $project: { _id: 0 } }];
  const keep = new Set<string>(q.keep);
  const key: Record<string, string> = { value: '$value', kind: '$kind', outcome: '$outcome' };
  Object.assign(key, { category: '$category', stage: '$stage' });
  for (const k of keep) key[k] = `$${k}`;
  return [
    match,
    {
      $group: {
        _id: key,
        count: { $sum: '$count' },
        cost: { $sum: '$cost' },
        revenue: { $sum: '$revenue' },
        purchase_price: { $sum: '$purchase_price' },
      },
    },
    {
      $project: {
        _id: 0,
        account_id: q.account_id,
        field: q.field,
        hour: keep.has('hour') ? '$_id.hour' : { $literal: toDate(q.from) },
        value: '$_id.value',
        flow_id: keep.has('flow_id') ? '$_id.flow_id' : { $literal: '' },
        source_id: keep.has('source_id') ? '$_id.source_id' : { $literal: '' },
        recipient_id: keep.has('recipient_id') ? '$_id.recipient_id' : { $literal: '' },
        step_id: { $literal: '' },
        kind: '$_id.kind',
        outcome: '$_id.outcome',
        category: '$_id.category',
        stage: '$_id.stage',
        count: 1,
        cost: 1,
        revenue: 1,
        purchase_price: 1,
      },
    },
    { $sort: { hour: 1 } },
  ];
};

/** An account's rolled-up fields, one document per account. */
export interface RollupFieldsDoc {
  _id: string;
  fields: TrackedField[];
}

/** The rolled-up-fields document of an account. */
export const rollupFieldsOf = (accountId: string): Filter<RollupFieldsDoc> => ({ _id: accountId });

/** Replaces an account's rolled-up fields (an upsert). */
export const setRollupFields = (fields: readonly TrackedField[]) => ({ $set: { fields: [...fields] } });
