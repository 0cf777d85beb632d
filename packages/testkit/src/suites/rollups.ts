import type { RollupRow } from '@leadroute/core';
import { expect } from 'vitest';
import { anAccount, aRollupRow, freshId } from '../fixtures';
import type { Suite } from '../harness';

const aRow = (accountId: string, overrides: Partial<RollupRow> = {}): RollupRow =>
  aRollupRow(accountId, { purchase_price: 2.5, ...overrides });

/** RollupStore: counters per cell, summed atomically. */
export const rollupStoreSuite: Suite = {
  name: 'RollupStore',
  cases: [
    {
      name: 'sums rows of the same cell, even when added concurrently',
      async run({ storage }) {
        const account = anAccount().id;
        await Promise.all(Array.from({ length: 20 }, () => storage.rollups.add([aRow(account, { revenue: 1.5 })])));
        const rows = (
          await storage.rollups.query({
            account_id: account,
            from: '2026-03-08T00:00:00.000Z',
            to: '2026-03-09T00:00:00.000Z',
          })
        )._unsafeUnwrap();
        expect(rows).toHaveLength(1);
        expect(rows[0]).toMatchObject({ count: 20, revenue: 30, purchase_price: 50 });
      },
    },
    {
      name: 'keeps cells apart by every dimension and filters by hour range, kind and flow',
      async run({ storage }) {
        const account = anAccount().id;
        const flow = freshId();
        (
          await storage.rollups.add([
            aRow(account),
            aRow(account, { outcome: 'failure', category: 'duplicate' }),
            aRow(account, { kind: 'conversion-received', stage: 'sold' }),
            aRow(account, { hour: '2026-03-08T09:00:00.000Z', flow_id: flow }),
            aRow(anAccount().id),
          ])
        )._unsafeUnwrap();
        const q = (extra: object) =>
          storage.rollups
            .query({ account_id: account, from: '2026-03-08T07:00:00.000Z', to: '2026-03-08T08:00:00.000Z', ...extra })
            .map((r) => r.length);
        expect((await q({}))._unsafeUnwrap()).toBe(3);
        expect((await q({ kinds: ['conversion-received'] }))._unsafeUnwrap()).toBe(1);
        expect((await q({ to: '2026-03-08T10:00:00.000Z', flow_id: flow }))._unsafeUnwrap()).toBe(1);
      },
    },
    {
      name: 'names the accounts active in a window',
      async run({ storage }) {
        const a = anAccount().id;
        const b = anAccount().id;
        (await storage.rollups.add([aRow(a), aRow(b, { hour: '2026-03-09T07:00:00.000Z' })]))._unsafeUnwrap();
        const active = (
          await storage.rollups.activeAccounts('2026-03-08T00:00:00.000Z', '2026-03-09T00:00:00.000Z')
        )._unsafeUnwrap();
        expect(active).toContain(a);
        expect(active).not.toContain(b);
      },
    },
  ],
};
