import { describe, expect, it } from 'vitest';
import { spoolSuite } from '@leadroute/testkit/suites';
import { memorySpool } from './spool';

spoolSuite(() => ({ spool: memorySpool() }), 'memory');

describe('the memory spool under a backlog', () => {
  it('#22 leases from 300,000 pending items without sorting them: 50 leases of 100 in well under a second', async () => {
    const spool = memorySpool();
    const N = 300_000;
    for (let i = 0; i < N; i++) {
      // Due times out of order, across two targets, so a lease must merge them.
      const dueAt = (i * 7919) % N;
      void spool.enqueue(
        { target: `firehose:s3:${i % 2}`, key: `k${i}`, payload: '{}', route: {}, dueAt },
        { nowMs: 0 },
      );
    }
    // What one lease cost before, in this run: every held item filtered and sorted. A bound relative to it holds on a
    // machine however busy (an absolute 500 ms did not, at a load average of 10).
    const items = Array.from({ length: N }, (_, i) => ({ target: `firehose:s3:${i % 2}`, dueAt: (i * 7919) % N }));
    const sortedOnce = performance.now();
    items.filter((item) => item.target.startsWith('firehose:')).sort((a, b) => a.dueAt - b.dueAt);
    const oneSort = performance.now() - sortedOnce;
    const started = performance.now();
    const seen: number[] = [];
    for (let pass = 0; pass < 50; pass++) {
      const leased = (await spool.lease(N, { limit: 100, leaseMs: 60_000, targetPrefix: 'firehose:' }))._unsafeUnwrap();
      seen.push(...leased.map((item) => item.dueAt));
      // As the firehose worker does: each leased item delivered, or rescheduled (the last of each batch).
      for (const item of leased.slice(0, -1)) void spool.markDelivered(item, N);
      const last = leased.at(-1);
      if (last) void spool.reschedule(last, { dueAt: 2 * N });
    }
    const took = performance.now() - started;
    // The 5,000 earliest due, in order, each once.
    expect(seen).toEqual(Array.from({ length: 5000 }, (_, i) => i));
    expect((await spool.count({}))._unsafeUnwrap()).toBe(N - 4950);
    const rescheduled = (await spool.lease(2 * N, { limit: 1, leaseMs: 1 }))._unsafeUnwrap();
    expect(rescheduled.map((item) => [item.dueAt, item.attempts])).toEqual([[5000, 0]]);
    // Filtering and sorting every held item took about 300 ms a lease here: 15.6 s for the 50, about fifty such sorts
    // (now about 0.1 s for the 50, a third of one).
    expect(took).toBeLessThan(3 * oneSort);
  });
});
