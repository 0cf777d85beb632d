import type { RollupCell, RollupRow, RollupStore } from '@leadroute/core';
import { okAsync } from 'neverthrow';

const cellKey = (c: RollupCell): string =>
  [c.account_id, c.hour, c.flow_id, c.source_id, c.recipient_id, c.step_id, c.kind, c.outcome, c.category, c.stage].join('\u0000');

/**
 * Rollup cells per account, keyed by cell. A cell is never changed in place: `add`
 * replaces it with a new frozen row, so `query` can hand out the stored rows
 * themselves (a caller cannot change them) instead of copying millions of them for
 * a detector pass.
 */
export type RollupTable = Map<string, Map<string, RollupRow>>;

export function rollupStore(cells: RollupTable): RollupStore {
  return {
    add(rows) {
      for (const row of rows) {
        let account = cells.get(row.account_id);
        if (!account) cells.set(row.account_id, (account = new Map()));
        const key = cellKey(row);
        const prior = account.get(key);
        account.set(
          key,
          Object.freeze(
            prior
              ? { ...prior, count: prior.count + row.count, cost: prior.cost + row.cost, revenue: prior.revenue + row.revenue, purchase_price: prior.purchase_price + row.purchase_price }
              : { ...row },
          ),
        );
      }
      return okAsync(undefined);
    },
    query(q) {
      const out: RollupRow[] = [];
      for (const row of cells.get(q.account_id)?.values() ?? []) {
        if (row.hour < q.from || row.hour >= q.to) continue;
        if (q.kinds && !q.kinds.includes(row.kind)) continue;
        if (q.flow_id && row.flow_id !== q.flow_id) continue;
        out.push(row);
      }
      return okAsync(out);
    },
    activeAccounts(from, to) {
      const active: string[] = [];
      for (const [account, rows] of cells) {
        for (const row of rows.values()) {
          if (row.hour >= from && row.hour < to) {
            active.push(account);
            break;
          }
        }
      }
      return okAsync(active);
    },
  };
}
