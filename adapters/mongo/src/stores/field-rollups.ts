import type { FieldRollupStore } from '@leadroute/core';
import type { Db } from 'mongodb';
import { attempt } from '../errors';
import { rollupIncrement } from '../queries';
import {
  FIELD_ROLLUP_COLLECTIONS,
  type FieldRollupDoc,
  fieldRollupCell,
  fieldRollupPipeline,
  type RollupFieldsDoc,
  rollupFieldsOf,
  setRollupFields,
} from '../queries/field-rollups';

/**
 * Field rollup cells (`field_rollups`, one document per cell, `$inc` upserts) and each account's rolled-up fields
 * (`rollup_fields`, one document per account).
 */
export function fieldRollupStore(db: Pick<Db, 'collection'>): FieldRollupStore {
  const cells = db.collection<FieldRollupDoc>(FIELD_ROLLUP_COLLECTIONS.cells);
  const settings = db.collection<RollupFieldsDoc>(FIELD_ROLLUP_COLLECTIONS.settings);
  return {
    add: (rows) =>
      attempt('add field rollups', async () => {
        if (rows.length === 0) return;
        await cells.bulkWrite(
          rows.map((row) => ({
            updateOne: {
              filter: fieldRollupCell(row),
              update: rollupIncrement(row),
              upsert: true,
            },
          })),
          { ordered: true },
        );
      }),
    query: (q) =>
      attempt('query field rollups', async () =>
        (await cells.aggregate<FieldRollupDoc>(fieldRollupPipeline(q)).toArray()).map((d) => ({
          ...d,
          hour: d.hour.toISOString(),
        })),
      ),
    fields: (account_id) =>
      attempt('read rolled-up fields', async () => (await settings.findOne(rollupFieldsOf(account_id)))?.fields),
    setFields: (account_id, fields) =>
      attempt('set rolled-up fields', async () => {
        await settings.updateOne(rollupFieldsOf(account_id), setRollupFields(fields), { upsert: true });
      }),
  };
}
