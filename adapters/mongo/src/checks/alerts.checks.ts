import type { StoredActivity } from '@leadroute/core';
import { anAlert, freshId } from '@leadroute/testkit';
import { describe, expect, it } from 'vitest';
import { aggregate, DuplicateKey, deleteMany, find, findOne, updateOneIn, upsertOne } from '../mingo.test-helper';
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
import { activityDocument, alertDocument, type LeaseDoc, toActivity, toAlert } from '../records-work';
import type { Checks } from './checks';

const entry = (accountId: string, key: string, at: string, over: Partial<StoredActivity> = {}): StoredActivity => ({
  id: freshId(),
  account_id: accountId,
  key,
  at,
  kind: 'comment',
  actor: { type: 'user', id: 'u1', name: 'Ada' },
  visibility: 'customer',
  source: 'ui',
  data: { text: 'hi', 'a.b': 1, $x: null },
  ...over,
});

/** What the store's tryLease does: the conditional upsert, and on a duplicate key the conditional update once more. */
function tryLease(docs: LeaseDoc[], name: string, owner: string, now: string, until: string): boolean {
  const filter = takeableLease(name, owner, new Date(now));
  const update = leaseTakeUpdate(owner, new Date(until));
  try {
    upsertOne(docs, filter, update);
    return true;
  } catch (error) {
    if (!(error instanceof DuplicateKey)) throw error;
    return updateOneIn(docs, filter, update).matchedCount > 0;
  }
}

/** Alerts, timelines, settings and leases: their builders run by mingo over documents the adapter makes. */
export function alertChecks(checks: Checks): void {
  describe('alert queries', () => {
    it('alertByKey, activeAlerts and accountsWithActivePipeline find alerts by key, per account and per status', () => {
      checks('alertByKey', 'activeAlerts', 'accountsWithActivePipeline', 'settingsByScope');
      const [a, b] = ['b'.repeat(24), 'a'.repeat(24)];
      const alerts = [
        anAlert(a),
        anAlert(a, { status: 'resolved' }),
        anAlert(a),
        anAlert(b),
        anAlert('c'.repeat(24), { status: 'resolved' }),
      ];
      const docs = alerts.map(alertDocument);
      expect(toAlert(findOne(docs, alertByKey(alerts[1]!.key))!)).toEqual(alerts[1]);
      const { filter, sort } = activeAlerts(a);
      expect(find(docs, filter, sort).map((d) => d._id)).toEqual([alerts[0]!.key, alerts[2]!.key].sort());
      expect(aggregate(docs, accountsWithActivePipeline())).toEqual([{ account_id: b }, { account_id: a }]);
      expect(
        find(
          [
            { _id: 'platform', overrides: '{}' },
            { _id: a, overrides: '{"x":1}' },
          ],
          settingsByScope(a),
        ),
      ).toEqual([{ _id: a, overrides: '{"x":1}' }]);
    });

    it('activityPage pages one alert’s timeline newest first, strictly before a cursor, by kind and visibility', () => {
      checks('activityPage');
      const account = freshId();
      const key = 'k1';
      const entries = [
        entry(account, key, '2026-01-15T10:00:00.000Z'),
        entry(account, key, '2026-01-15T11:00:00.000Z', { kind: 'ack' }),
        entry(account, key, '2026-01-15T11:00:00.000Z', { visibility: 'internal' }),
        entry(account, key, '2026-01-15T12:00:00.000+01:00'),
        entry(account, 'k2', '2026-01-15T13:00:00.000Z'),
        entry(freshId(), key, '2026-01-15T13:00:00.000Z'),
      ];
      const docs = entries.map(activityDocument);
      const page = (q: Partial<Parameters<typeof activityPage>[0]>) => {
        const { filter, sort, limit } = activityPage({
          account_id: account,
          key,
          customerOnly: false,
          limit: 10,
          ...q,
        });
        return find(docs, filter, sort)
          .slice(0, limit)
          .map((d) => entries.findIndex((e) => e.id === d._id));
      };
      // 12:00+01:00 is 11:00Z: the same time as two others, after them by ID.
      expect(page({})).toEqual([3, 2, 1, 0]);
      expect(page({ limit: 2 })).toEqual([3, 2]);
      expect(page({ customerOnly: true })).toEqual([3, 1, 0]);
      expect(page({ kind: 'ack' })).toEqual([1]);
      expect(page({ before: { at: '2026-01-15T11:00:00.000Z' } })).toEqual([0]);
      expect(page({ before: { at: '2026-01-15T11:00:00.000Z', id: entries[2]!.id } })).toEqual([1, 0]);
      expect(toActivity(docs[0]!)).toEqual(entries[0]);
    });

    it('takeableLease and leaseTakeUpdate give a lease to one owner until it runs out; ownedLease releases only the owner’s', () => {
      checks('takeableLease', 'leaseTakeUpdate', 'ownedLease');
      const docs: LeaseDoc[] = [];
      expect(tryLease(docs, 'detector', 'p1', '2026-01-15T10:00:00.000Z', '2026-01-15T10:05:00.000Z')).toBe(true);
      expect(tryLease(docs, 'detector', 'p2', '2026-01-15T10:01:00.000Z', '2026-01-15T10:06:00.000Z')).toBe(false);
      expect(tryLease(docs, 'detector', 'p1', '2026-01-15T10:02:00.000Z', '2026-01-15T10:07:00.000Z')).toBe(true);
      expect(docs).toEqual([{ _id: 'detector', owner: 'p1', until: new Date('2026-01-15T10:07:00.000Z') }]);
      expect(tryLease(docs, 'detector', 'p2', '2026-01-15T10:07:00.000Z', '2026-01-15T10:12:00.000Z')).toBe(true);
      expect(tryLease(docs, 'other', 'p1', '2026-01-15T10:07:00.000Z', '2026-01-15T10:12:00.000Z')).toBe(true);
      expect(deleteMany(docs, ownedLease('detector', 'p1'))).toEqual({ deletedCount: 0 });
      expect(deleteMany(docs, ownedLease('detector', 'p2'))).toEqual({ deletedCount: 1 });
      expect(docs.map((d) => d._id)).toEqual(['other']);
    });
  });
}
