import type { RollupCounts, RollupKind } from '../ports/rollups';
import type { StatsRow } from '../schemas/responses';
import { PING_WON } from './cells';

/** The kinds with the four counters submitted, success, failure, error (spec "Event statistics row"). */
export const COUNTED_KINDS = [
  'source',
  'recipient',
  'return-received',
  'return-sent',
  'conversion-received',
  'conversion-sent',
] as const;

/** One statistics row: its group keys, then counters and figures (`schemas/responses.ts`). */
export type { StatsRow } from '../schemas/responses';

/** A group being summed: what one output row is made of. */
export interface StatsGroup {
  readonly keys: Readonly<Record<string, string | null>>;
  /** Start of the group's interval (epoch ms), what `time` sorts by; 0 without one. */
  readonly at: number;
  /** Event counts by kind, then outcome. A count is a box so a cell adds to it with two lookups and no store back. */
  readonly counts: Map<string, Map<string, { n: number }>>;
  /** conversion-received successes by stage. */
  readonly stages: Map<string, number>;
  cost: number;
  revenue: number;
}

export function newGroup(keys: Record<string, string | null>, at = 0): StatsGroup {
  return { keys, at, counts: new Map(), stages: new Map(), cost: 0, revenue: 0 };
}

/** Adds one rollup cell (or the rows of one event) to a group. */
export function addToGroup(
  group: StatsGroup,
  cell: { kind: RollupKind; outcome: string; stage: string } & Pick<RollupCounts, 'count' | 'cost' | 'revenue'>,
): void {
  let byOutcome = group.counts.get(cell.kind);
  if (!byOutcome) group.counts.set(cell.kind, (byOutcome = new Map()));
  const tally = byOutcome.get(cell.outcome);
  if (tally) tally.n += cell.count;
  else byOutcome.set(cell.outcome, { n: cell.count });
  group.cost += cell.cost;
  group.revenue += cell.revenue;
  if (cell.kind === 'conversion-received' && cell.outcome === 'success' && cell.stage !== '')
    group.stages.set(cell.stage, (group.stages.get(cell.stage) ?? 0) + cell.count);
}

const cents = (n: number): number => Math.round(n * 100) / 100;
const ratio = (a: number, b: number): number => (b === 0 ? 0 : Math.round((a / b) * 10_000) / 10_000);
const moneyRatio = (a: number, b: number): number => (b === 0 ? 0 : cents(a / b));

// Column names made once: a statistics answer can have thousands of rows.
const KIND_COLUMNS = COUNTED_KINDS.map((kind) => ({
  kind,
  submitted: `${kind}-submitted`,
  success: `${kind}-success`,
  failure: `${kind}-failure`,
  error: `${kind}-error`,
}));

/**
 * The counters and figures of a group. Semantics (the spec names them only):
 * - `<kind>-submitted` counts every event of the kind; `-success`, `-failure`,
 *   `-error` count by outcome. A recipient step skipped by its rules or caps is
 *   neither: it is counted in `recipient-submitted` and `recipient-skip`.
 * - `ping-submitted` counts pings, `ping-success` those answered with a bid;
 *   `ping-success-rate` = ping-success / ping-submitted; `ping-win-rate` = posts
 *   accepted (source success) that carry a successful ping's lead ID in their
 *   `ping_id` field / ping-success, counted at the hour of the post.
 * - `cost` = purchase prices of accepted leads + recipient step costs of delivery
 *   attempts (not skips); `revenue` = what recipients paid; `profit` = revenue − cost.
 * - `cost-per-conversion-received-success` = cost / conversion-received-success;
 *   `avg-cost-per-lead` = cost / source-success; `avg-revenue-per-lead` =
 *   revenue / source-success.
 * - Money is rounded to cents and rates to four decimals; a figure whose
 *   denominator is 0 is 0.
 * - `conversion-received-success:<stage>` counts conversions received with
 *   outcome success per stage (the conversion's reason); every row carries
 *   every stage seen in the result.
 */
export function groupRow(group: StatsGroup, stages: readonly string[]): StatsRow {
  const n = (kind: string, outcome: string) => group.counts.get(kind)?.get(outcome)?.n ?? 0;
  // Not `{ ...group.keys }`: V8 adds the forty-odd counters to a spread copy about ten times slower.
  const row: StatsRow = Object.assign({}, group.keys);
  for (const { kind, submitted: submittedColumn, success, failure, error } of KIND_COLUMNS) {
    let submitted = 0;
    for (const count of group.counts.get(kind)?.values() ?? []) submitted += count.n;
    row[submittedColumn] = submitted;
    row[success] = n(kind, 'success');
    row[failure] = n(kind, 'failure');
    row[error] = n(kind, 'error');
    if (kind === 'recipient') row['recipient-skip'] = n(kind, 'skip');
  }
  let pings = 0;
  for (const [outcome, count] of group.counts.get('ping') ?? []) if (outcome !== PING_WON) pings += count.n;
  const pingSuccess = n('ping', 'success');
  row['ping-submitted'] = pings;
  row['ping-success'] = pingSuccess;
  row['ping-success-rate'] = ratio(pingSuccess, pings);
  row['ping-win-rate'] = ratio(n('ping', PING_WON), pingSuccess);
  const leads = n('source', 'success');
  row.cost = cents(group.cost);
  row.revenue = cents(group.revenue);
  row.profit = cents(group.revenue - group.cost);
  row['cost-per-conversion-received-success'] = moneyRatio(group.cost, n('conversion-received', 'success'));
  row['avg-cost-per-lead'] = moneyRatio(group.cost, leads);
  row['avg-revenue-per-lead'] = moneyRatio(group.revenue, leads);
  for (const stage of stages) row[`conversion-received-success:${stage}`] = group.stages.get(stage) ?? 0;
  return row;
}

/**
 * Rows of every group, sorted by their keys in `keyOrder` (`time` by instant: offsets change across DST; a key with no
 * value before every value, '' included).
 */
export function groupRows(groups: Iterable<StatsGroup>, keyOrder: readonly string[]): StatsRow[] {
  const all = [...groups];
  const stages = [...new Set(all.flatMap((g) => [...g.stages.keys()]))].sort();
  const cmp = (a: StatsGroup, b: StatsGroup): number => {
    for (const key of keyOrder) {
      if (key === 'time' && a.at !== b.at) return a.at - b.at;
      const x = a.keys[key] ?? null;
      const y = b.keys[key] ?? null;
      if (x === y) continue;
      // No value first, then '': the order is total, so rows come out alike however their cells were read.
      if (x === null) return -1;
      if (y === null) return 1;
      return x < y ? -1 : 1;
    }
    return 0;
  };
  return all.sort(cmp).map((g) => groupRow(g, stages));
}
