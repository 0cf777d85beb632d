import type { RollupStore } from '@leadroute/core';
import type { MongoCollections } from '../collections';
import { attempt } from '../errors';
import { activeAccountsPipeline, rollupCell, rollupIncrement, rollupPipeline } from '../queries';
import { type RollupDoc, toRollupRow } from '../records-work';

/**
 * Statistics counters, one document per cell (unique through `rollups_cell_unique`).
 * `add` is one bulk of `$inc` upserts: each adds to its cell atomically, and as each
 * filter is equality on exactly the unique index's fields, the server itself retries
 * the upsert that loses a race to create a cell, so no count is lost.
 */
export function rollupStore(c: Pick<MongoCollections, 'rollups'>): RollupStore {
  return {
    add: (rows) =>
      attempt('add rollups', async () => {
        if (rows.length === 0) return;
        await c.rollups.bulkWrite(
          rows.map((row) => ({ updateOne: { filter: rollupCell(row), update: rollupIncrement(row), upsert: true } })),
          { ordered: true },
        );
      }),
    query: (q) => attempt('query rollups', async () => (await c.rollups.aggregate<RollupDoc>(rollupPipeline(q)).toArray()).map(toRollupRow)),
    activeAccounts: (from, to) =>
      attempt('list active accounts', async () =>
        (await c.rollups.aggregate<{ account_id: string }>(activeAccountsPipeline(from, to)).toArray()).map((d) => d.account_id),
      ),
  };
}
