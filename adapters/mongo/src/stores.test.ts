import { anAlert, anExport, aFlow, freshId } from '@leadroute/testkit';
import { describe, expect, it, vi } from 'vitest';
import type { MongoCollections } from './collections';
import { exportDocument } from './records';
import { alertStore } from './stores/alerts';
import { counterStore } from './stores/counters';
import { exportStore } from './stores/exports';
import { flowStore } from './stores/flows';
import { jobStore } from './stores/jobs';
import { rollupStore } from './stores/rollups';
import { searchIndex } from './stores/search';

/**
 * The stores' own decisions around the driver (what a duplicate key means, going on
 * after a lost race, answering without a round trip), with the driver's collection
 * methods stubbed to answer as the server would. What the server does with the
 * documents is checked by mingo in queries.test.ts and live in mongo.test.ts.
 */
type Stubbed = { [K in keyof MongoCollections]: Record<string, (...args: never[]) => unknown> };
const collections = (stubs: Partial<Stubbed>) => stubs as unknown as MongoCollections;
const duplicateKey = (extra: object = {}) =>
  Object.assign(new Error('E11000 duplicate key error index: _id_'), { code: 11000, ...extra });
const ok = <T>(value: T) => vi.fn(async () => value);

describe('counter store', () => {
  it('counts on the upsert, and reads a duplicate key as full only when the plain update misses too', async () => {
    const raced = vi.fn().mockRejectedValueOnce(duplicateKey()).mockResolvedValueOnce({ matchedCount: 1 });
    expect(
      (
        await counterStore(collections({ counters: { updateOne: raced } })).tryIncrement(
          'k',
          5,
          '2030-01-01T00:00:00.000Z',
        )
      )._unsafeUnwrap(),
    ).toBe(true);
    expect(raced.mock.calls[0]).toHaveLength(3); // with { upsert: true }
    expect(raced.mock.calls[1]).toHaveLength(2); // without
    const full = vi.fn().mockRejectedValueOnce(duplicateKey()).mockResolvedValueOnce({ matchedCount: 0 });
    expect(
      (
        await counterStore(collections({ counters: { updateOne: full } })).tryIncrement(
          'k',
          5,
          '2030-01-01T00:00:00.000Z',
        )
      )._unsafeUnwrap(),
    ).toBe(false);
    const fresh = ok({ matchedCount: 0, upsertedCount: 1 });
    expect(
      (
        await counterStore(collections({ counters: { updateOne: fresh } })).tryIncrement(
          'k',
          5,
          '2030-01-01T00:00:00.000Z',
        )
      )._unsafeUnwrap(),
    ).toBe(true);
  });

  it('refuses a maximum of zero without a round trip, and reports other failures', async () => {
    const never = vi.fn();
    expect(
      (
        await counterStore(collections({ counters: { updateOne: never } })).tryIncrement(
          'k',
          0,
          '2030-01-01T00:00:00.000Z',
        )
      )._unsafeUnwrap(),
    ).toBe(false);
    expect(never).not.toHaveBeenCalled();
    const down = vi.fn().mockRejectedValue(new Error('not primary'));
    expect(
      (
        await counterStore(collections({ counters: { updateOne: down } })).tryIncrement(
          'k',
          3,
          '2030-01-01T00:00:00.000Z',
        )
      )._unsafeUnwrapErr(),
    ).toMatchObject({
      type: 'StorageFailure',
      message: '[leadroute] [mongo] increment counter failed: not primary',
    });
  });
});

describe('alert store leases and seen sources', () => {
  it('reads a lease’s duplicate key as taken unless the plain update matches', async () => {
    const taken = vi.fn().mockRejectedValueOnce(duplicateKey()).mockResolvedValueOnce({ matchedCount: 0 });
    const store = alertStore(collections({ leases: { updateOne: taken } }));
    expect(
      (await store.tryLease('detector', 'p2', '2026-01-15T10:00:00.000Z', '2026-01-15T10:05:00.000Z'))._unsafeUnwrap(),
    ).toBe(false);
    const seen = vi.fn().mockRejectedValueOnce(duplicateKey()).mockResolvedValueOnce({ insertedId: 'x' });
    const sources = alertStore(collections({ seenSources: { insertOne: seen } }));
    expect((await sources.markSourceSeen(freshId(), 's', '2026-01-15T10:00:00.000Z'))._unsafeUnwrap()).toBe(false);
    expect((await sources.markSourceSeen(freshId(), 's', '2026-01-15T10:00:00.000Z'))._unsafeUnwrap()).toBe(true);
  });

  it('answers stored alerts as put, and a failure as a StorageFailure', async () => {
    const alert = anAlert(freshId());
    let stored: unknown;
    const store = alertStore(
      collections({
        alerts: {
          replaceOne: vi.fn(async (_f: never, doc: never) => ((stored = doc), { matchedCount: 0 })),
          findOne: vi.fn(async () => stored),
        },
      }),
    );
    (await store.put(alert))._unsafeUnwrap();
    expect((await store.get(alert.key))._unsafeUnwrap()).toEqual(alert);
  });
});

describe('rollup store', () => {
  it('goes on from the write that lost a race to create its cell, never repeating the ones before', async () => {
    const bulkWrite = vi
      .fn()
      .mockRejectedValueOnce(duplicateKey({ writeErrors: [{ index: 1 }] }))
      .mockResolvedValueOnce({});
    const row = (count: number) => ({
      account_id: freshId(),
      hour: '2026-03-08T07:00:00.000Z',
      flow_id: freshId(),
      source_id: freshId(),
      recipient_id: '',
      step_id: '',
      kind: 'source' as const,
      outcome: 'success',
      category: '',
      stage: '',
      count,
      cost: 0,
      revenue: 0,
      purchase_price: 0,
    });
    (await rollupStore(collections({ rollups: { bulkWrite } })).add([row(1), row(2), row(3)]))._unsafeUnwrap();
    const counts = (call: number) =>
      (bulkWrite.mock.calls[call]?.[0] as { updateOne: { update: { $inc: { count: number } } } }[] | undefined)?.map(
        (w) => w.updateOne.update.$inc.count,
      );
    expect([counts(0), counts(1)]).toEqual([
      [1, 2, 3],
      [2, 3],
    ]);
    const none = vi.fn();
    (await rollupStore(collections({ rollups: { bulkWrite: none } })).add([]))._unsafeUnwrap();
    expect(none).not.toHaveBeenCalled();
    const always = vi.fn().mockRejectedValue(duplicateKey({ writeErrors: [{ index: 0 }] }));
    expect(
      (await rollupStore(collections({ rollups: { bulkWrite: always } })).add([row(1)]))._unsafeUnwrapErr().type,
    ).toBe('Conflict');
    expect(always).toHaveBeenCalledTimes(4);
  });
});

describe('other stores', () => {
  it('flows: an update from a stale version is a Conflict', async () => {
    const flow = aFlow(freshId());
    const store = flowStore(collections({ flows: { replaceOne: ok({ matchedCount: 0 }) } }));
    expect((await store.update(flow, 1))._unsafeUnwrapErr()).toMatchObject({
      type: 'Conflict',
      message: `[leadroute] [mongo] update flow: flow ${flow.id} is not at version 1.`,
    });
  });

  it('jobs: enqueuing a held (kind, id) answers enqueued: false', async () => {
    const store = jobStore(collections({ jobs: { insertOne: vi.fn().mockRejectedValue(duplicateKey()) } }));
    expect((await store.enqueue({ kind: 'export', id: 'x', dueAt: 0 }, 0))._unsafeUnwrap()).toEqual({
      enqueued: false,
    });
  });

  it('exports: an empty patch reads the export without an update', async () => {
    const e = anExport(freshId());
    const findOneAndUpdate = vi.fn();
    const store = exportStore(collections({ exports: { findOne: ok(exportDocument(e)), findOneAndUpdate } }));
    expect((await store.update(e.id, {}))._unsafeUnwrap()).toEqual(e);
    expect(findOneAndUpdate).not.toHaveBeenCalled();
  });

  it('search: no match is a total of 0 and an empty page, whatever the page asked', async () => {
    const aggregate = vi.fn(() => ({ toArray: async () => [{ total: [], page: [] }] }));
    const store = searchIndex(collections({ search: { aggregate } }));
    expect(
      (await store.search({ account_id: freshId(), terms: ['x'], phrases: [], from: 5, limit: 0 }))._unsafeUnwrap(),
    ).toEqual({ total: 0, documents: [] });
  });
});
