import type { StoredActivity, StoredAlert } from '@leadroute/core';
import { expect } from 'vitest';
import { anAccount, freshId } from '../fixtures';
import type { Suite } from '../harness';
import { anAlert } from '../records';

function anEntry(alert: StoredAlert, at: string, overrides: Partial<StoredActivity> = {}): StoredActivity {
  return {
    id: freshId(),
    account_id: alert.account_id,
    key: alert.key,
    at,
    kind: 'comment',
    actor: { type: 'user', id: 'u1', name: 'Ann' },
    visibility: 'customer',
    source: 'ui',
    data: { text: 'looking' },
    ...overrides,
  };
}

/** AlertStore: alerts, timelines, settings overrides, seen sources and the detector lease. */
export const alertStoreSuite: Suite = {
  name: 'AlertStore',
  cases: [
    {
      name: 'puts and reads an alert back exactly, replacing it by key, and hands out copies',
      async run({ storage }) {
        const alert = anAlert(anAccount().id);
        (await storage.alerts.put(alert))._unsafeUnwrap();
        const read = (await storage.alerts.get(alert.key))._unsafeUnwrap();
        expect(read).toEqual(alert);
        (read?.data as Record<string, number>).rate = 0;
        expect((await storage.alerts.get(alert.key))._unsafeUnwrap()?.data.rate).toBe(0.6);
        (await storage.alerts.put({ ...alert, severity: 'critical', data: { rate: 0.95, total: 41 } }))._unsafeUnwrap();
        expect((await storage.alerts.get(alert.key))._unsafeUnwrap()).toMatchObject({
          severity: 'critical',
          data: { rate: 0.95, total: 41 },
        });
        expect((await storage.alerts.get('recipient-failure:nobody:nothing'))._unsafeUnwrap()).toBeUndefined();
      },
    },
    {
      name: "lists only the account's active alerts, and names the accounts with any",
      async run({ storage }) {
        const a = anAccount().id;
        const b = anAccount().id;
        const active = anAlert(a);
        (await storage.alerts.put(active))._unsafeUnwrap();
        (
          await storage.alerts.put(anAlert(a, { status: 'resolved', resolved_at: '2026-01-15T16:00:00.000Z' }))
        )._unsafeUnwrap();
        (await storage.alerts.put(anAlert(b)))._unsafeUnwrap();
        expect((await storage.alerts.listActive(a))._unsafeUnwrap().map((x) => x.key)).toEqual([active.key]);
        const accounts = (await storage.alerts.accountsWithActive())._unsafeUnwrap();
        expect(accounts).toEqual(expect.arrayContaining([a, b]));
        const c = anAccount().id;
        (
          await storage.alerts.put(anAlert(c, { status: 'resolved', resolved_at: '2026-01-15T16:00:00.000Z' }))
        )._unsafeUnwrap();
        expect((await storage.alerts.accountsWithActive())._unsafeUnwrap()).not.toContain(c);
      },
    },
    {
      name: 'pages a timeline newest first, ties broken by ID, strictly before a cursor, filtered by kind and visibility',
      async run({ storage }) {
        const alert = anAlert(anAccount().id);
        (await storage.alerts.put(alert))._unsafeUnwrap();
        const e1 = anEntry(alert, '2026-01-15T15:00:00.000Z', { kind: 'created', source: 'collector' });
        const e2 = anEntry(alert, '2026-01-15T16:00:00.000Z', { kind: 'severity_change' });
        const e3 = anEntry(alert, '2026-01-15T16:00:00.000Z', { kind: 'message_change' });
        const e4 = anEntry(alert, '2026-01-15T17:00:00.000Z', { visibility: 'internal' });
        for (const e of [e3, e1, e4, e2]) (await storage.alerts.addActivity(e))._unsafeUnwrap();
        // Another alert's and another account's entries stay out.
        (
          await storage.alerts.addActivity(anEntry(anAlert(alert.account_id), '2026-01-15T16:30:00.000Z'))
        )._unsafeUnwrap();
        (
          await storage.alerts.addActivity({
            ...anEntry(alert, '2026-01-15T16:30:00.000Z'),
            account_id: anAccount().id,
          })
        )._unsafeUnwrap();
        const page = (q: object) =>
          storage.alerts
            .activity({ account_id: alert.account_id, key: alert.key, customerOnly: false, limit: 10, ...q })
            .map((es) => es.map((e) => e.id));
        expect((await page({}))._unsafeUnwrap()).toEqual([e4.id, e3.id, e2.id, e1.id]);
        // Entries come back exactly as stored.
        expect(
          (
            await storage.alerts.activity({
              account_id: alert.account_id,
              key: alert.key,
              customerOnly: false,
              limit: 1,
            })
          )._unsafeUnwrap(),
        ).toEqual([e4]);
        expect((await page({ limit: 2 }))._unsafeUnwrap()).toEqual([e4.id, e3.id]);
        expect((await page({ before: { at: e3.at, id: e3.id } }))._unsafeUnwrap()).toEqual([e2.id, e1.id]);
        expect((await page({ before: { at: '2026-01-15T16:00:00.000Z' } }))._unsafeUnwrap()).toEqual([e1.id]);
        expect((await page({ kind: 'severity_change' }))._unsafeUnwrap()).toEqual([e2.id]);
        expect((await page({ customerOnly: true }))._unsafeUnwrap()).toEqual([e3.id, e2.id, e1.id]);
        expect(
          (
            await storage.alerts.activity({
              account_id: anAccount().id,
              key: alert.key,
              customerOnly: false,
              limit: 10,
            })
          )._unsafeUnwrap(),
        ).toEqual([]);
      },
    },
    {
      name: 'keeps settings overrides per scope and replaces them whole',
      async run({ storage }) {
        const account = anAccount().id;
        expect((await storage.alerts.getSettings(account))._unsafeUnwrap()).toBeUndefined();
        (
          await storage.alerts.setSettings('platform', { types: { 'no-leads': { zero_run_hours: 3 } } })
        )._unsafeUnwrap();
        (await storage.alerts.setSettings(account, { enabled: false, email_to: ['a@example.com'] }))._unsafeUnwrap();
        (await storage.alerts.setSettings(account, { email_to: ['b@example.com'] }))._unsafeUnwrap();
        expect((await storage.alerts.getSettings(account))._unsafeUnwrap()).toEqual({ email_to: ['b@example.com'] });
        expect((await storage.alerts.getSettings('platform'))._unsafeUnwrap()).toEqual({
          types: { 'no-leads': { zero_run_hours: 3 } },
        });
      },
    },
    {
      name: 'marks a source seen once per account, even when marked concurrently',
      async run({ storage }) {
        const a = anAccount().id;
        const source = freshId();
        const results = await Promise.all(
          Array.from({ length: 10 }, () => storage.alerts.markSourceSeen(a, source, '2026-01-15T15:00:00.000Z')),
        );
        expect(results.map((r) => r._unsafeUnwrap()).filter(Boolean)).toHaveLength(1);
        expect((await storage.alerts.markSourceSeen(a, source, '2026-01-16T15:00:00.000Z'))._unsafeUnwrap()).toBe(
          false,
        );
        expect(
          (await storage.alerts.markSourceSeen(anAccount().id, source, '2026-01-15T15:00:00.000Z'))._unsafeUnwrap(),
        ).toBe(true);
      },
    },
    {
      name: 'gives a lease to one owner at a time until it expires or is released',
      async run({ storage }) {
        const name = `alerts:${anAccount().id}`;
        const t = (m: number) => new Date(Date.UTC(2026, 0, 15, 15, m)).toISOString();
        const first = await Promise.all(
          ['p1', 'p2', 'p3'].map((owner) => storage.alerts.tryLease(name, owner, t(0), t(5))),
        );
        const winners = first.map((r) => r._unsafeUnwrap());
        expect(winners.filter(Boolean)).toHaveLength(1);
        const owner = ['p1', 'p2', 'p3'][winners.indexOf(true)] as string;
        const other = owner === 'p1' ? 'p2' : 'p1';
        expect((await storage.alerts.tryLease(name, other, t(4), t(9)))._unsafeUnwrap()).toBe(false);
        expect((await storage.alerts.tryLease(name, owner, t(4), t(9)))._unsafeUnwrap()).toBe(true);
        // Released by someone else: still held.
        (await storage.alerts.releaseLease(name, other))._unsafeUnwrap();
        expect((await storage.alerts.tryLease(name, other, t(5), t(10)))._unsafeUnwrap()).toBe(false);
        // Expired: taken over.
        expect((await storage.alerts.tryLease(name, other, t(9), t(14)))._unsafeUnwrap()).toBe(true);
        (await storage.alerts.releaseLease(name, other))._unsafeUnwrap();
        expect((await storage.alerts.tryLease(name, owner, t(10), t(15)))._unsafeUnwrap()).toBe(true);
      },
    },
  ],
};
