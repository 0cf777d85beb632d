import type { FieldRollupRow, FieldRollupStore, RollupKind, TrackedField } from '@leadroute/core';
import { okAsync } from 'neverthrow';
import { type Hours, hourOf, lowerBound, withSums } from './rollup-store';
import { DONE } from './done';

/** One hour of one field of an account: its cells in creation order, and where each cell is. */
interface HourCells {
  readonly hour: string;
  readonly rows: FieldRollupRow[];
  readonly index: Map<string, number>;
}

/** The hours of one account's field, and the same sorted (ISO hours sort as instants do). */
type FieldCells = Hours<HourCells>;

const cellKey = (c: FieldRollupRow): string =>
  [
    c.flow_id,
    c.source_id,
    c.recipient_id,
    c.step_id,
    c.kind,
    c.outcome,
    c.category,
    c.stage,
    c.value === null ? '\u0001' : `=${c.value}`,
  ].join('\u0000');

/**
 * Field rollup cells per account, field and hour, kept like the rollup cells (frozen rows replaced on add, so
 * queries hand out the stored rows), with each account's rolled-up fields.
 */
export function fieldRollupStore(): FieldRollupStore {
  const cells = new Map<string, Map<string, FieldCells>>();
  const settings = new Map<string, readonly TrackedField[]>();
  const hourCells = (field: FieldCells, hour: string): HourCells =>
    hourOf(field, hour, () => ({ hour, rows: [], index: new Map() }));
  return {
    add(rows) {
      for (const row of rows) {
        let account = cells.get(row.account_id);
        if (!account) cells.set(row.account_id, (account = new Map()));
        let field = account.get(row.field);
        if (!field) account.set(row.field, (field = { byHour: new Map(), sorted: [] }));
        const hour = hourCells(field, row.hour);
        const key = cellKey(row);
        const at = hour.index.get(key);
        const prior = at === undefined ? undefined : hour.rows[at];
        if (at === undefined || !prior) {
          hour.index.set(key, hour.rows.length);
          hour.rows.push(Object.freeze({ ...row }));
        } else {
          hour.rows[at] = withSums(prior, row);
        }
      }
      return DONE;
    },
    query(q) {
      const field = cells.get(q.account_id)?.get(q.field);
      if (!field) return okAsync([]);
      const kinds: ReadonlySet<RollupKind> | undefined = q.kinds ? new Set(q.kinds) : undefined;
      const out: FieldRollupRow[] = [];
      for (let i = lowerBound(field.sorted, q.from); i < field.sorted.length; i++) {
        const hour = field.sorted[i] as HourCells;
        if (hour.hour >= q.to) break;
        for (const row of hour.rows) {
          if (kinds && !kinds.has(row.kind)) continue;
          if (q.flow_id && row.flow_id !== q.flow_id) continue;
          out.push(row);
        }
      }
      return okAsync(out);
    },
    fields(account_id) {
      return okAsync(settings.get(account_id));
    },
    setFields(account_id, fields) {
      settings.set(account_id, Object.freeze([...fields]));
      return DONE;
    },
  };
}
