import type { AlertStore } from '@leadroute/core';
import { errAsync, okAsync } from 'neverthrow';
import type { MongoCollections } from '../collections';
import { toDate } from '../documents';
import { attempt, isDuplicateKey } from '../errors';
import { fromJson, toJson } from '../json';
import {
  accountsWithActivePipeline,
  activeAlerts,
  activityPage,
  alertByKey,
  leaseTakeUpdate,
  ownedLease,
  settingsByScope,
  takeableLease,
} from '../queries';
import { activityDocument, alertDocument, seenSourceDocument, toActivity, toAlert } from '../records-work';

type AlertCollections = Pick<MongoCollections, 'alerts' | 'alertActivity' | 'alertSettings' | 'seenSources' | 'leases'>;

/**
 * Alerts (by key), their timelines, settings overrides, seen sources and named
 * leases. `markSourceSeen` is an insert whose `_id` is the (account, source) pair:
 * true for the one insert that lands. `tryLease` is a conditional upsert like the
 * counters': a lease held by another owner makes the insert meet its `_id`, and
 * that duplicate key, checked once more without the upsert, means "taken".
 */
export function alertStore(c: AlertCollections): AlertStore {
  return {
    put: (alert) =>
      attempt('put alert', () =>
        c.alerts.replaceOne(alertByKey(alert.key), alertDocument(alert), { upsert: true }),
      ).map(() => undefined),
    get: (key) =>
      attempt('get alert', async () => {
        const doc = await c.alerts.findOne(alertByKey(key));
        return doc ? toAlert(doc) : undefined;
      }),
    listActive: (accountId) =>
      attempt('list active alerts', async () => {
        const { filter, sort } = activeAlerts(accountId);
        return (await c.alerts.find(filter).sort(sort).toArray()).map(toAlert);
      }),
    accountsWithActive: () =>
      attempt('list accounts with active alerts', async () =>
        (await c.alerts.aggregate<{ account_id: string }>(accountsWithActivePipeline()).toArray()).map(
          (d) => d.account_id,
        ),
      ),
    addActivity: (entry) =>
      attempt('add alert activity', () => c.alertActivity.insertOne(activityDocument(entry))).map(() => undefined),
    activity: (q) =>
      attempt('page alert activity', async () => {
        const { filter, sort, limit } = activityPage(q);
        if (limit === 0) return [];
        return (await c.alertActivity.find(filter).sort(sort).limit(limit).toArray()).map(toActivity);
      }),
    getSettings: (scope) =>
      attempt('get alert settings', async () => {
        const doc = await c.alertSettings.findOne(settingsByScope(scope));
        return doc ? fromJson<Record<string, unknown>>(doc.overrides) : undefined;
      }),
    setSettings: (scope, overrides) =>
      attempt('set alert settings', () =>
        c.alertSettings.replaceOne(settingsByScope(scope), { overrides: toJson(overrides) }, { upsert: true }),
      ).map(() => undefined),
    markSourceSeen: (accountId, sourceId, at) =>
      attempt('mark source seen', () => c.seenSources.insertOne(seenSourceDocument(accountId, sourceId, at)))
        .map(() => true)
        .orElse((error) => (error.type === 'Conflict' ? okAsync(false) : errAsync(error))),
    tryLease: (name, owner, now, until) =>
      attempt('take lease', async () => {
        const filter = takeableLease(name, owner, toDate(now));
        const update = leaseTakeUpdate(owner, toDate(until));
        try {
          await c.leases.updateOne(filter, update, { upsert: true });
          return true;
        } catch (error) {
          if (!isDuplicateKey(error)) throw error;
          return (await c.leases.updateOne(filter, update)).matchedCount > 0;
        }
      }),
    releaseLease: (name, owner) =>
      attempt('release lease', () => c.leases.deleteOne(ownedLease(name, owner))).map(() => undefined),
  };
}
