import type { FieldRollupRow } from '../ports/field-rollups';
import type { RollupRow } from '../ports/rollups';
import { hourBucket, zonedIso } from './buckets';
import type { StatsQuery } from './params';
import { addToGroup, newGroup, type StatsGroup } from './rows';

/** A group key rollups hold, as read from a cell: time, flow_id, source_id, recipient_id, a lead field's value. */
type Key = 0 | 1 | 2 | 3 | 4;
const TIME: Key = 0;
const FLOW: Key = 1;
const SOURCE: Key = 2;
const RECIPIENT: Key = 3;
const FIELD: Key = 4;

const KEYS: Readonly<Partial<Record<string, Key>>> = { time: 0, flow_id: 1, source_id: 2, recipient_id: 3 };

/** Groups by the first keys' values, then the next key's: the last level holds the groups. */
type Level = Map<string | number | null, Level | StatsGroup>;

/** A cell's value of a group key. */
const cellValue = (cell: RollupRow, key: Key, time: number): string | number | null =>
  key === TIME
    ? time
    : key === FLOW
      ? cell.flow_id
      : key === SOURCE
        ? cell.source_id
        : key === RECIPIENT
          ? cell.recipient_id
          : (cell as FieldRollupRow).value;

/**
 * Sums rollup cells into the groups of a query whose group keys are all rollup keys
 * (flow_id, source_id, recipient_id, time). It runs once per cell (a day of an
 * account is thousands of them, a quarter hundreds of thousands), so nothing is
 * made per cell: groups are found through one map per key level (no key strings
 * are built), the group of the previous cell is tried first (cells of a group come
 * together), and an interval start is worked out once per distinct hour, not per
 * cell (zone arithmetic is the costly part). Cells are those of the query's kinds:
 * the store filters them (`RollupQuery.kinds`). Groups keep the order of their
 * first cells; callers sort them. With `field`, the cells are field cells
 * ({@link FieldRollupRow}) and that group key is read from their value. Undefined when an interval boundary of the query's
 * zone falls inside a stored hour (see {@link hourBucket}): only the events can answer.
 */
export function groupRollupCells(cells: readonly RollupRow[], q: StatsQuery, field?: string): StatsGroup[] | undefined {
  const keys = q.groupBy.map((k) => {
    const key = k === field ? FIELD : KEYS[k];
    if (key === undefined) throw new Error(`groupRollupCells: ${k} is not a rollup key`);
    return key;
  });
  const depth = keys.length;
  const interval = q.interval;
  const groups: StatsGroup[] = [];
  const make = (cell: RollupRow, time: number): StatsGroup => {
    const values: Record<string, string | null> = {};
    q.groupBy.forEach((k, i) => {
      const key = keys[i] as Key;
      values[k] =
        key === TIME
          ? zonedIso(time, q.zone)
          : key === FIELD
            ? (cell as FieldRollupRow).value
            : (cellValue(cell, key, time) as string) || null;
    });
    const g = newGroup(values, time);
    groups.push(g);
    return g;
  };
  const root: Level = new Map();
  const hourStarts = new Map<string, number>();
  let lastHour: string | undefined;
  let time = 0;
  // With one key, the previous cell's value and group.
  const only = keys[0];
  let lastValue: string | number | null | undefined;
  let last: StatsGroup | undefined;
  for (let c = 0; c < cells.length; c++) {
    const cell = cells[c] as RollupRow;
    if (interval && cell.hour !== lastHour) {
      lastHour = cell.hour;
      let at = hourStarts.get(lastHour);
      if (at === undefined) {
        at = hourBucket(Date.parse(lastHour), interval, q.zone);
        // An interval boundary inside a stored hour: its cell cannot be split, the events can.
        if (at === undefined) return undefined;
        hourStarts.set(lastHour, at);
      }
      time = at;
    }
    let g: StatsGroup | undefined;
    if (depth === 0) g = last ??= make(cell, time);
    else if (depth === 1) {
      const v = cellValue(cell, only as Key, time);
      if (v === lastValue && last) g = last;
      else {
        g = root.get(v) as StatsGroup | undefined;
        if (!g) root.set(v, (g = make(cell, time)));
        lastValue = v;
        last = g;
      }
    } else {
      let level = root;
      for (let i = 0; i < depth - 1; i++) {
        const v = cellValue(cell, keys[i] as Key, time);
        let next = level.get(v) as Level | undefined;
        if (!next) level.set(v, (next = new Map()));
        level = next;
      }
      const v = cellValue(cell, keys[depth - 1] as Key, time);
      g = level.get(v) as StatsGroup | undefined;
      if (!g) level.set(v, (g = make(cell, time)));
    }
    addToGroup(g, cell);
  }
  return groups;
}
