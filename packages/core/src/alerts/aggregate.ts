import type { RollupRow } from '../ports/rollups';
import type { RateType } from './defaults';
import { HOUR_MS } from './windows';

/** The rate types in slot order. */
export const RATE_TYPES: readonly RateType[] = ['recipient-failure', 'recipient-skip', 'source-rejects', 'duplicate-leads', 'invalid-email', 'invalid-phone', 'missing-tf-cert', 'tf-failures'];
export const SLOT: Readonly<Record<RateType, number>> = Object.fromEntries(RATE_TYPES.map((t, i) => [t, i])) as Record<RateType, number>;
export const SOURCE_CATEGORY_TYPES: readonly RateType[] = ['duplicate-leads', 'invalid-email', 'invalid-phone', 'missing-tf-cert', 'tf-failures'];
const CATEGORY_TYPE: Readonly<Record<string, RateType>> = {
  duplicate: 'duplicate-leads',
  'invalid-email': 'invalid-email',
  'invalid-phone': 'invalid-phone',
  'missing-certificate': 'missing-tf-cert',
  'certificate-failure': 'tf-failures',
};

/** Counts of one recipient or source entity, per hour of the span. */
export interface UnitCounts {
  /** All its events (recipient steps, or the source's leads), per hour. */
  readonly total: Float64Array;
  /** Events each rate type counts as hits, per slot then hour (`slot * hours + hour`). */
  readonly hits: Float64Array;
  /** Hits by `slot|label` (flow:, kind:, outcome:, recipient:) per hour: what labels an alert. Only units with hits have it. */
  labels?: Map<string, Float64Array>;
}

/** An account's source and recipient cells folded into per-hour arrays: what every detector reads. */
export interface Aggregate {
  /** Start of the span (a whole UTC hour) and its length in hours. */
  readonly from: number;
  readonly hours: number;
  readonly recipients: Map<string, UnitCounts>;
  readonly sources: Map<string, UnitCounts>;
  /** Source events per flow, per hour (no-leads). */
  readonly flows: Map<string, Float64Array>;
}

/**
 * Folds the rows into per-hour arrays in one pass, with as little per row as
 * possible (a pass reads about a week of cells per account); weights for windows
 * are applied per hour afterwards. Labels (which flow, kind, outcome, recipient
 * the hits were) are kept only from hour `labelsFrom` on: no window reaches
 * further back. `covered(type)` says which category types are
 * enabled: a rejection one of them counts is left out of recipient-failure,
 * recipient-skip and source-rejects, so one cause raises one alert.
 */
export function aggregate(rows: readonly RollupRow[], from: number, hours: number, covered: (type: RateType) => boolean, labelsFrom = 0): Aggregate {
  const agg: Aggregate = { from, hours, recipients: new Map(), sources: new Map(), flows: new Map() };
  const hourIndex = new Map<string, number>();
  const unit = (map: Map<string, UnitCounts>, id: string): UnitCounts => {
    let u = map.get(id);
    if (!u) map.set(id, (u = { total: new Float64Array(hours), hits: new Float64Array(RATE_TYPES.length * hours) }));
    return u;
  };
  const hit = (u: UnitCounts, slot: number, h: number, n: number, row: RollupRow) => {
    const i = slot * hours + h;
    u.hits[i] = (u.hits[i] as number) + n;
    if (h < labelsFrom) return;
    const labels = [`flow:${row.flow_id}`, `kind:${row.outcome}`, `outcome:${row.outcome}`];
    // Category alerts name the step's recipient (deep links to the integration).
    if (slot >= SLOT['duplicate-leads'] && row.recipient_id !== '') labels.push(`recipient:${row.recipient_id}`);
    u.labels ??= new Map();
    for (const label of labels) {
      const key = `${slot}|${label}`;
      let arr = u.labels.get(key);
      if (!arr) u.labels.set(key, (arr = new Float64Array(hours)));
      arr[h] = (arr[h] as number) + n;
    }
  };
  // Cells arrive grouped by hour (they are written as the hour's events are recorded): remember the last one.
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
    const categoryType = row.category === '' ? undefined : CATEGORY_TYPE[row.category];
    const isCovered = categoryType !== undefined && covered(categoryType);
    const failed = !isCovered && (row.outcome === 'failure' || row.outcome === 'error');
    if (row.kind === 'recipient') {
      if (row.recipient_id !== '') {
        const u = unit(agg.recipients, row.recipient_id);
        u.total[h] = (u.total[h] as number) + n;
        if (failed) hit(u, 0, h, n, row);
        else if (!isCovered && row.outcome === 'skip') hit(u, 1, h, n, row);
      }
    } else if (row.kind === 'source') {
      const u = unit(agg.sources, row.source_id);
      u.total[h] = (u.total[h] as number) + n;
      if (failed) hit(u, 2, h, n, row);
      let f = agg.flows.get(row.flow_id);
      if (!f) agg.flows.set(row.flow_id, (f = new Float64Array(hours)));
      f[h] = (f[h] as number) + n;
    }
    if (categoryType && isCovered) hit(unit(agg.sources, row.source_id), SLOT[categoryType], h, n, row);
  }
  return agg;
}

/** Σ values[h] × weights[h] over the hours (one slot's stretch of `values` when `offset` is given). */
export function weighted(values: Float64Array, weights: Float64Array, offset = 0): number {
  let sum = 0;
  for (let h = 0; h < weights.length; h++) {
    const w = weights[h] as number;
    if (w !== 0) sum += (values[offset + h] as number) * w;
  }
  return sum;
}
