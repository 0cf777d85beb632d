import { err, ok, type Result } from 'neverthrow';
import type { LeadrouteError } from '../errors';
import { type Id, newId } from '../ids';
import { alertMessage } from '../notifications/alert';
import type { Account } from '../ports/accounts';
import type { ActivityKind, AlertSeverity, StoredActivity, StoredAlert } from '../ports/alerts';
import type { Logger } from '../ports/logger';
import type { Notifier } from '../ports/notifier';
import type { Storage } from '../ports/storage';
import { isoTime } from '../time';
import type { AlertSettings } from './defaults';
import { type Finding, SEVERITY_RANK } from './finding';
import { renderAlertText } from './render';
import { localDay } from './windows';

/** Names of what alerts point at; a flow that is gone or disabled raises no flow-scoped alert. */
export interface AlertNames {
  flow(id: Id): Promise<{ readonly name: string; readonly enabled: boolean } | undefined>;
  entity(accountId: Id, id: string): Promise<string>;
}

export interface LifecycleDeps {
  readonly storage: Storage;
  readonly notifier?: Notifier;
  readonly logger: Logger;
  readonly names: AlertNames;
}

/** What one reconciliation did. */
export interface LifecycleCounts {
  created: number;
  refreshed: number;
  resolved: number;
  emailed: number;
}

const DETECTOR = { type: 'system', id: 'detector', name: 'Alert detector' } as const;

export const emptyCounts = (): LifecycleCounts => ({ created: 0, refreshed: 0, resolved: 0, emailed: 0 });

/**
 * Applies a pass's findings to the account's alerts, as the spec's lifecycle
 * table says: a new condition creates an alert; one that persists keeps its key
 * and first_seen_at while severity, message, detail, data and last_seen_at are
 * refreshed; with `resolveMissing`, an active alert no finding confirms is
 * resolved. Each change writes a timeline entry. Critical and serious alerts are
 * e-mailed when created and when they escalate above what was already sent.
 */
export async function reconcile(
  deps: LifecycleDeps,
  ctx: {
    account: Account;
    settings: AlertSettings;
    now: number;
    active: ReadonlyMap<string, StoredAlert>;
    findings: readonly Finding[];
    resolveMissing: boolean;
  },
  counts: LifecycleCounts = emptyCounts(),
): Promise<Result<LifecycleCounts, LeadrouteError>> {
  const { account, now } = ctx;
  const at = isoTime(now);
  const day = localDay(now, account.time_zone);
  const entry = (key: string, kind: ActivityKind, data: Record<string, unknown> | null): StoredActivity => ({
    id: newId(now),
    account_id: account.id,
    key,
    at,
    kind,
    actor: { ...DETECTOR },
    visibility: 'customer',
    source: 'collector',
    data,
  });
  const seen = new Set<string>();
  for (const finding of ctx.findings) {
    const flow = finding.flow_id ? await deps.names.flow(finding.flow_id) : undefined;
    if (finding.type === 'no-leads' && !flow?.enabled) continue;
    seen.add(finding.key);
    // An entity whose name cannot be read shows as null (templates fall back to its ID).
    const entityName = (finding.entity_id ? await deps.names.entity(account.id, finding.entity_id) : '') || null;
    const names = { entity_name: entityName, flow_name: flow?.name ?? null };
    const text = renderAlertText(ctx.settings, finding, names, { now, timeZone: account.time_zone });
    const prior = ctx.active.get(finding.key);
    const entries: StoredActivity[] = [];
    if (!prior) entries.push(entry(finding.key, 'created', { severity: finding.severity, message: text.message }));
    else {
      if (prior.severity !== finding.severity)
        entries.push(entry(finding.key, 'severity_change', { from: prior.severity, to: finding.severity }));
      if (prior.kind !== finding.kind || prior.entity_name !== names.entity_name || prior.flow_name !== names.flow_name)
        entries.push(
          entry(finding.key, 'relabel', {
            from: { kind: prior.kind, entity_name: prior.entity_name, flow_name: prior.flow_name },
            to: { kind: finding.kind, ...names },
          }),
        );
      if (prior.message !== text.message)
        entries.push(entry(finding.key, 'message_change', { from: prior.message, to: text.message }));
    }
    let alert: StoredAlert = {
      key: finding.key,
      type: finding.type,
      kind: finding.kind,
      severity: finding.severity,
      message: text.message,
      detail: text.detail,
      flow_id: finding.flow_id,
      flow_name: names.flow_name,
      entity_id: finding.entity_id,
      entity_name: names.entity_name,
      recipient_id: finding.recipient_id,
      outcome: finding.outcome,
      time_zone: account.time_zone,
      first_seen_at: prior?.first_seen_at ?? at,
      last_seen_at: at,
      data: finding.data,
      account_id: account.id,
      status: 'active',
      resolved_at: null,
      affected_today: finding.affected_today,
      affected_day: day,
      notified_severity: prior?.notified_severity ?? null,
    };
    alert = await maybeEmail(deps, ctx.settings, account, alert, prior, counts);
    const put = await deps.storage.alerts.put(alert);
    if (put.isErr()) return err(put.error);
    // Entries of one pass share `at`, and the timeline orders ties by ID: IDs drawn together and sorted keep the order
    // they were written in.
    const ids = entries.map(() => newId(now)).sort();
    for (const [i, e] of entries.entries()) {
      const added = await deps.storage.alerts.addActivity({ ...e, id: ids[i] as Id });
      if (added.isErr()) return err(added.error);
    }
    if (prior) counts.refreshed += 1;
    else counts.created += 1;
  }
  if (ctx.resolveMissing) {
    for (const alert of ctx.active.values()) {
      if (seen.has(alert.key)) continue;
      const put = await deps.storage.alerts.put({ ...alert, status: 'resolved', resolved_at: at });
      if (put.isErr()) return err(put.error);
      const added = await deps.storage.alerts.addActivity(entry(alert.key, 'resolved', { severity: alert.severity }));
      if (added.isErr()) return err(added.error);
      counts.resolved += 1;
    }
  }
  return ok(counts);
}

const EMAILED: ReadonlySet<AlertSeverity> = new Set(['critical', 'serious']);

async function maybeEmail(
  deps: LifecycleDeps,
  settings: AlertSettings,
  account: Account,
  alert: StoredAlert,
  prior: StoredAlert | undefined,
  counts: LifecycleCounts,
): Promise<StoredAlert> {
  if (!deps.notifier || !EMAILED.has(alert.severity) || !settings.types[alert.type].send_email) return alert;
  // Who is told (#19.13): the settings' email_to when they name anyone, else the account's own notification address.
  const to =
    settings.email_to.length > 0 ? settings.email_to : account.notification_email ? [account.notification_email] : [];
  if (to.length === 0) {
    deps.logger.debug(
      { key: alert.key },
      'alert e-mail has no recipient: no email_to and no account notification address',
    );
    return alert;
  }
  const sent = alert.notified_severity;
  if (sent !== null && SEVERITY_RANK[alert.severity] <= SEVERITY_RANK[sent]) return alert;
  // A warning that turns serious is an escalation too: the e-mail says from what.
  const escalated = prior !== undefined;
  const message = alertMessage({
    to,
    alert,
    event: escalated ? 'escalated' : 'created',
    ...(escalated ? { previousSeverity: prior.severity } : {}),
    accountName: account.name,
  });
  const result = await deps.notifier.send(message);
  if (result.isErr()) {
    // Not marked as sent: the next pass tries again.
    deps.logger.warn({ key: alert.key, err: result.error }, 'alert e-mail failed');
    return alert;
  }
  counts.emailed += 1;
  return { ...alert, notified_severity: alert.severity };
}
