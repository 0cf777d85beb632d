import type { Spool, SpoolEntry, SpoolError } from '@leadroute/core';
import type { ResultAsync } from 'neverthrow';
import { describe, expect, it } from 'vitest';
import type { SpoolFactory } from './types';

export type { SpoolFactory } from './types';

const T0 = Date.UTC(2025, 0, 15, 12, 0, 0);
const LEASE = { limit: 10, leaseMs: 30_000 };

const entry = (key: string, overrides: Partial<SpoolEntry> = {}): SpoolEntry => ({
  target: 'firehose:aws:bucket-a',
  key,
  payload: JSON.stringify({ key }),
  route: { service: 'aws', bucket: 'bucket-a', credential_id: 'c1' },
  dueAt: T0,
  ...overrides,
});

async function run<T>(r: ResultAsync<T, SpoolError>): Promise<T> {
  const result = await r;
  if (result.isErr()) throw new Error(`spool call failed: ${result.error.message}`, { cause: result.error });
  return result.value;
}

/**
 * The conformance suite of the spool port: every spool (memory, PostgreSQL, MongoDB)
 * runs it. Call it inside a test file: `spoolSuite(() => ({ spool: memorySpool() }), 'memory')`.
 */
export function spoolSuite(factory: SpoolFactory, name = 'spool'): void {
  const withSpool = (fn: (spool: Spool) => Promise<void>) => async () => {
    const { spool, close } = await factory();
    try {
      await fn(spool);
    } finally {
      await close?.();
    }
  };

  describe(`spool port: ${name}`, () => {
    it(
      'holds what it enqueues and hands it out once due',
      withSpool(async (spool) => {
        expect(
          await run(
            spool.enqueue(entry('a.json', { dueAt: T0 + 1000 }), { nowMs: T0, attempts: 1, lastError: 'down' }),
          ),
        ).toEqual({ enqueued: true });
        expect(await run(spool.count())).toBe(1);
        expect(await run(spool.lease(T0, LEASE))).toEqual([]);
        const [item, ...rest] = await run(spool.lease(T0 + 1000, LEASE));
        expect(rest).toEqual([]);
        expect(item).toMatchObject({
          target: 'firehose:aws:bucket-a',
          key: 'a.json',
          payload: JSON.stringify({ key: 'a.json' }),
          route: { service: 'aws', bucket: 'bucket-a', credential_id: 'c1' },
          dueAt: T0 + 1000,
          attempts: 1,
          enqueuedAt: T0,
          lastError: 'down',
          leasedUntil: T0 + 1000 + LEASE.leaseMs,
        });
        expect(typeof item?.leaseId).toBe('string');
      }),
    );

    it(
      'is idempotent on (target, key), pending or delivered',
      withSpool(async (spool) => {
        await run(spool.enqueue(entry('a.json'), { nowMs: T0 }));
        expect(await run(spool.enqueue(entry('a.json', { payload: 'other' }), { nowMs: T0 }))).toEqual({
          enqueued: false,
        });
        expect(await run(spool.enqueue(entry('a.json', { target: 'firehose:azure:c' }), { nowMs: T0 }))).toEqual({
          enqueued: true,
        });
        const leased = await run(spool.lease(T0, LEASE));
        expect(leased.map((i) => [i.target, i.payload])).toEqual([
          ['firehose:aws:bucket-a', JSON.stringify({ key: 'a.json' })],
          ['firehose:azure:c', JSON.stringify({ key: 'a.json' })],
        ]);
        for (const i of leased) await run(spool.markDelivered(i, T0 + 1));
        expect(await run(spool.enqueue(entry('a.json'), { nowMs: T0 + 2 }))).toEqual({ enqueued: false });
        expect(await run(spool.count())).toBe(0);
        expect(await run(spool.count({ state: 'delivered' }))).toBe(2);
        expect(await run(spool.count({ state: 'delivered', target: 'firehose:azure:c' }))).toBe(1);
        expect(await run(spool.lease(T0 + 10_000_000, LEASE))).toEqual([]);
      }),
    );

    it(
      'leases an item to one worker at a time, and again after the lease expires',
      withSpool(async (spool) => {
        await run(spool.enqueue(entry('a.json'), { nowMs: T0 }));
        const first = await run(spool.lease(T0, LEASE));
        expect(first).toHaveLength(1);
        expect(await run(spool.lease(T0 + 1, LEASE))).toEqual([]);
        const second = await run(spool.lease(T0 + LEASE.leaseMs, LEASE));
        expect(second).toHaveLength(1);
        expect(second[0]?.leaseId).not.toBe(first[0]?.leaseId);
        // The first worker lost its lease: its reschedule changes nothing.
        expect(await run(spool.reschedule(first[0]!, { dueAt: T0 + 5, error: 'late' }))).toEqual({
          rescheduled: false,
        });
        expect(await run(spool.reschedule(second[0]!, { dueAt: T0 + 60_000, error: 'still down' }))).toEqual({
          rescheduled: true,
        });
        expect(await run(spool.lease(T0 + 59_999, LEASE))).toEqual([]);
        const third = await run(spool.lease(T0 + 60_000, LEASE));
        expect(third[0]).toMatchObject({ attempts: 1, lastError: 'still down', dueAt: T0 + 60_000 });
      }),
    );

    it(
      'hands out the oldest due items first, at most limit',
      withSpool(async (spool) => {
        await run(spool.enqueue(entry('late.json', { dueAt: T0 + 300 }), { nowMs: T0 }));
        await run(spool.enqueue(entry('early.json', { dueAt: T0 + 100 }), { nowMs: T0 }));
        await run(spool.enqueue(entry('mid.json', { dueAt: T0 + 200 }), { nowMs: T0 }));
        await run(spool.enqueue(entry('future.json', { dueAt: T0 + 10_000 }), { nowMs: T0 }));
        const batch = await run(spool.lease(T0 + 1000, { limit: 2, leaseMs: 1000 }));
        expect(batch.map((i) => i.key)).toEqual(['early.json', 'mid.json']);
        const next = await run(spool.lease(T0 + 1000, { limit: 10, leaseMs: 1000 }));
        expect(next.map((i) => i.key)).toEqual(['late.json']);
      }),
    );

    it(
      'leases only the targets asked for',
      withSpool(async (spool) => {
        await run(spool.enqueue(entry('a.json', { target: 'firehose:aws:b' }), { nowMs: T0 }));
        await run(spool.enqueue(entry('b.json', { target: 'exports:x' }), { nowMs: T0 }));
        const firehose = await run(spool.lease(T0, { ...LEASE, targetPrefix: 'firehose:' }));
        expect(firehose.map((i) => i.key)).toEqual(['a.json']);
        const rest = await run(spool.lease(T0, LEASE));
        expect(rest.map((i) => i.key)).toEqual(['b.json']);
      }),
    );

    it(
      'marks delivered whoever holds the lease, and never hands the item out again',
      withSpool(async (spool) => {
        await run(spool.enqueue(entry('a.json'), { nowMs: T0 }));
        const [first] = await run(spool.lease(T0, LEASE));
        await run(spool.lease(T0 + LEASE.leaseMs, LEASE));
        await run(spool.markDelivered(first!, T0 + LEASE.leaseMs + 1));
        await run(spool.markDelivered(first!, T0 + LEASE.leaseMs + 2));
        await run(spool.markDelivered({ target: 'x', key: 'unknown', leaseId: 'none' }, T0));
        expect(await run(spool.count())).toBe(0);
        expect(await run(spool.lease(T0 + 10 * LEASE.leaseMs, LEASE))).toEqual([]);
        expect(await run(spool.reschedule(first!, { dueAt: T0 }))).toEqual({ rescheduled: false });
      }),
    );

    it(
      'purges delivered items delivered before a time, and only those',
      withSpool(async (spool) => {
        for (const key of ['a.json', 'b.json', 'c.json']) await run(spool.enqueue(entry(key), { nowMs: T0 }));
        const [a, b] = await run(spool.lease(T0, { limit: 2, leaseMs: 1000 }));
        await run(spool.markDelivered(a!, T0 + 10));
        await run(spool.markDelivered(b!, T0 + 20));
        expect(await run(spool.purgeDelivered(T0 + 15))).toBe(1);
        expect(await run(spool.count({ state: 'delivered' }))).toBe(1);
        expect(await run(spool.count())).toBe(1);
        // A purged key is new again.
        expect(await run(spool.enqueue(entry(a!.key), { nowMs: T0 + 30 }))).toEqual({ enqueued: true });
      }),
    );
  });
}
