import type { AlertStore, StoredActivity, StoredAlert } from '@leadroute/core';
import { okAsync } from 'neverthrow';
import { DONE } from './done';

/** The alert store's maps; `alerts` is keyed by alert key, `activity` by alert key too. */
export interface AlertTables {
  readonly alerts: Map<string, StoredAlert>;
  readonly activity: Map<string, StoredActivity[]>;
  readonly settings: Map<string, Record<string, unknown>>;
  /** `account\u0000source` of every source an account has seen. */
  readonly seenSources: Set<string>;
  readonly leases: Map<string, { owner: string; until: string }>;
}

export function createAlertTables(): AlertTables {
  return { alerts: new Map(), activity: new Map(), settings: new Map(), seenSources: new Set(), leases: new Map() };
}

const newestFirst = (a: StoredActivity, b: StoredActivity): number =>
  a.at === b.at ? (a.id < b.id ? 1 : a.id > b.id ? -1 : 0) : a.at < b.at ? 1 : -1;

export function alertStore(t: AlertTables): AlertStore {
  return {
    put(alert) {
      t.alerts.set(alert.key, structuredClone(alert));
      return DONE;
    },
    get(key) {
      const alert = t.alerts.get(key);
      return okAsync(alert ? structuredClone(alert) : undefined);
    },
    listActive(accountId) {
      const out: StoredAlert[] = [];
      for (const alert of t.alerts.values())
        if (alert.account_id === accountId && alert.status === 'active') out.push(structuredClone(alert));
      return okAsync(out);
    },
    accountsWithActive() {
      const accounts = new Set<string>();
      for (const alert of t.alerts.values()) if (alert.status === 'active') accounts.add(alert.account_id);
      return okAsync([...accounts]);
    },
    addActivity(entry) {
      let list = t.activity.get(entry.key);
      if (!list) t.activity.set(entry.key, (list = []));
      list.push(structuredClone(entry));
      return DONE;
    },
    activity(q) {
      const before = q.before;
      const page = (t.activity.get(q.key) ?? [])
        .filter((e) => e.account_id === q.account_id)
        .filter((e) => (q.kind === undefined || e.kind === q.kind) && (!q.customerOnly || e.visibility === 'customer'))
        .filter(
          (e) => !before || e.at < before.at || (before.id !== undefined && e.at === before.at && e.id < before.id),
        )
        .sort(newestFirst)
        .slice(0, q.limit);
      return okAsync(page.map((e) => structuredClone(e)));
    },
    getSettings(scope) {
      const value = t.settings.get(scope);
      return okAsync(value ? structuredClone(value) : undefined);
    },
    setSettings(scope, overrides) {
      t.settings.set(scope, structuredClone(overrides) as Record<string, unknown>);
      return DONE;
    },
    markSourceSeen(accountId, sourceId) {
      const key = `${accountId}\u0000${sourceId}`;
      if (t.seenSources.has(key)) return okAsync(false);
      t.seenSources.add(key);
      return okAsync(true);
    },
    tryLease(name, owner, now, until) {
      const held = t.leases.get(name);
      if (held && held.owner !== owner && held.until > now) return okAsync(false);
      t.leases.set(name, { owner, until });
      return okAsync(true);
    },
    releaseLease(name, owner) {
      if (t.leases.get(name)?.owner === owner) t.leases.delete(name);
      return DONE;
    },
  };
}
