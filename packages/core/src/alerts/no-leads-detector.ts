import { isoTime } from '../time';
import { formatTime } from '../notifications/format';
import type { DetectInput, Finding } from './finding';
import { weighted } from './aggregate';
import { HOUR_MS, weeksEarlier } from './windows';

/** Prefix of a flow's no-leads keys; the run's start (ISO) follows it. */
export const noLeadsPrefix = (accountId: string, flowId: string): string => `no-leads:${accountId}:${flowId}:`;

/** How many weeks of the baseline span hold the same hours of the week (at least one). */
export const baselineWeeks = (baselineDays: number): number => Math.max(1, Math.floor(baselineDays / 7));

/**
 * no-leads: per flow, the silent run since the last hour with a source event. It
 * fires when the run reaches `zero_run_hours` and the flow usually gets at least
 * `min_baseline_per_hour` leads an hour over the same hours of the week; once
 * raised it lasts as long as the run does, turning critical after
 * `critical_after_hours`. The key carries the run's start.
 */
export function detectNoLeads(input: DetectInput): Finding[] {
  const s = input.settings.types['no-leads'];
  if (!s.enabled) return [];
  const { now, timeZone } = input;
  const runMs = s.zero_run_hours * HOUR_MS;
  const weeks = baselineWeeks(s.baseline_days);
  const windows = Array.from({ length: weeks }, (_, i) =>
    input.weights(weeksEarlier(now - runMs, i + 1, timeZone), weeksEarlier(now, i + 1, timeZone)),
  );
  const { agg } = input;
  const flows = new Map<string, { lastActive: number; expected: number }>();
  for (const [flowId, counts] of agg.flows) {
    let last = counts.length - 1;
    while (last >= 0 && (counts[last] as number) <= 0) last -= 1;
    let expected = 0;
    for (const w of windows) expected += weighted(counts, w);
    flows.set(flowId, { lastActive: last < 0 ? -Infinity : agg.from + last * HOUR_MS, expected });
  }
  // Active runs of flows that had no source event at all within the span still hold.
  for (const alert of input.active.values()) {
    if (alert.type === 'no-leads' && alert.flow_id && !flows.has(alert.flow_id))
      flows.set(alert.flow_id, { lastActive: -Infinity, expected: 0 });
  }

  const findings: Finding[] = [];
  for (const [flowId, t] of flows) {
    const prefix = noLeadsPrefix(input.accountId, flowId);
    const activeRun = [...input.active.values()].find((a) => a.key.startsWith(prefix));
    const activeStart = activeRun ? Date.parse(activeRun.key.slice(prefix.length)) : undefined;
    const expectedPerHour =
      activeRun && t.expected === 0 ? (activeRun.data.expected_per_hour ?? 0) : t.expected / (weeks * s.zero_run_hours);
    let runStart: number;
    if (activeStart !== undefined && t.lastActive < activeStart)
      runStart = activeStart; // the same run goes on
    else {
      if (!Number.isFinite(t.lastActive)) continue;
      runStart = t.lastActive + HOUR_MS;
      if (now - runStart < runMs || expectedPerHour < s.min_baseline_per_hour) continue;
    }
    const silentMs = now - runStart;
    const silentToday = Math.max(0, now - Math.max(runStart, input.dayStart)) / HOUR_MS;
    findings.push({
      type: 'no-leads',
      key: prefix + isoTime(runStart),
      kind: null,
      severity: silentMs >= s.critical_after_hours * HOUR_MS ? 'critical' : s.severity,
      variant: 'default',
      flow_id: flowId,
      entity_id: null,
      recipient_id: null,
      outcome: null,
      data: {
        total: 0,
        hours_silent: Math.round((silentMs / HOUR_MS) * 10) / 10,
        expected_per_hour: Math.round(expectedPerHour * 10) / 10,
      },
      vars: { since: formatTime(isoTime(runStart), timeZone) },
      // Leads the silence cost today: what the flow usually gets over the silent hours since midnight.
      affected_today: Math.round(expectedPerHour * silentToday),
    });
  }
  return findings;
}
