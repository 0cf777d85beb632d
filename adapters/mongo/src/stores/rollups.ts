import type { RollupStore } from '@leadroute/core';
import type { MongoCollections } from '../collections';
import { attempt, isDuplicateKey } from '../errors';
import { activeAccountsPipeline, rollupCell, rollupIncrement, rollupPipeline } from '../queries';
import { type RollupDoc, toRollupRow } from '../records-work';

/** The position of the write an ordered bulk stopped at, when the driver's error names it. */
function failedAt(error: unknown): number | undefined {
  const writeErrors = (error as { writeErrors?: unknown }).writeErrors;
  const first: unknown = Array.isArray(writeErrors) ? writeErrors[0] : writeErrors;
  const index = (first as { index?: unknown } | undefined)?.index;
  return typeof index === 'number' ? index : undefined;
}

/** How often `add` goes on after an upsert lost a race to create its cell. */
const RACES = 3;

/**
 * Statistics counters, one document per cell (unique through `rollups_cell_unique`).
 * `add` is one ordered bulk of `$inc` upserts: each adds to its cell atomically. As
 * each filter is equality on exactly the unique index's fields, the server itself
 * retries an upsert that loses a race to create a cell; should one still come back
 * as a duplicate key (older servers), the bulk stopped there with nothing of that
 * write applied, so `add` goes on from it and no count is lost or doubled.
 */
export function rollupStore(c: Pick<MongoCollections, 'rollups'>): RollupStore {
  return {
    add: (rows) =>
      attempt('add rollups', async () => {
        let writes = rows.map((row) => ({
          updateOne: { filter: rollupCell(row), update: rollupIncrement(row), upsert: true },
        }));
        for (let races = 0; writes.length > 0; races++) {
          try {
            await c.rollups.bulkWrite(writes, { ordered: true });
            return;
          } catch (error) {
            const at = failedAt(error);
            if (!isDuplicateKey(error) || at === undefined || races >= RACES) throw error;
            writes = writes.slice(at);
          }
        }
      }),
    query: (q) =>
      attempt('query rollups', async () =>
        (await c.rollups.aggregate<RollupDoc>(rollupPipeline(q)).toArray()).map(toRollupRow),
      ),
    activeAccounts: (from, to) =>
      attempt('list active accounts', async () =>
        (await c.rollups.aggregate<{ account_id: string }>(activeAccountsPipeline(from, to)).toArray()).map(
          (d) => d.account_id,
        ),
      ),
  };
}
