import type { RollupRow } from '../ports/rollups';
import type { AlertSeverity } from '../ports/alerts';
import type { RateType, RateTypeSettings } from './defaults';
import { type DetectInput, type Finding, percent, round4 } from './finding';
import { cellWeight, HOUR_MS } from './windows';

const CATEGORY_TYPE: Readonly<Record<string, RateType>> = {
  duplicate: 'duplicate-leads',
  'invalid-email': 'invalid-email',
  'invalid-phone': 'invalid-phone',
  'missing-certificate': 'missing-tf-cert',
  'certificate-failure': 'tf-failures',
};
const SOURCE_CATEGORY_TYPES: readonly RateType[] = ['duplicate-leads', 'invalid-email', 'invalid-phone', 'missing-tf-cert', 'tf-failures'];

/** Counts of one detector unit (a recipient or a source) in the window, the baseline and today. */
interface Tally {
  wTotal: number;
  wHit: number;
  bTotal: number;
  bHit: number;
  todayHit: number;
  /** Window hits by sub-kind, flow, recipient and outcome: what labels the alert. */
  hitsBy?: Map<string, number>;
}

type Weights = readonly [window: number, baseline: number, today: number];

const bump = (m: Map<string, number>, key: string, n: number) => m.set(key, (m.get(key) ?? 0) + n);

function top(m: Map<string, number> | undefined, prefix: string): string | null {
  let best: string | null = null;
  let bestCount = -1;
  for (const [key, count] of m ?? []) {
    if (key.startsWith(prefix) && count > bestCount) [best, bestCount] = [key.slice(prefix.length), count];
  }
  return best;
}

function severityOf(rate: number, s: RateTypeSettings): AlertSeverity {
  for (const band of ['critical', 'serious', 'warning'] as const) {
    const at = s.bands[band];
    if (at !== undefined && rate >= at) return band;
  }
  return s.severity;
}

/**
 * The rate detectors: recipient-failure and recipient-skip per recipient entity,
 * source-rejects and the five category rejections per source entity. One pass over
 * the rows fills every type's tallies; each unit is then judged against its own
 * baseline, with hysteresis for alerts already active.
 */
export function detectRates(input: DetectInput): Finding[] {
  const { settings, now } = input;
  const types = (Object.keys(settings.types) as (keyof typeof settings.types)[]).filter(
    (t): t is RateType => t !== 'no-leads' && t !== 'new-source' && settings.types[t].enabled,
  );
  if (types.length === 0) return [];
  const enabled = new Set<RateType>(types);
  const tallies = new Map<RateType, Map<string, Tally>>(types.map((t) => [t, new Map()]));
  // Weights per hour, per window shape (types share one unless an operator changed it).
  const weightCache = new Map<string, Map<string, Weights>>();
  const hourMs = new Map<string, number>();
  const weightsFor = (type: RateType, hour: string): Weights => {
    const s = settings.types[type];
    const shape = `${s.window_minutes}:${s.baseline_days}`;
    let cache = weightCache.get(shape);
    if (!cache) weightCache.set(shape, (cache = new Map()));
    let w = cache.get(hour);
    if (!w) {
      let start = hourMs.get(hour);
      if (start === undefined) hourMs.set(hour, (start = Date.parse(hour)));
      const windowStart = now - s.window_minutes * 60_000;
      const baselineStart = windowStart - s.baseline_days * 24 * HOUR_MS;
      w = [cellWeight(start, now, windowStart, now), cellWeight(start, now, baselineStart, windowStart), cellWeight(start, now, input.dayStart, now)];
      cache.set(hour, w);
    }
    return w;
  };
  const add = (type: RateType, unit: string, row: RollupRow, total: boolean, hit: boolean, labels: readonly string[]) => {
    const map = tallies.get(type);
    if (!map) return;
    const [w, b, d] = weightsFor(type, row.hour);
    if (w === 0 && b === 0 && d === 0) return;
    let t = map.get(unit);
    if (!t) map.set(unit, (t = { wTotal: 0, wHit: 0, bTotal: 0, bHit: 0, todayHit: 0 }));
    const n = row.count;
    if (total) {
      t.wTotal += n * w;
      t.bTotal += n * b;
    }
    if (hit) {
      t.wHit += n * w;
      t.bHit += n * b;
      t.todayHit += n * d;
      if (w > 0) {
        t.hitsBy ??= new Map();
        for (const label of labels) bump(t.hitsBy, label, n * w);
      }
    }
  };

  for (const row of input.rows) {
    if (row.count === 0) continue;
    const categoryType = row.category ? CATEGORY_TYPE[row.category] : undefined;
    // A rejection an enabled category alert covers is left to it, so one cause raises one alert.
    const covered = categoryType !== undefined && enabled.has(categoryType);
    if (row.kind === 'recipient' && row.recipient_id !== '') {
      const failed = !covered && (row.outcome === 'failure' || row.outcome === 'error');
      const labels = [`flow:${row.flow_id}`];
      add('recipient-failure', row.recipient_id, row, true, failed, labels);
      add('recipient-skip', row.recipient_id, row, true, !covered && row.outcome === 'skip', labels);
    } else if (row.kind === 'source') {
      const rejected = !covered && (row.outcome === 'failure' || row.outcome === 'error');
      add('source-rejects', row.source_id, row, true, rejected, [`flow:${row.flow_id}`, `kind:${row.outcome}`]);
      // Every lead of the source is in the denominator of each category rate.
      for (const type of SOURCE_CATEGORY_TYPES) if (enabled.has(type)) add(type, row.source_id, row, true, false, []);
    }
    if (categoryType && covered) {
      const step = row.recipient_id === '' ? [] : [`recipient:${row.recipient_id}`];
      add(categoryType, row.source_id, row, false, true, [`flow:${row.flow_id}`, `outcome:${row.outcome}`, ...step]);
    }
  }

  const findings: Finding[] = [];
  for (const [type, units] of tallies) {
    const s = settings.types[type];
    for (const [unit, t] of units) {
      const key = `${type}:${input.accountId}:${unit}`;
      const rate = t.wTotal > 0 ? Math.min(1, t.wHit / t.wTotal) : 0;
      const baseline = t.bTotal > 0 ? Math.min(1, t.bHit / t.bTotal) : 0;
      const threshold = Math.max(s.min_rate, s.baseline_multiplier * baseline + s.baseline_margin);
      const fires = t.wTotal >= s.min_volume && rate >= threshold;
      const holds = input.active.has(key) && t.wTotal >= s.resolve_ratio * s.min_volume && rate >= s.resolve_ratio * threshold;
      if (!fires && !holds) continue;
      const kind = type === 'source-rejects' ? ((t.hitsBy?.get('kind:error') ?? 0) > (t.hitsBy?.get('kind:failure') ?? 0) ? 'error' : 'failure') : null;
      const isCategory = SOURCE_CATEGORY_TYPES.includes(type);
      const recipient = type === 'recipient-failure' || type === 'recipient-skip' ? unit : top(t.hitsBy, 'recipient:');
      findings.push({
        type,
        key,
        kind,
        severity: severityOf(rate, s),
        variant: kind ?? 'default',
        flow_id: top(t.hitsBy, 'flow:'),
        entity_id: unit,
        recipient_id: recipient,
        outcome: isCategory ? top(t.hitsBy, 'outcome:') : type === 'recipient-skip' ? 'skip' : null,
        data: {
          rate: round4(rate),
          baseline_rate: round4(baseline),
          total: Math.round(t.wTotal),
          count: Math.round(t.wHit),
          threshold: round4(threshold),
          baseline_total: Math.round(t.bTotal),
          window_minutes: s.window_minutes,
        },
        vars: { rate_pct: percent(rate), baseline_pct: percent(baseline) },
        affected_today: Math.round(t.todayHit),
      });
    }
  }
  return findings;
}
