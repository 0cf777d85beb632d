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

  it('says which hours of an account had cells added since a mark, within [from, to)', async () => {
    const store = rollupStore(new Map());
    const other = 'b'.repeat(24);
    const changed = async (since: number, from = 0, to = 24) =>
      (await store.changedHours?.(ACCOUNT, at(from), at(to), since))?._unsafeUnwrap();
    (await store.add([row(1), row(3), row(5)]))._unsafeUnwrap();
    const first = await changed(0);
    expect(first?.hours).toEqual([1, 3, 5].map(at));
    const mark = first?.mark ?? 0;
    expect((await changed(mark))?.hours).toEqual([]);
    // Another account's cells, and summing into an existing cell, count for their own hours only.
    (await store.add([aRollupRow(other, { hour: at(2) }), row(3), row(7, { outcome: 'failure' })]))._unsafeUnwrap();
    const second = await changed(mark);
    expect(second?.hours).toEqual([3, 7].map(at));
    expect((await changed(mark, 4, 7))?.hours).toEqual([]);
    expect((await changed(mark, 4, 8))?.hours).toEqual([at(7)]);
    expect(second?.mark).toBeGreaterThan(mark);
    expect((await changed(second?.mark ?? 0))?.hours).toEqual([]);
    // An account without cells has changed nowhere; a mark beyond any answers nothing.
    expect((await store.changedHours?.('c'.repeat(24), at(0), at(24), 0))?._unsafeUnwrap().hours).toEqual([]);
    expect((await changed(Number.MAX_SAFE_INTEGER))?.hours).toEqual([]);
  });

  it('answers changed hours alike from its log of changes and, for a mark older than the log keeps, from a scan', async () => {
    const store = rollupStore(new Map());
    const changed = async (since: number) =>
      (await store.changedHours?.(ACCOUNT, at(0), at(48), since))?._unsafeUnwrap();
    (await store.add([row(0)]))._unsafeUnwrap();
    const start = (await changed(0))?.mark ?? 0;
    // 1,500 adds over 48 hours (hour = i mod 48), one at a time: more changes than the log keeps.
    const marks: number[] = [];
    for (let i = 0; i < 1500; i++) {
      (await store.add([row(i % 48, { step_id: `s${i % 5}` })]))._unsafeUnwrap();
      marks.push((await changed(Number.MAX_SAFE_INTEGER))?.mark ?? 0);
    }
    const expected = (since: number) => [...new Set(marks.flatMap((m, i) => (m > since ? [at(i % 48)] : [])))].sort();
    for (const since of [start, marks[100] ?? 0, marks[1400] ?? 0, marks[1490] ?? 0, marks[1499] ?? 0])
      expect((await changed(since))?.hours).toEqual(expected(since));
  });

  it('finds a cell to sum into whether its hour is scanned (few cells) or indexed (many)', async () => {
    const store = rollupStore(new Map());
    // 40 distinct cells in one hour: the first 31 are found by a scan, then the hour gets its index.
    const cells = Array.from({ length: 40 }, (_, i) =>
      row(1, { step_id: `s${i}`, kind: 'recipient', recipient_id: 'r' }),
    );
    for (let round = 1; round <= 3; round++) {
      for (const c of cells) (await store.add([{ ...c, count: 1 }]))._unsafeUnwrap();
      const rows = (await store.query({ account_id: ACCOUNT, from: at(1), to: at(2) }))._unsafeUnwrap();
      expect(rows.map((r) => r.step_id)).toEqual(cells.map((c) => c.step_id));
      expect(rows.every((r) => r.count === round)).toBe(true);
    }
    // Cells differing in one dimension only stay apart.
    (await store.add([row(2), row(2, { stage: 'sold' }), row(2, { category: 'duplicate' }), row(2)]))._unsafeUnwrap();
    const hour2 = (await store.query({ account_id: ACCOUNT, from: at(2), to: at(3) }))._unsafeUnwrap();
    expect(hour2.map((r) => [r.stage, r.category, r.count])).toEqual([
      ['', '', 2],
      ['sold', '', 1],
      ['', 'duplicate', 1],
    ]);
  });
});
