import type { Id } from '../ids';
import type { StoredAlert } from '../ports/alerts';
import { formatTime } from '../notifications/format';
import type { DetectInput, Finding } from './finding';
import { weighted } from './aggregate';
import { HOUR_MS } from './windows';

/** The key of a source's new-source alert. */
export const newSourceKey = (accountId: Id, sourceId: string): string => `new-source:${accountId}:${sourceId}`;

/**
 * The finding for the first lead of a source new to the account. It is not flow-scoped:
 * the source is new to the account, whichever flow its first lead came through, so its
 * `flow_id` is null (the spec's own example of such an alert, #19.5).
 */
export function newSourceFinding(
  accountId: Id,
  sourceId: string,
  severity: Finding['severity'],
  firstSeen: string,
  timeZone: string,
): Finding {
  return {
    type: 'new-source',
    key: newSourceKey(accountId, sourceId),
    kind: null,
    severity,
    variant: 'default',
    flow_id: null,
    entity_id: sourceId,
    recipient_id: null,
    outcome: null,
    data: { total: 1 },
    vars: { first_seen: formatTime(firstSeen, timeZone) },
    affected_today: 1,
  };
}

/**
 * The detector's side of new-source: an active alert is refreshed with the
 * source's leads today until `resolve_after_hours` have passed since it was raised.
 * (Raising it happens as the first lead is recorded, not in a pass.)
 */
export function detectNewSources(input: DetectInput): Finding[] {
  const s = input.settings.types['new-source'];
  if (!s.enabled) return [];
  const actives = [...input.active.values()].filter((a) => a.type === 'new-source');
  if (actives.length === 0) return [];
  const inToday = input.weights(input.dayStart, input.now);
  const today = new Map<string, number>();
  for (const [sourceId, u] of input.agg.sources) today.set(sourceId, Math.round(weighted(u.total, inToday)));
  return actives
    .filter((a: StoredAlert) => input.now - Date.parse(a.first_seen_at) < s.resolve_after_hours * HOUR_MS)
    .map((a) => {
      const sourceId = a.entity_id ?? '';
      const total = Math.max(today.get(sourceId) ?? 0, 1);
      return {
        ...newSourceFinding(input.accountId, sourceId, s.severity, a.first_seen_at, input.timeZone),
        data: { total },
        affected_today: today.get(sourceId) ?? 0,
      };
    });
}
