import type { RollupRow } from '@leadroute/core';
import { aRollupRow } from '@leadroute/testkit';
import { describe, expect, it } from 'vitest';
import { rollupStore } from './rollup-store';

const ACCOUNT = 'a'.repeat(24);
const at = (h: number) => new Date(Date.UTC(2026, 2, 8, h)).toISOString();
const row = (h: number, overrides: Partial<RollupRow> = {}): RollupRow =>
  aRollupRow(ACCOUNT, { hour: at(h), ...overrides });

describe('memory rollup store: the hour index', () => {
  it('answers hour ranges exactly whatever order the hours were added in', async () => {
    const store = rollupStore(new Map());
    for (const h of [5, 1, 9, 3, 7, 0, 11]) (await store.add([row(h, { count: h + 1 })]))._unsafeUnwrap();
    const hours = async (from: string, to: string) =>
      (await store.query({ account_id: ACCOUNT, from, to }))._unsafeUnwrap().map((r) => r.hour);
    expect(await hours(at(0), at(12))).toEqual([0, 1, 3, 5, 7, 9, 11].map(at));
    expect(await hours(at(3), at(9))).toEqual([3, 5, 7].map(at));
    // Bounds between stored hours, before all and after all of them.
    expect(await hours(at(2), at(4))).toEqual([at(3)]);
    expect(await hours('2026-03-08T03:30:00.000Z', at(6))).toEqual([at(5)]);
    expect(await hours('2020-01-01T00:00:00.000Z', at(1))).toEqual([at(0)]);
    expect(await hours(at(12), '2030-01-01T00:00:00.000Z')).toEqual([]);
    expect(await hours(at(4), at(4))).toEqual([]);
  });

  it('sums a cell in place: same row position, new frozen row, other cells untouched', async () => {
    const store = rollupStore(new Map());
    (
      await store.add([row(1), row(1, { outcome: 'failure' }), row(1, { kind: 'recipient', recipient_id: 'r' })])
    )._unsafeUnwrap();
    const before = (await store.query({ account_id: ACCOUNT, from: at(1), to: at(2) }))._unsafeUnwrap();
    (await store.add([row(1, { outcome: 'failure', count: 4, cost: 2 })]))._unsafeUnwrap();
    const after = (await store.query({ account_id: ACCOUNT, from: at(1), to: at(2) }))._unsafeUnwrap();
    expect(after.map((r) => r.outcome)).toEqual(before.map((r) => r.outcome));
    expect(after[1]).toMatchObject({ outcome: 'failure', count: 5, cost: (before[1]?.cost ?? 0) + 2 });
    expect(after[0]).toBe(before[0]);
    expect(Object.isFrozen(after[1])).toBe(true);
    expect(before[1]?.count).toBe(1);
  });

  it('filters kinds and flows whether an hour holds only wanted kinds or others too', async () => {
    const store = rollupStore(new Map());
    const flow = 'e'.repeat(24);
    (
      await store.add([
        row(1),
        row(1, { kind: 'recipient', recipient_id: 'r' }),
        row(2, { kind: 'ping' }),
        row(2, { kind: 'recipient', recipient_id: 'r', flow_id: flow }),
        row(3, { kind: 'conversion-received', stage: 'sold' }),
        row(3, { kind: 'odd' as RollupRow['kind'] }),
      ])
    )._unsafeUnwrap();
    const kinds = async (extra: object) =>
      (await store.query({ account_id: ACCOUNT, from: at(0), to: at(4), ...extra }))
        ._unsafeUnwrap()
        .map((r) => `${r.hour.slice(11, 13)} ${r.kind}`);
    expect(await kinds({})).toEqual([
      '01 source',
      '01 recipient',
      '02 ping',
      '02 recipient',
      '03 conversion-received',
      '03 odd',
    ]);
    expect(await kinds({ kinds: ['source', 'recipient'] })).toEqual(['01 source', '01 recipient', '02 recipient']);
    expect(await kinds({ kinds: ['conversion-received'] })).toEqual(['03 conversion-received']);
    expect(await kinds({ kinds: ['odd'] })).toEqual(['03 odd']);
    expect(await kinds({ kinds: [] })).toEqual([]);
    expect(await kinds({ flow_id: flow })).toEqual(['02 recipient']);
    expect(await kinds({ kinds: ['source', 'recipient'], flow_id: 'f'.repeat(24) })).toEqual([
      '01 source',
      '01 recipient',
    ]);
  });

  it('names an account active only with a cell inside [from, to)', async () => {
    const store = rollupStore(new Map());
    const other = 'b'.repeat(24);
    (await store.add([row(2), row(8), aRollupRow(other, { hour: at(5) })]))._unsafeUnwrap();
    const active = async (from: number, to: number) =>
      (await store.activeAccounts(at(from), at(to)))._unsafeUnwrap().sort();
    expect(await active(3, 5)).toEqual([]);
    expect(await active(3, 6)).toEqual([other]);
    expect(await active(2, 3)).toEqual([ACCOUNT]);
    expect(await active(0, 2)).toEqual([]);
    expect(await active(0, 24)).toEqual([ACCOUNT, other]);
  });
});
