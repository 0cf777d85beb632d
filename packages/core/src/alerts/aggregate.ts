import type { RollupRow } from '../ports/rollups';
import type { RateType } from './defaults';
import { HOUR_MS } from './windows';

/** The rate types in slot order. */
export const RATE_TYPES: readonly RateType[] = [
  'recipient-failure',
  'recipient-skip',
  'source-rejects',
  'duplicate-leads',
  'invalid-email',
  'invalid-phone',
  'missing-tf-cert',
  'tf-failures',
];
export const SLOT: Readonly<Record<RateType, number>> = Object.fromEntries(RATE_TYPES.map((t, i) => [t, i])) as Record<
  RateType,
  number
>;
export const SOURCE_CATEGORY_TYPES: readonly RateType[] = [
  'duplicate-leads',
  'invalid-email',
  'invalid-phone',
  'missing-tf-cert',
  'tf-failures',
];
const CATEGORY_TYPE: Readonly<Record<string, RateType>> = {
  duplicate: 'duplicate-leads',
  'invalid-email': 'invalid-email',
  'invalid-phone': 'invalid-phone',
  'missing-certificate': 'missing-tf-cert',
  'certificate-failure': 'tf-failures',
};

/**
 * Per-hour counts are plain arrays, not Float64Arrays: a pass makes a few per unit
 * for every account, and typed arrays live outside the heap, where allocating tens
 * of megabytes of them a pass makes V8 run a full collection of the whole heap
 * (millions of rollup cells in memory) every pass. Zero-filled arrays hold the same
 * doubles.
 */
export type HourCounts = number[];

/** `n` zeros. */
export const zeros = (n: number): HourCounts => new Array<number>(n).fill(0);

/** Counts of one recipient or source entity, per hour of the span. */
export interface UnitCounts {
  /** All its events (recipient steps, or the source's leads), per hour. */
  readonly total: HourCounts;
  /** Events each rate type counts as hits, per slot then hour; a slot without any hit has no array. */
  readonly hits: (HourCounts | undefined)[];
  /**
   * Hits by `slot|label` (flow:, kind:, outcome:, recipient:) per hour from {@link Aggregate.labelsFrom} on: what
   * labels an alert. Only units with hits have it.
   */
  labels?: Map<string, HourCounts>;
}

/**
 * An account's source and recipient cells folded into per-hour arrays: what every detector reads. The detector keeps
 * it from pass to pass ({@link shiftAggregate}, {@link clearHours}, {@link foldRows}), so only `from` changes.
 */
export interface Aggregate {
  /** Start of the span (a whole UTC hour) and its length in hours. */
  from: number;
  readonly hours: number;
  /** The first hour labels are kept for: `labels` arrays start there. */
  readonly labelsFrom: number;
  readonly recipients: Map<string, UnitCounts>;
  readonly sources: Map<string, UnitCounts>;
  /** Source events per flow, per hour (no-leads). */
  readonly flows: Map<string, HourCounts>;
}

/** The slot of each category whose type `covered` says is enabled. */
export function coveredSlots(covered: (type: RateType) => boolean): ReadonlyMap<string, number> {
  const slots = new Map<string, number>();
  for (const [category, type] of Object.entries(CATEGORY_TYPE)) if (covered(type)) slots.set(category, SLOT[type]);
  return slots;
}

/** An aggregate of no cells over `hours` hours from `from`, with labels from hour `labelsFrom` on. */
export function emptyAggregate(from: number, hours: number, labelsFrom = 0): Aggregate {
  return {
    from,
    hours,
    // Labels only for the hours a window can reach: their arrays are a few hours long, not a week.
    labelsFrom: Math.min(hours, Math.max(0, labelsFrom)),
    recipients: new Map(),
    sources: new Map(),
    flows: new Map(),
  };
}

/**
 * Folds the rows into per-hour arrays in one pass, with as little per row as
 * possible (a pass reads about a week of cells per account): the unit of the
 * previous row is reused while rows name the same entity (they come grouped), and
 * which category types are enabled is settled once, not per row. Weights for
 * windows are applied per hour afterwards. Labels (which flow, kind, outcome,
 * recipient the hits were) are kept only from hour `labelsFrom` on: no window
 * reaches further back. `covered(type)` says which category types are enabled: a
 * rejection one of them counts is left out of recipient-failure, recipient-skip
 * and source-rejects, so one cause raises one alert.
 */
export function aggregate(
  rows: readonly RollupRow[],
  from: number,
  hours: number,
  covered: (type: RateType) => boolean,
  labelsFrom = 0,
): Aggregate {
  const agg = emptyAggregate(from, hours, labelsFrom);
  foldRows(agg, rows, coveredSlots(covered));
  return agg;
}

/**
 * Adds the rows to `agg` (see {@link aggregate}); rows outside its span are left out. `coveredSlot` is
 * {@link coveredSlots}.
 */
export function foldRows(agg: Aggregate, rows: readonly RollupRow[], coveredSlot: ReadonlyMap<string, number>): void {
  const { from, hours } = agg;
  const labelStart = agg.labelsFrom;
  const newUnit = (): UnitCounts => ({
    total: zeros(hours),
    hits: new Array<HourCounts | undefined>(RATE_TYPES.length).fill(undefined),
  });
  const hit = (u: UnitCounts, slot: number, h: number, n: number, row: RollupRow) => {
    let hits = u.hits[slot];
    if (!hits) u.hits[slot] = hits = zeros(hours);
    hits[h] = (hits[h] as number) + n;
    if (h < labelStart) return;
    const labels = [`flow:${row.flow_id}`, `kind:${row.outcome}`, `outcome:${row.outcome}`];
    // Category alerts name the step's recipient (deep links to the integration).
    if (slot >= SLOT['duplicate-leads'] && row.recipient_id !== '') labels.push(`recipient:${row.recipient_id}`);
    u.labels ??= new Map();
    for (const label of labels) {
      const key = `${slot}|${label}`;
      let arr = u.labels.get(key);
      if (!arr) u.labels.set(key, (arr = zeros(hours - labelStart)));
      arr[h - labelStart] = (arr[h - labelStart] as number) + n;
    }
  };
  // Rows of one entity and flow come together: the last lookups are kept.
  let recipientId: string | undefined;
  let recipient: UnitCounts | undefined;
  let sourceId: string | undefined;
  let source: UnitCounts | undefined;
  let flowId: string | undefined;
  let flow: HourCounts | undefined;
  const sourceUnit = (id: string): UnitCounts => {
    if (id === sourceId && source) return source;
    let u = agg.sources.get(id);
    if (!u) agg.sources.set(id, (u = newUnit()));
    sourceId = id;
    return (source = u);
  };
  // Cells arrive grouped by hour (they are written as the hour's events are recorded): remember the last one.
  const hourIndex = new Map<string, number>();
  let lastHour = '';
  let h = -1;
  for (const row of rows) {
    const n = row.count;
    if (n === 0) continue;
    if (row.hour !== lastHour) {
      lastHour = row.hour;
      let i = hourIndex.get(lastHour);
      if (i === undefined) hourIndex.set(lastHour, (i = Math.floor((Date.parse(lastHour) - from) / HOUR_MS)));
      h = i;
    }
    if (h < 0 || h >= hours) continue;
    const categorySlot = row.category === '' ? undefined : coveredSlot.get(row.category);
    const isCovered = categorySlot !== undefined;
    const outcome = row.outcome;
    const failed = !isCovered && (outcome === 'failure' || outcome === 'error');
    if (row.kind === 'recipient') {
      const id = row.recipient_id;
      if (id !== '') {
        let u = recipient;
        if (id !== recipientId || !u) {
          u = agg.recipients.get(id);
          if (!u) agg.recipients.set(id, (u = newUnit()));
          recipientId = id;
          recipient = u;
        }
        u.total[h] = (u.total[h] as number) + n;
        if (failed) hit(u, 0, h, n, row);
        else if (!isCovered && outcome === 'skip') hit(u, 1, h, n, row);
      }
    } else if (row.kind === 'source') {
      const u = sourceUnit(row.source_id);
      u.total[h] = (u.total[h] as number) + n;
      if (failed) hit(u, 2, h, n, row);
      let f = flow;
      if (row.flow_id !== flowId || !f) {
        f = agg.flows.get(row.flow_id);
        if (!f) agg.flows.set(row.flow_id, (f = zeros(hours)));
        flowId = row.flow_id;
        flow = f;
      }
      f[h] = (f[h] as number) + n;
    }
    if (isCovered) hit(sourceUnit(row.source_id), categorySlot, h, n, row);
  }
}

// Plain loops: copyWithin, fill and every on plain arrays are generic builtins, several times slower on these
// short arrays, and a pass runs them for every array of every account.

/** Whether every hour of `counts` is 0. */
function empty(counts: HourCounts): boolean {
  for (let h = 0; h < counts.length; h++) if (counts[h] !== 0) return false;
  return true;
}

/** Moves `counts` `k` places towards its start; the hours that come free at its end are 0. */
function shiftLeft(counts: HourCounts, k: number): void {
  const n = counts.length;
  for (let h = 0; h + k < n; h++) counts[h] = counts[h + k] as number;
  for (let h = Math.max(0, n - k); h < n; h++) counts[h] = 0;
}

/** Sets hours `start` on of `counts` to 0. */
function clearFrom(counts: HourCounts, start: number): void {
  for (let h = start; h < counts.length; h++) counts[h] = 0;
}

/**
 * Moves `agg`'s span `k` hours later: the first `k` hours leave it and `k` hours of no cells join it at its end (for
 * the caller to fold). Units and flows with no cell left in the span leave it too, as {@link aggregate} of the span's
 * rows would not have them. Labels are dropped: {@link clearHours} and {@link foldRows} of the labelled hours make
 * them again, in the order `aggregate` would.
 */
export function shiftAggregate(agg: Aggregate, k: number): void {
  if (k <= 0) return;
  agg.from += k * HOUR_MS;
  for (const units of [agg.recipients, agg.sources])
    for (const [id, u] of units) {
      shiftLeft(u.total, k);
      let any = !empty(u.total);
      for (const hits of u.hits)
        if (hits) {
          shiftLeft(hits, k);
          any ||= !empty(hits);
        }
      if (!any) units.delete(id);
    }
  for (const [id, counts] of agg.flows) {
    shiftLeft(counts, k);
    if (empty(counts)) agg.flows.delete(id);
  }
}

/**
 * Drops every unit's labels once the detectors have read them: an aggregate kept for the next pass would otherwise
 * hold a pass's worth of small label arrays until then, long enough for the collector to move them to the old
 * generation, and that pass makes them again anyway ({@link clearHours}).
 */
export function dropLabels(agg: Aggregate): void {
  for (const units of [agg.recipients, agg.sources]) for (const u of units.values()) u.labels = undefined;
}

/**
 * Sets hours [`start`, end of span) of `agg` back to no cells, for {@link foldRows} to add that range's rows again, and
 * drops every unit's labels: the range must hold every labelled hour (from `labelsFrom` on).
 */
export function clearHours(agg: Aggregate, start: number): void {
  const s = Math.max(0, Math.min(start, agg.labelsFrom));
  for (const units of [agg.recipients, agg.sources])
    for (const u of units.values()) {
      clearFrom(u.total, s);
      for (const hits of u.hits) if (hits) clearFrom(hits, s);
      u.labels = undefined;
    }
  for (const counts of agg.flows.values()) clearFrom(counts, s);
}

/**
 * Σ values[h] × weights[h] over the hours; 0 without values. `values` may start at hour `start` (labels): earlier hours
 * count as 0.
 */
export function weighted(values: HourCounts | undefined, weights: HourCounts, start = 0): number {
  if (!values) return 0;
  let sum = 0;
  for (let h = start; h < weights.length; h++) {
    const w = weights[h] as number;
    if (w !== 0) sum += (values[h - start] as number) * w;
  }
  return sum;
}
