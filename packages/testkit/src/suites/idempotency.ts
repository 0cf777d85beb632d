import type { IdempotencyRecord } from '@leadroute/core';
import { expect } from 'vitest';
import { freshId } from '../fixtures';
import type { Suite } from '../types';

const T0 = '2026-03-01T12:00:00.000Z';
const DAY_LATER = '2026-03-02T12:00:00.000Z';

const aClaim = (key = `k-${freshId()}`): Omit<IdempotencyRecord, 'answer'> => ({
  account_id: freshId(),
  flow_id: freshId(),
  source_id: freshId(),
  key,
  fingerprint: 'f1',
  created_at: T0,
  expires_at: DAY_LATER,
});

/** IdempotencyStore: the `Idempotency-Key` records of lead intake. */
export const idempotencyStoreSuite: Suite = {
  name: 'IdempotencyStore',
  cases: [
    {
      name: 'the first claim wins; later claims get the record, and its answer once completed',
      async run({ storage }) {
        const claim = aClaim();
        expect((await storage.idempotency.claim(claim, T0))._unsafeUnwrap()).toEqual({ claimed: true });
        const pending = (await storage.idempotency.claim({ ...claim, fingerprint: 'f2' }, T0))._unsafeUnwrap();
        expect(pending).toEqual({ claimed: false, record: { ...claim, answer: null } });
        const answer = { status: 201, body: { outcome: 'success', lead: { id: freshId() }, price: 1.5 } };
        (await storage.idempotency.complete(claim, answer))._unsafeUnwrap();
        expect((await storage.idempotency.claim(claim, T0))._unsafeUnwrap()).toEqual({
          claimed: false,
          record: { ...claim, answer },
        });
        // Releasing an answered key changes nothing: the answer is what every retry gets.
        (await storage.idempotency.release(claim))._unsafeUnwrap();
        expect((await storage.idempotency.claim(claim, T0))._unsafeUnwrap()).toMatchObject({
          claimed: false,
          record: { answer },
        });
      },
    },
    {
      name: 'a key is scoped by account, flow and source',
      async run({ storage }) {
        const claim = aClaim();
        (await storage.idempotency.claim(claim, T0))._unsafeUnwrap();
        for (const other of [
          { account_id: freshId() },
          { flow_id: freshId() },
          { source_id: freshId() },
          { key: `${claim.key}x` },
        ])
          expect(
            (await storage.idempotency.claim({ ...claim, ...other }, T0))._unsafeUnwrap(),
            JSON.stringify(other),
          ).toEqual({ claimed: true });
      },
    },
    {
      name: 'concurrent claims of one key: exactly one wins',
      async run({ storage }) {
        const claim = aClaim();
        const results = await Promise.all(Array.from({ length: 8 }, () => storage.idempotency.claim(claim, T0)));
        expect(results.filter((r) => r._unsafeUnwrap().claimed)).toHaveLength(1);
      },
    },
    {
      name: 'a released claim is free again; an expired record is replaced, then purged',
      async run({ storage }) {
        const claim = aClaim();
        (await storage.idempotency.claim(claim, T0))._unsafeUnwrap();
        (await storage.idempotency.release(claim))._unsafeUnwrap();
        expect((await storage.idempotency.claim({ ...claim, fingerprint: 'f2' }, T0))._unsafeUnwrap()).toEqual({
          claimed: true,
        });
        (await storage.idempotency.complete(claim, { status: 201, body: {} }))._unsafeUnwrap();
        // At expires_at the key is free: a new first request claims it with its own fingerprint.
        const later = { ...claim, fingerprint: 'f3', created_at: DAY_LATER, expires_at: '2026-03-03T12:00:00.000Z' };
        expect((await storage.idempotency.claim(later, DAY_LATER))._unsafeUnwrap()).toEqual({ claimed: true });
        expect((await storage.idempotency.claim(later, DAY_LATER))._unsafeUnwrap()).toEqual({
          claimed: false,
          record: { ...later, answer: null },
        });
        expect(
          (await storage.idempotency.purgeExpired('2026-03-03T12:00:00.001Z'))._unsafeUnwrap(),
        ).toBeGreaterThanOrEqual(1);
        expect((await storage.idempotency.claim(later, DAY_LATER))._unsafeUnwrap()).toEqual({ claimed: true });
      },
    },
  ],
};
