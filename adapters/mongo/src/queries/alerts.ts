import type { ActivityQuery } from '@leadroute/core';
import type { Filter } from 'mongodb';
import { toDate } from '../documents';
import type { ActivityDoc, AlertDoc, LeaseDoc, SettingsDoc } from '../records-work';
import { type FindQuery, type PageQuery, type Pipeline, pageSize } from './types';

/** The alert with this key (the primary index). */
export const alertByKey = (key: string): Filter<AlertDoc> => ({ _id: key });

/** The account's active alerts, by key (`alerts_account_status`). */
export const activeAlerts = (accountId: string): FindQuery<AlertDoc> => ({
  filter: { account_id: accountId, status: 'active' },
  sort: { _id: 1 },
});

/** Accounts with an active alert, each once, in ID order (`alerts_status_account`). */
export const accountsWithActivePipeline = (): Pipeline => [
  { $match: { status: 'active' } },
  { $group: { _id: '$account_id' } },
  { $sort: { _id: 1 } },
  { $project: { _id: 0, account_id: '$_id' } },
];

/**
 * A page of one alert's timeline, newest first by time and then ID; with a cursor,
 * only entries strictly older than it (`alert_activity_key_at`).
 */
export function activityPage(q: ActivityQuery): PageQuery<ActivityDoc> {
  const before = q.before === undefined ? undefined : toDate(q.before.at);
  const older =
    before === undefined
      ? {}
      : q.before?.id === undefined
        ? { at: { $lt: before } }
        : { $or: [{ at: { $lt: before } }, { at: before, _id: { $lt: q.before.id } }] };
  return {
    filter: {
      account_id: q.account_id,
      key: q.key,
      ...(q.kind === undefined ? {} : { kind: q.kind }),
      ...(q.customerOnly ? { visibility: 'customer' as const } : {}),
      ...older,
    },
    sort: { at: -1, _id: -1 },
    limit: pageSize(q.limit),
  };
}

/** The settings overrides of one scope. */
export const settingsByScope = (scope: string): Filter<SettingsDoc> => ({ _id: scope });

/**
 * The lease while `owner` may take it: it holds it already, or it ran out at or before
 * `now`. Used with an upsert, as counters are: an absent lease is inserted; a lease
 * held by another meets `_id` and fails with a duplicate key, read as "taken".
 */
export const takeableLease = (name: string, owner: string, now: Date): Filter<LeaseDoc> => ({
  _id: name,
  $or: [{ owner }, { until: { $lte: now } }],
});

/** Gives the lease to `owner` until `until`. */
export const leaseTakeUpdate = (owner: string, until: Date) => ({ $set: { owner, until } });

/** The lease only while `owner` holds it. */
export const ownedLease = (name: string, owner: string): Filter<LeaseDoc> => ({ _id: name, owner });
