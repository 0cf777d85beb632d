import type { AlertSeverity } from '../ports/alerts';
import { type HourCounts, RATE_TYPES, SLOT, SOURCE_CATEGORY_TYPES, type UnitCounts, weighted } from './aggregate';
import type { RateTypeSettings } from './defaults';
import { type DetectInput, type Finding, percent, round4 } from './finding';
import { HOUR_MS } from './windows';

function severityOf(rate: number, s: RateTypeSettings): AlertSeverity {
  for (const band of ['critical', 'serious', 'warning'] as const) {
    const at = s.bands[band];
    if (at !== undefined && rate >= at) return band;
  }
  return s.severity;
}

/** The label with most window hits among a unit's `slot|name:` labels. */
function top(u: UnitCounts, slot: number, name: string, window: HourCounts, labelsFrom: number): string | null {
  const prefix = `${slot}|${name}:`;
  let best: string | null = null;
  let bestCount = 0;
  for (const [key, counts] of u.labels ?? []) {
    if (!key.startsWith(prefix)) continue;
    const count = weighted(counts, window, labelsFrom);
    if (count > bestCount) [best, bestCount] = [key.slice(prefix.length), count];
  }
  return best;
}

/**
 * The rate detectors: recipient-failure and recipient-skip per recipient entity,
 * source-rejects and the five category rejections per source entity. Each unit is
 * judged against its own baseline: it fires with at least `min_volume` leads in
 * the window and a rate of at least max(`min_rate`, `baseline_multiplier` ×
 * baseline + `baseline_margin`); an active alert holds until the rate falls below
 * `resolve_ratio` of that (hysteresis).
 */
export function detectRates(input: DetectInput): Finding[] {
  const { settings, now, agg } = input;
  const findings: Finding[] = [];
  for (const type of RATE_TYPES) {
    const s = settings.types[type];
    if (!s.enabled) continue;
    const slot = SLOT[type];
    const windowStart = now - s.window_minutes * 60_000;
    const baselineStart = windowStart - s.baseline_days * 24 * HOUR_MS;
    const inWindow = input.weights(windowStart, now);
    const inBaseline = input.weights(baselineStart, windowStart);
    const today = input.weights(input.dayStart, now);
    const isRecipient = slot < 2;
    const isCategory = SOURCE_CATEGORY_TYPES.includes(type);
    for (const [unit, u] of isRecipient ? agg.recipients : agg.sources) {
      const key = `${type}:${input.accountId}:${unit}`;
      const hits = u.hits[slot];
      const wHit = weighted(hits, inWindow);
      const active = input.active.has(key);
      if (wHit === 0 && !active) continue;
      const wTotal = weighted(u.total, inWindow);
      const bTotal = weighted(u.total, inBaseline);
      const rate = wTotal > 0 ? Math.min(1, wHit / wTotal) : 0;
      const baseline = bTotal > 0 ? Math.min(1, weighted(hits, inBaseline) / bTotal) : 0;
      const threshold = Math.max(s.min_rate, s.baseline_multiplier * baseline + s.baseline_margin);
      const fires = wTotal >= s.min_volume && rate >= threshold;
      const holds = active && wTotal >= s.resolve_ratio * s.min_volume && rate >= s.resolve_ratio * threshold;
      if (!fires && !holds) continue;
      const kind =
        type === 'source-rejects'
          ? top(u, slot, 'kind', inWindow, agg.labelsFrom) === 'error'
            ? 'error'
            : 'failure'
          : null;
      findings.push({
        type,
        key,
        kind,
        severity: severityOf(rate, s),
        variant: kind ?? 'default',
        flow_id: top(u, slot, 'flow', inWindow, agg.labelsFrom),
        entity_id: unit,
        recipient_id: isRecipient ? unit : top(u, slot, 'recipient', inWindow, agg.labelsFrom),
        outcome: isCategory
          ? top(u, slot, 'outcome', inWindow, agg.labelsFrom)
          : type === 'recipient-skip'
            ? 'skip'
            : null,
        data: {
          rate: round4(rate),
          baseline_rate: round4(baseline),
          total: Math.round(wTotal),
          count: Math.round(wHit),
          threshold: round4(threshold),
          baseline_total: Math.round(bTotal),
          window_minutes: s.window_minutes,
        },
        vars: { rate_pct: percent(rate), baseline_pct: percent(baseline) },
        affected_today: Math.round(weighted(hits, today)),
      });
    }
  }
  return findings;
}
