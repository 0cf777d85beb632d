import { expect } from 'vitest';
import { freshId } from '../fixtures';
import type { Suite } from '../harness';

const T0 = Date.UTC(2026, 2, 1, 12);
const LEASE = 60_000;

/** JobStore: leased background jobs shared by several workers. */
export const jobStoreSuite: Suite = {
  name: 'JobStore',
  cases: [
    {
      name: 'enqueues once per kind and ID, and hands a due job out under a lease with its payload',
      async run({ storage }) {
        const id = freshId();
        expect(
          (await storage.jobs.enqueue({ kind: 'export', id, dueAt: T0, payload: { n: 1 } }, T0))._unsafeUnwrap(),
        ).toEqual({ enqueued: true });
        expect((await storage.jobs.enqueue({ kind: 'export', id, dueAt: T0 }, T0))._unsafeUnwrap()).toEqual({
          enqueued: false,
        });
        const job = (await storage.jobs.claim('export', T0, LEASE))._unsafeUnwrap();
        expect(job).toMatchObject({
          kind: 'export',
          id,
          payload: { n: 1 },
          state: 'pending',
          attempts: 1,
          leasedUntil: T0 + LEASE,
        });
        expect(typeof job?.leaseId).toBe('string');
        expect((await storage.jobs.get('export', id))._unsafeUnwrap()).toMatchObject({
          leaseId: job?.leaseId,
          attempts: 1,
        });
      },
    },
    {
      name: 'claims only due jobs of the kind asked for, earliest due first, each by one worker at a time',
      async run({ storage }) {
        const kind = `k-${freshId()}`;
        const [late, early, future] = [freshId(), freshId(), freshId()];
        (await storage.jobs.enqueue({ kind, id: late, dueAt: T0 }, T0))._unsafeUnwrap();
        (await storage.jobs.enqueue({ kind, id: early, dueAt: T0 - 1000 }, T0))._unsafeUnwrap();
        (await storage.jobs.enqueue({ kind, id: future, dueAt: T0 + 10_000 }, T0))._unsafeUnwrap();
        (await storage.jobs.enqueue({ kind: `${kind}-other`, id: freshId(), dueAt: T0 - 5000 }, T0))._unsafeUnwrap();
        expect((await storage.jobs.claim(kind, T0, LEASE))._unsafeUnwrap()?.id).toBe(early);
        // Two workers asking at once: one gets the job, the other nothing.
        const claims = await Promise.all([storage.jobs.claim(kind, T0, LEASE), storage.jobs.claim(kind, T0, LEASE)]);
        const ids = claims.map((c) => c._unsafeUnwrap()?.id);
        expect(ids.filter((id) => id !== undefined)).toEqual([late]);
        expect((await storage.jobs.claim(kind, T0 + 10_000, LEASE))._unsafeUnwrap()?.id).toBe(future);
      },
    },
    {
      name: "a job whose lease ran out is taken over, and the first worker's lease is void",
      async run({ storage }) {
        const kind = `k-${freshId()}`;
        const id = freshId();
        (await storage.jobs.enqueue({ kind, id, dueAt: T0 }, T0))._unsafeUnwrap();
        const first = (await storage.jobs.claim(kind, T0, LEASE))._unsafeUnwrap();
        if (!first) throw new Error('no job');
        const ref1 = { kind, id, leaseId: first.leaseId };
        expect((await storage.jobs.extend(ref1, T0 + 30_000, LEASE))._unsafeUnwrap()).toBe(true);
        expect((await storage.jobs.claim(kind, T0 + LEASE + 1, LEASE))._unsafeUnwrap()).toBeUndefined();
        const second = (await storage.jobs.claim(kind, T0 + 30_000 + LEASE, LEASE))._unsafeUnwrap();
        expect(second).toMatchObject({ id, attempts: 2 });
        expect(second?.leaseId).not.toBe(first.leaseId);
        expect((await storage.jobs.extend(ref1, T0 + 100_000, LEASE))._unsafeUnwrap()).toBe(false);
        expect((await storage.jobs.complete(ref1, T0 + 100_000))._unsafeUnwrap()).toBe(false);
        expect((await storage.jobs.fail(ref1, T0 + 100_000, 'late'))._unsafeUnwrap()).toBe(false);
        expect(
          (await storage.jobs.complete({ kind, id, leaseId: second?.leaseId as string }, T0 + 100_000))._unsafeUnwrap(),
        ).toBe(true);
        expect((await storage.jobs.get(kind, id))._unsafeUnwrap()?.state).toBe('done');
      },
    },
    {
      name: 'complete and fail settle the job; fail with retryAt makes it due again later',
      async run({ storage }) {
        const kind = `k-${freshId()}`;
        const [a, b, c] = [freshId(), freshId(), freshId()];
        for (const id of [a, b, c]) (await storage.jobs.enqueue({ kind, id, dueAt: T0 }, T0))._unsafeUnwrap();
        const claimed = new Map<string, string>();
        for (let i = 0; i < 3; i++) {
          const job = (await storage.jobs.claim(kind, T0, LEASE))._unsafeUnwrap();
          if (job) claimed.set(job.id, job.leaseId);
        }
        const ref = (id: string) => ({ kind, id, leaseId: claimed.get(id) as string });
        expect((await storage.jobs.complete(ref(a), T0 + 1))._unsafeUnwrap()).toBe(true);
        expect((await storage.jobs.fail(ref(b), T0 + 1, 'broken'))._unsafeUnwrap()).toBe(true);
        expect((await storage.jobs.fail(ref(c), T0 + 1, 'try later', T0 + 5000))._unsafeUnwrap()).toBe(true);
        expect((await storage.jobs.get(kind, b))._unsafeUnwrap()).toMatchObject({ state: 'failed', error: 'broken' });
        expect((await storage.jobs.get(kind, c))._unsafeUnwrap()).toMatchObject({
          state: 'pending',
          error: 'try later',
          dueAt: T0 + 5000,
        });
        expect((await storage.jobs.get(kind, c))._unsafeUnwrap()?.leaseId).toBeUndefined();
        expect((await storage.jobs.claim(kind, T0 + 4999, LEASE))._unsafeUnwrap()).toBeUndefined();
        expect((await storage.jobs.claim(kind, T0 + 5000, LEASE))._unsafeUnwrap()).toMatchObject({
          id: c,
          attempts: 2,
        });
        // Done and failed jobs are never handed out again; only c, whose lease ran out, is.
        expect((await storage.jobs.claim(kind, T0 + 10 * LEASE, LEASE))._unsafeUnwrap()).toMatchObject({
          id: c,
          attempts: 3,
        });
        expect((await storage.jobs.claim(kind, T0 + 10 * LEASE, LEASE))._unsafeUnwrap()).toBeUndefined();
      },
    },
  ],
};
