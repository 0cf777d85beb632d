import { createLeadService } from '@leadroute/core';
import { memoryStorage } from '@leadroute/memory';
import { aLead, anAccount, anEvent, aRollupRow, aSearchDocument } from '@leadroute/testkit';
import { describe, expect, it } from 'vitest';
import { countingFileStore } from '../exports/synthetic';
import { syntheticExport } from '../exports/world';

// Memory storage (and an in-memory file store) answer without ever yielding, so a long loop over them ran from its
// first step to its last in one turn of the event loop: no request of any tenant, no timer, no socket was served
// until it ended (an export of 120,000 events held the process for 1.2 s; a detector pass over 10,000 accounts,
// 0.8 s). Each loop here must let a 1 ms timer run all along: core lets the loop turn every 10 ms.

/** Runs `work` while a timer that should fire every millisecond counts its turns and the longest wait between them. */
async function watched<T>(
  work: () => PromiseLike<T>,
): Promise<{ value: T; ticks: number; longest: number; took: number }> {
  let ticks = 0;
  let longest = 0;
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    ticks++;
    longest = Math.max(longest, now - last);
    last = now;
  }, 1);
  const began = performance.now();
  last = began;
  let value: T;
  try {
    value = await work();
  } finally {
    clearInterval(timer);
  }
  const took = performance.now() - began;
  return { value, ticks, longest: Math.max(longest, performance.now() - last), took };
}

/**
 * Long enough that holding the loop would show (several 10 ms slices: held, the timer does not run once), and the
 * timer ran all along (a busy CI machine's collections stretch some gaps). Each loop is sized to take a few hundred
 * milliseconds here; Node 24 runs the detector pass in a third less time than Node 22.
 */
function expectTurns(run: { ticks: number; longest: number; took: number }): void {
  expect(run.took).toBeGreaterThan(40);
  expect(run.ticks, `${run.ticks} timer turns in ${run.took.toFixed(0)} ms`).toBeGreaterThan(run.took / 50);
  expect(run.longest, `longest wait for a turn ${run.longest.toFixed(0)} ms of ${run.took.toFixed(0)}`).toBeLessThan(
    Math.max(100, run.took / 4),
  );
}

describe('long loops on memory storage let the event loop turn', () => {
  it('an export of 60,000 events', async () => {
    const events = 60_000;
    const { w, service, exp } = await syntheticExport(events, countingFileStore());
    const run = await watched(() => service.exports.runPending());
    expect(run.value).toBe(1);
    expect((await service.exports.get(w.principal, exp.id))._unsafeUnwrap()).toMatchObject({
      status: 'complete',
      exported_docs: events,
    });
    expectTurns(run);
  }, 60_000);

  // Half of the records expired, every other one: the purge walks the whole table.
  it.each([
    { table: 'events', total: 200_000, half: '100,000 of 200,000 events' },
    { table: 'leads', total: 600_000, half: '300,000 of 600,000 leads' },
  ] as const)(
    'the retention purge of $half',
    async ({ table, total }) => {
      const storage = memoryStorage();
      const account = 'a'.repeat(24);
      const base = Date.UTC(2026, 0, 1);
      const expiresAt = (i: number) => new Date(base + (i % 2) * 86_400_000).toISOString();
      for (let i = 0; i < total; i++)
        void (table === 'events'
          ? storage.events.insert(anEvent(account, { expires_at: expiresAt(i) }))
          : storage.leads.insert(aLead(account, { expires_at: expiresAt(i) })));
      const run = await watched(() => storage[table].purgeExpired(new Date(base + 1000).toISOString()));
      expect(run.value._unsafeUnwrap()).toBe(total / 2);
      expect(storage.tables[table].size).toBe(total / 2);
      expectTurns(run);
    },
    60_000,
  );

  it('the first search sorted by a field, over 120,000 leads', async () => {
    const storage = memoryStorage();
    const account = 'a'.repeat(24);
    // As many last names as leads, in no order: the first sorted search sorts them all.
    for (let i = 0; i < 120_000; i++)
      void storage.search.index(
        aSearchDocument(account, { first_name: 'Ada', last_name: `L${(i * 104_729) % 120_011}` }),
      );
    const run = await watched(() =>
      storage.search.search({
        account_id: account,
        terms: [],
        phrases: [],
        from: 0,
        limit: 3,
        sort: { field: 'last_name', dir: 'asc' },
      }),
    );
    expect(run.value._unsafeUnwrap().documents.map((d) => d.fields.last_name)).toEqual(['L0', 'L1', 'L10']);
    expectTurns(run);
  }, 60_000);

  it('a detector pass over 5,000 accounts', async () => {
    const accounts = 5_000;
    const now = Date.parse('2026-01-15T15:00:00Z');
    const hex = (n: number) => n.toString(16).padStart(24, '0');
    const storage = memoryStorage();
    const service = createLeadService({ storage, clock: { now: () => now } });
    for (let a = 0; a < accounts; a++) {
      const id = hex(a + 1);
      (await storage.accounts.insert(anAccount({ id, name: `Account ${a}` })))._unsafeUnwrap();
      const cell = { flow_id: hex(a * 10 + 1), source_id: hex(a * 10 + 2) };
      (
        await storage.rollups.add([
          aRollupRow(id, { ...cell, hour: new Date(now - 3_600_000).toISOString(), count: 40 }),
          aRollupRow(id, { ...cell, hour: new Date(now).toISOString(), count: 3 }),
        ])
      )._unsafeUnwrap();
    }
    const run = await watched(() => service.alerts.detect(now));
    expect(run.value._unsafeUnwrap().accounts).toBe(accounts);
    expectTurns(run);
  }, 60_000);

  describe('asked in-process, without a signal, over 100,000 events', () => {
    const at = Date.UTC(2026, 10, 2, 12);
    const many = async () => {
      const storage = memoryStorage();
      const service = createLeadService({ storage, clock: { now: () => at + 3_600_000 } });
      const key = (await service.accounts.create({ name: 'Demo', time_zone: 'UTC' }))._unsafeUnwrap().api_key;
      const principal = (await service.accounts.authenticate(key))._unsafeUnwrap();
      const expires_at = new Date(at + 86_400_000).toISOString();
      for (let n = 0; n < 100_000; n++)
        void storage.events.insert(
          anEvent(principal.account.id, {
            type: 'source',
            start_timestamp: at,
            end_timestamp: at + 5,
            expires_at,
            vars: { lead: { city: `City ${n % 50}` } },
          }),
        );
      return { service, principal };
    };

    it('an events listing whose filter matches none of them', async () => {
      const { service, principal } = await many();
      const run = await watched(() =>
        service.events.list(principal, { rules: [{ id: 'noNY01', lhv: 'lead.state', op: 'is equal to', rhv: 'NY' }] }),
      );
      expect(run.value._unsafeUnwrap()).toEqual([]);
      expectTurns(run);
    }, 60_000);

    it('statistics by a lead field no rollup keeps (read from the events)', async () => {
      const { service, principal } = await many();
      const run = await watched(() =>
        service.stats.compute(principal, { group_by: 'lead.city', start: '2026-11-02', end: '2026-11-03' }),
      );
      const stats = run.value._unsafeUnwrap();
      expect(stats.source).toBe('events');
      expect(stats.rows).toHaveLength(50);
      expectTurns(run);
    }, 60_000);
  });
});
