import type { SpoolEntry } from '@leadroute/core';
import { anAccount, anAlias, anApiKey, anEntity, freshId } from '@leadroute/testkit';
import { describe, expect, it } from 'vitest';
import {
  accountDocument,
  aliasDocument,
  apiKeyDocument,
  entityDocument,
  type SpoolDoc,
  spoolDocument,
} from './documents';
import { alertChecks } from './checks/alerts.checks';
import { recordChecks } from './checks/records.checks';
import { statsChecks } from './checks/stats.checks';
import { idempotencyChecks } from './checks/idempotency.checks';
import { workChecks } from './checks/work.checks';
import { countDocuments, deleteMany, find, findOne, findOneAndUpdate, updateOneIn } from './mingo.test-helper';
import * as queries from './queries';
import {
  accountById,
  accountsByEmail,
  aliasById,
  aliasesByAccount,
  apiKeyByHash,
  apiKeysOfAccount,
  deliveredBefore,
  deliveredUpdate,
  dueSpoolItems,
  entitiesByOwner,
  entityById,
  escapeRegex,
  leasedSpoolItem,
  leaseUpdate,
  pendingSpoolItem,
  rescheduleUpdate,
  spoolCount,
} from './queries';

// Every query, update and sort document the stores send is executed here by mingo
// over documents made by the adapter's own document builders, so what is checked is
// what the adapter would store and ask. `checked` proves no builder is left out.
const checked = new Set<string>();
const checks = (...names: (keyof typeof queries)[]) => {
  for (const n of names) checked.add(n);
};

describe('account queries', () => {
  it('accountById finds exactly the account with that ID', () => {
    checks('accountById');
    const [a, b] = [anAccount(), anAccount()].map(accountDocument);
    expect(find([a!, b!], accountById(b!._id))).toEqual([b]);
    expect(find([a!, b!], accountById(freshId()))).toEqual([]);
  });

  it('accountsByEmail finds the accounts with exactly that notification address', () => {
    checks('accountsByEmail');
    const [a, b, c] = [
      anAccount({ notification_email: 'ops@east.example' }),
      anAccount({ notification_email: 'ops@west.example' }),
      anAccount(),
    ].map(accountDocument);
    expect(find([a!, b!, c!], accountsByEmail('ops@west.example'))).toEqual([b]);
    expect(find([a!, b!, c!], accountsByEmail('nobody@east.example'))).toEqual([]);
  });

  it('apiKeyByHash matches the whole hash, case and all', () => {
    checks('apiKeyByHash');
    const key = apiKeyDocument(anApiKey(freshId(), { hash: 'ab'.repeat(32) }));
    const other = apiKeyDocument(anApiKey(freshId()));
    expect(findOne([other, key], apiKeyByHash(key.hash))).toEqual(key);
    expect(findOne([other, key], apiKeyByHash(key.hash.toUpperCase()))).toBeNull();
    expect(findOne([other, key], apiKeyByHash(key.hash.slice(0, 10)))).toBeNull();
  });

  it("#21.10 apiKeysOfAccount finds only the account's keys", () => {
    checks('apiKeysOfAccount');
    const account = freshId();
    const mine = [anApiKey(account), anApiKey(account)].map(apiKeyDocument);
    const other = apiKeyDocument(anApiKey(freshId()));
    expect(find([mine[0]!, other, mine[1]!], apiKeysOfAccount(account))).toEqual(mine);
  });
});

describe('entity queries', () => {
  it('entityById finds exactly the entity with that ID', () => {
    checks('entityById');
    const docs = [anEntity(freshId()), anEntity(freshId())].map(entityDocument);
    expect(find(docs, entityById(docs[0]!._id))).toEqual([docs[0]]);
  });

  it("entitiesByOwner lists only the owner's entities by creation time, then ID", () => {
    checks('entitiesByOwner');
    const mine = freshId();
    const first = anEntity(mine, { name: 'first', created_at: '2026-01-01T00:00:00.000Z' });
    // Written with an offset: compared as a time, it is the earliest.
    const earliest = anEntity(mine, { name: 'earliest', created_at: '2026-01-01T00:30:00.000+01:00' });
    const tieLow = anEntity(mine, {
      name: 'tie-low',
      id: `${'0'.repeat(23)}1`,
      created_at: '2026-02-01T00:00:00.000Z',
    });
    const tieHigh = anEntity(mine, {
      name: 'tie-high',
      id: `${'f'.repeat(23)}1`,
      created_at: '2026-02-01T00:00:00.000Z',
    });
    const theirs = anEntity(freshId(), { name: 'theirs', created_at: '2025-01-01T00:00:00.000Z' });
    const docs = [tieHigh, theirs, first, tieLow, earliest].map(entityDocument);
    const { filter, sort } = entitiesByOwner(mine);
    expect(find(docs, filter, sort).map((d) => d.name)).toEqual(['earliest', 'first', 'tie-low', 'tie-high']);
    expect(find(docs, entitiesByOwner(freshId()).filter)).toEqual([]);
  });
});

describe('alias queries', () => {
  it('aliasById finds exactly the alias with that ID', () => {
    checks('aliasById');
    const docs = [anAlias(freshId(), freshId()), anAlias(freshId(), freshId())].map(aliasDocument);
    expect(find(docs, aliasById(docs[1]!._id))).toEqual([docs[1]]);
    expect(find(docs, aliasById(freshId()))).toEqual([]);
  });

  it("aliasesByAccount lists only the account's aliases, oldest first", () => {
    checks('aliasesByAccount');
    const mine = freshId();
    const a = anAlias(mine, freshId(), { entity_alias: 'A' });
    const x = anAlias(freshId(), freshId(), { entity_alias: 'X' });
    const b = anAlias(mine, freshId(), { entity_alias: 'B' });
    const { filter, sort } = aliasesByAccount(mine);
    expect(find([b, x, a].map(aliasDocument), filter, sort).map((d) => d.entity_alias)).toEqual(['A', 'B']);
  });
});

const T0 = Date.UTC(2025, 0, 15, 12);
let seq = 0;
/** A spool document as `enqueue` writes it, with the ObjectId the driver would add standing in as a growing number. */
const spooled = (
  key: string,
  entry: Partial<SpoolEntry> = {},
  extra: Partial<SpoolDoc> = {},
): SpoolDoc & { _id: number } => ({
  _id: seq++,
  ...spoolDocument(
    { target: 'firehose:aws:a', key, payload: '{}', route: { bucket: 'a' }, dueAt: T0, ...entry },
    { nowMs: T0 },
  ),
  ...extra,
});

describe('spool queries', () => {
  it('dueSpoolItems picks pending, due items nobody holds, oldest due first, then by insertion', () => {
    checks('dueSpoolItems');
    const docs = [
      spooled('late', { dueAt: T0 + 200 }),
      spooled('tie-first', { dueAt: T0 + 100 }),
      spooled('tie-second', { dueAt: T0 + 100 }),
      spooled('future', { dueAt: T0 + 10_000 }),
      spooled('delivered', {}, { delivered_at: new Date(T0) }),
      spooled('held', {}, { lease_id: 'l1', leased_until: new Date(T0 + 1001) }),
      spooled('lease-ran-out', {}, { lease_id: 'l2', leased_until: new Date(T0 + 1000) }),
      spooled('lease-null', {}, { lease_id: null, leased_until: null }),
    ];
    const { filter, sort } = dueSpoolItems(T0 + 1000);
    expect(find(docs, filter, sort).map((d) => d.key)).toEqual([
      'lease-ran-out',
      'lease-null',
      'tie-first',
      'tie-second',
      'late',
    ]);
  });

  it('dueSpoolItems matches a target prefix anchored and literally', () => {
    checks('escapeRegex');
    const docs = [
      spooled('a', { target: 'firehose:aws:b' }),
      spooled('b', { target: 'exports:firehose:x' }),
      spooled('c', { target: 'fireh.se:x' }),
      spooled('d', { target: 'firehXse:x' }),
    ];
    expect(find(docs, dueSpoolItems(T0, 'firehose:').filter).map((d) => d.key)).toEqual(['a']);
    expect(find(docs, dueSpoolItems(T0, 'fireh.se').filter).map((d) => d.key)).toEqual(['c']);
    expect(find(docs, dueSpoolItems(T0, '').filter)).toHaveLength(4);
    expect(new RegExp(`^${escapeRegex('a+b(c)[d]$^*?.{1}|\\')}$`).test('a+b(c)[d]$^*?.{1}|\\')).toBe(true);
  });

  it('leaseUpdate, applied as findOneAndUpdate does, hands each item to one lease until it runs out', () => {
    checks('leaseUpdate');
    const docs = [spooled('second', { dueAt: T0 + 1 }), spooled('first')];
    const take = (now: number, leaseId: string) => {
      const { filter, sort } = dueSpoolItems(now);
      return findOneAndUpdate(docs, filter, leaseUpdate(leaseId, now + 30_000), sort);
    };
    expect(take(T0 + 10, 'L1')).toMatchObject({ key: 'first', lease_id: 'L1', leased_until: new Date(T0 + 30_010) });
    expect(take(T0 + 10, 'L2')).toMatchObject({ key: 'second', lease_id: 'L2' });
    expect(take(T0 + 10, 'L3')).toBeNull();
    expect(take(T0 + 30_010, 'L4')).toMatchObject({
      key: 'first',
      lease_id: 'L4',
      leased_until: new Date(T0 + 60_010),
    });
  });

  it('pendingSpoolItem and deliveredUpdate settle the item once, whoever holds it, and drop the lease', () => {
    checks('pendingSpoolItem', 'deliveredUpdate');
    const docs = [
      spooled('a', {}, { lease_id: 'L9', leased_until: new Date(T0 + 5) }),
      spooled('a', { target: 'other' }),
    ];
    expect(
      updateOneIn(docs, pendingSpoolItem({ target: 'firehose:aws:a', key: 'a' }), deliveredUpdate(T0 + 7)),
    ).toEqual({ matchedCount: 1 });
    expect(docs[0]).toMatchObject({ delivered_at: new Date(T0 + 7) });
    expect(docs[0]).not.toHaveProperty('lease_id');
    expect(docs[0]).not.toHaveProperty('leased_until');
    expect(docs[1]?.delivered_at).toBeNull();
    // Delivered already: the second settlement changes nothing, not even the time.
    expect(
      updateOneIn(docs, pendingSpoolItem({ target: 'firehose:aws:a', key: 'a' }), deliveredUpdate(T0 + 99)),
    ).toEqual({ matchedCount: 0 });
    expect(docs[0]?.delivered_at).toEqual(new Date(T0 + 7));
  });

  it('leasedSpoolItem and rescheduleUpdate count the attempt only under the current lease', () => {
    checks('leasedSpoolItem', 'rescheduleUpdate');
    const docs = [
      spooled('a', {}, { attempts: 2, last_error: 'first', lease_id: 'L2', leased_until: new Date(T0 + 5) }),
    ];
    const ref = { target: 'firehose:aws:a', key: 'a', leaseId: 'L1' };
    expect(updateOneIn(docs, leasedSpoolItem(ref), rescheduleUpdate({ dueAt: T0 + 60_000, error: 'late' }))).toEqual({
      matchedCount: 0,
    });
    expect(docs[0]).toMatchObject({ attempts: 2, last_error: 'first', lease_id: 'L2' });
    expect(
      updateOneIn(docs, leasedSpoolItem({ ...ref, leaseId: 'L2' }), rescheduleUpdate({ dueAt: T0 + 60_000 })),
    ).toEqual({ matchedCount: 1 });
    expect(docs[0]).toMatchObject({ attempts: 3, due_at: new Date(T0 + 60_000), last_error: 'first' });
    expect(docs[0]).not.toHaveProperty('lease_id');
    expect(docs[0]).not.toHaveProperty('leased_until');
    // Released: it is due again at its new time, and a new error replaces the old one.
    expect(find(docs, dueSpoolItems(T0 + 60_000).filter)).toHaveLength(1);
    docs[0] = { ...docs[0]!, lease_id: 'L3', leased_until: new Date(T0 + 70_000) };
    updateOneIn(docs, leasedSpoolItem({ ...ref, leaseId: 'L3' }), rescheduleUpdate({ dueAt: T0, error: 'still down' }));
    expect(docs[0]).toMatchObject({ attempts: 4, last_error: 'still down' });
    // Delivered items are never rescheduled, even by the lease that took them.
    const delivered = [spooled('d', {}, { lease_id: 'L5', delivered_at: new Date(T0) })];
    expect(
      updateOneIn(
        delivered,
        leasedSpoolItem({ target: 'firehose:aws:a', key: 'd', leaseId: 'L5' }),
        rescheduleUpdate({ dueAt: T0 }),
      ),
    ).toEqual({ matchedCount: 0 });
  });

  it('spoolCount counts pending by default, delivered on request, optionally for one target', () => {
    checks('spoolCount');
    const docs = [
      spooled('p1'),
      spooled('p2', { target: 'x' }),
      spooled('d1', {}, { delivered_at: new Date(T0) }),
      spooled('d2', { target: 'x' }, { delivered_at: new Date(T0) }),
      spooled('d3', { target: 'x' }, { delivered_at: new Date(T0) }),
    ];
    expect(countDocuments(docs, spoolCount())).toBe(2);
    expect(countDocuments(docs, spoolCount({ state: 'pending', target: 'x' }))).toBe(1);
    expect(countDocuments(docs, spoolCount({ state: 'delivered' }))).toBe(3);
    expect(countDocuments(docs, spoolCount({ state: 'delivered', target: 'x' }))).toBe(2);
    // A document written without the field at all (by hand, or by an older release) is pending too.
    const { delivered_at: _, ...bare } = spooled('bare');
    expect(countDocuments<SpoolDoc>([bare], spoolCount())).toBe(1);
  });

  it('deliveredBefore removes only tombstones delivered before the time', () => {
    checks('deliveredBefore');
    const { delivered_at: _, ...bare } = spooled('bare');
    const docs: SpoolDoc[] = [
      spooled('early', {}, { delivered_at: new Date(T0 + 10) }),
      spooled('late', {}, { delivered_at: new Date(T0 + 20) }),
      spooled('pending'),
      bare,
    ];
    expect(deleteMany(docs, deliveredBefore(T0 + 15))).toEqual({ deletedCount: 1 });
    expect(docs.map((d) => d.key)).toEqual(['late', 'pending', 'bare']);
  });
});

recordChecks(checks);
workChecks(checks);
idempotencyChecks(checks);
statsChecks(checks);
alertChecks(checks);

describe('coverage', () => {
  it('executes every query builder the adapter exports', () => {
    const builders = Object.entries(queries)
      .filter(([, value]) => typeof value === 'function')
      .map(([name]) => name);
    expect(builders.length).toBeGreaterThan(0);
    expect(builders.filter((name) => !checked.has(name))).toEqual([]);
  });
});
