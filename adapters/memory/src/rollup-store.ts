import type { RollupCell, RollupKind, RollupRow, RollupStore } from '@leadroute/core';
import { okAsync } from 'neverthrow';
import { DONE } from './done';

/** The cells of one account's hour: rows in creation order, and where each cell's row is. */
interface HourCells {
  readonly hour: string;
  readonly rows: RollupRow[];
  /**
   * Cell key (without account and hour) → index in `rows`, once the hour holds {@link INDEXED_FROM} cells. A smaller
   * hour is searched row by row: most hours of most accounts hold a few dozen cells, and a key string per cell would
   * cost more memory than the cell itself.
   */
  index: Map<string, number> | undefined;
  /** The kinds among `rows`, as {@link kindBit}s: a query for all of them copies the hour without reading its rows. */
  kinds: number;
  /** The store's mark when a cell of the hour was last added to ({@link RollupStore.changedHours}). */
  changed: number;
}

/** One account's cells by hour. */
export interface AccountCells extends Hours<HourCells> {
  /** The latest of its hours' `changed`: an account nothing was added to since a mark answers without a scan. */
  changed: number;
  /**
   * Its hours each time one changed in an add that had not changed it yet, with that add's mark (`marks`, in
   * order): {@link RollupStore.changedHours} walks back from the end to its mark instead of over every hour. Trimmed
   * to its newer half past {@link CHANGES_KEPT} entries; `trimmed` is the newest mark left out, and a mark before it
   * is answered by a scan of the hours.
   */
  changes: HourCells[];
  marks: number[];
  trimmed: number;
}

/** How many hour changes an account keeps before it drops the older half. */
const CHANGES_KEPT = 1024;

/** Hours with this many cells keep a key index; smaller ones are scanned. */
const INDEXED_FROM = 32;

/** Whether two cells are the same one. */
const sameCell = (a: RollupCell, b: RollupCell): boolean =>
  a.flow_id === b.flow_id &&
  a.source_id === b.source_id &&
  a.recipient_id === b.recipient_id &&
  a.step_id === b.step_id &&
  a.kind === b.kind &&
  a.outcome === b.outcome &&
  a.category === b.category &&
  a.stage === b.stage;

/**
 * Rollup cells per account, then per hour. A cell is never changed in place: `add`
 * replaces it with a new frozen row, so `query` can hand out the stored rows
 * themselves (a caller cannot change them) instead of copying millions of them for
 * a detector pass. A query reads only the hours of its range: statistics of a day
 * touch that day's cells, not the account's 90 days of them.
 */
export type RollupTable = Map<string, AccountCells>;

const cellKey = (c: RollupCell): string =>
  [c.flow_id, c.source_id, c.recipient_id, c.step_id, c.kind, c.outcome, c.category, c.stage].join('\u0000');

const KINDS: readonly RollupKind[] = [
  'source',
  'recipient',
  'filter',
  'ping',
  'return-received',
  'return-sent',
  'conversion-received',
  'conversion-sent',
];
const KIND_BITS = new Map<string, number>(KINDS.map((kind, i) => [kind, 1 << i]));
/** A bit per kind; one shared bit for any other text, which no query's mask holds. */
const kindBit = (kind: string): number => KIND_BITS.get(kind) ?? 1 << 30;

/** The first index of `sorted` whose hour is not before `hour`. */
export function lowerBound(sorted: readonly { readonly hour: string }[], hour: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((sorted[mid] as { readonly hour: string }).hour < hour) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Hours by name and in order: how rollup and field rollup cells are both kept. */
export interface Hours<H extends { readonly hour: string }> {
  readonly byHour: Map<string, H>;
  readonly sorted: H[];
}

/** The cells of `hour` in `hours`, made by `make` and put in order when it has none yet. */
export function hourOf<H extends { readonly hour: string }>(hours: Hours<H>, hour: string, make: () => H): H {
  let cells = hours.byHour.get(hour);
  if (cells) return cells;
  cells = make();
  hours.byHour.set(hour, cells);
  // Hours mostly arrive in order: appending is the common case.
  const last = hours.sorted[hours.sorted.length - 1];
  if (!last || last.hour < hour) hours.sorted.push(cells);
  else hours.sorted.splice(lowerBound(hours.sorted, hour), 0, cells);
  return cells;
}

/** What adding a row to a cell sums. */
type Sums = Pick<RollupRow, 'count' | 'cost' | 'revenue' | 'purchase_price'>;

/** A stored cell with `row`'s sums added: a new frozen row, so rows already handed out never change. */
export function withSums<R extends Sums>(prior: R, row: Sums): R {
  return Object.freeze({
    ...prior,
    count: prior.count + row.count,
    cost: prior.cost + row.cost,
    revenue: prior.revenue + row.revenue,
    purchase_price: prior.purchase_price + row.purchase_price,
  });
}

const hourCells = (account: AccountCells, hour: string): HourCells =>
  hourOf(account, hour, () => ({ hour, rows: [], index: undefined, kinds: 0, changed: 0 }));

/** Marks `hour` of `account` changed by the add of `mark`, the first of that add's rows in it. */
function noteChange(account: AccountCells, hour: HourCells, mark: number): void {
  hour.changed = mark;
  account.changed = mark;
  account.changes.push(hour);
  account.marks.push(mark);
  if (account.changes.length > CHANGES_KEPT) {
    const drop = account.changes.length >> 1;
    account.trimmed = account.marks[drop - 1] as number;
    account.changes.splice(0, drop);
    account.marks.splice(0, drop);
  }
}

/** Where `cell`'s row is in `hour`, or -1. */
function findCell(hour: HourCells, cell: RollupCell): number {
  if (hour.index) return hour.index.get(cellKey(cell)) ?? -1;
  const rows = hour.rows;
  for (let i = 0; i < rows.length; i++) if (sameCell(rows[i] as RollupRow, cell)) return i;
  return -1;
}

export function rollupStore(cells: RollupTable): RollupStore {
  // One string per distinct ID, hour and label, shared by every row that holds it: each
  // row would otherwise keep its own copies (a million cells hold only a few hundred
  // distinct values), which is memory to keep and for the collector to mark, and
  // readers comparing or hashing them touch one hot string instead of one per row.
  const strings = new Map<string, string>();
  const intern = (s: string): string => {
    const known = strings.get(s);
    if (known !== undefined) return known;
    strings.set(s, s);
    return s;
  };
  const stored = (row: RollupRow): RollupRow =>
    Object.freeze({
      account_id: intern(row.account_id),
      hour: intern(row.hour),
      flow_id: intern(row.flow_id),
      source_id: intern(row.source_id),
      recipient_id: intern(row.recipient_id),
      step_id: intern(row.step_id),
      kind: intern(row.kind) as RollupKind,
      outcome: intern(row.outcome),
      category: intern(row.category),
      stage: intern(row.stage),
      count: row.count,
      cost: row.cost,
      revenue: row.revenue,
      purchase_price: row.purchase_price,
    });
  // Counts up with every add: hours and accounts remember the mark of their last change.
  let mark = 0;
  return {
    add(rows) {
      mark += 1;
      for (const row of rows) {
        let account = cells.get(row.account_id);
        if (!account)
          cells.set(
            row.account_id,
            (account = { byHour: new Map(), sorted: [], changed: 0, changes: [], marks: [], trimmed: 0 }),
          );
        const hour = hourCells(account, intern(row.hour));
        if (hour.changed !== mark) noteChange(account, hour, mark);
        const at = findCell(hour, row);
        const prior = at < 0 ? undefined : hour.rows[at];
        if (!prior) {
          hour.index?.set(cellKey(row), hour.rows.length);
          hour.rows.push(stored(row));
          hour.kinds |= kindBit(row.kind);
          if (!hour.index && hour.rows.length >= INDEXED_FROM)
            hour.index = new Map(hour.rows.map((r, i) => [cellKey(r), i]));
        } else {
          hour.rows[at] = withSums(prior, row);
        }
      }
      return DONE;
    },
    query(q) {
      const account = cells.get(q.account_id);
      if (!account) return okAsync([]);
      const { sorted } = account;
      const first = lowerBound(sorted, q.from);
      let end = first;
      let most = 0;
      for (; end < sorted.length && (sorted[end] as HourCells).hour < q.to; end++)
        most += (sorted[end] as HourCells).rows.length;
      // Sized once for the range's cells, not regrown as it fills: a detector pass reads
      // millions of them. (V8 makes very long preallocated arrays sparse: those grow.)
      const out: RollupRow[] = most <= 50_000 ? new Array<RollupRow>(most) : [];
      let n = 0;
      const kinds: ReadonlySet<RollupKind> | undefined = q.kinds ? new Set(q.kinds) : undefined;
      const wanted = q.kinds ? q.kinds.reduce((mask, kind) => mask | (KIND_BITS.get(kind) ?? 0), 0) : -1;
      const flow = q.flow_id;
      for (let i = first; i < end; i++) {
        const hour = sorted[i] as HourCells;
        const rows = hour.rows;
        if (!flow && (hour.kinds & ~wanted) === 0) {
          for (let j = 0; j < rows.length; j++) out[n++] = rows[j] as RollupRow;
          continue;
        }
        for (let j = 0; j < rows.length; j++) {
          const row = rows[j] as RollupRow;
          if (kinds && !kinds.has(row.kind)) continue;
          if (flow && row.flow_id !== flow) continue;
          out[n++] = row;
        }
      }
      out.length = n;
      return okAsync(out);
    },
    changedHours(accountId, from, to, since) {
      const account = cells.get(accountId);
      const hours: string[] = [];
      if (!account || account.changed <= since) return okAsync({ mark, hours });
      if (since < account.trimmed) {
        const { sorted } = account;
        for (let i = lowerBound(sorted, from); i < sorted.length; i++) {
          const hour = sorted[i] as HourCells;
          if (hour.hour >= to) break;
          if (hour.changed > since) hours.push(hour.hour);
        }
        return okAsync({ mark, hours });
      }
      // Every hour changed after `since` has an entry after it (an hour can have several: its latest counts).
      const { changes, marks } = account;
      const seen = new Set<HourCells>();
      for (let i = changes.length - 1; i >= 0 && (marks[i] as number) > since; i--) {
        const hour = changes[i] as HourCells;
        if (seen.has(hour)) continue;
        seen.add(hour);
        if (hour.hour >= from && hour.hour < to) hours.push(hour.hour);
      }
      return okAsync({ mark, hours: hours.sort() });
    },
    activeAccounts(from, to) {
      const active: string[] = [];
      for (const [id, account] of cells) {
        const first = account.sorted[lowerBound(account.sorted, from)];
        if (first && first.hour < to) active.push(id);
      }
      return okAsync(active);
    },
  };
}
