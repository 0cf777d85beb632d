import { createLeadService, EXPORT_JOB, type Storage } from '@leadroute/core';
import { memoryFileStore, memoryStorage } from '@leadroute/memory';
import { okAsync, ResultAsync } from 'neverthrow';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { exportEvent } from './exports/support';
import { world } from './exports/world';

/** Storage that counts the calls each background job makes first. */
function countingStorage(storage: Storage) {
  const calls = { claims: 0, detectorPasses: 0, purges: 0, spoolPurges: 0 };
  const counted: Storage = {
    ...storage,
    jobs: { ...storage.jobs, claim: (...a) => (calls.claims++, storage.jobs.claim(...a)) },
    rollups: {
      ...storage.rollups,
      activeAccounts: (...a) => (calls.detectorPasses++, storage.rollups.activeAccounts(...a)),
    },
    events: { ...storage.events, purgeExpired: (...a) => (calls.purges++, storage.events.purgeExpired(...a)) },
    spool: { ...storage.spool, purgeDelivered: (...a) => (calls.spoolPurges++, storage.spool.purgeDelivered(...a)) },
  };
  return { storage: counted, calls };
}

const until = (check: () => void) => vi.waitFor(check, { timeout: 5000, interval: 10 });
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

afterEach(() => {
  vi.useRealTimers();
});

describe('#21.11 service lifecycle', () => {
  it('#21.11 creating a service starts no background work: no timer, no storage call', async () => {
    vi.useFakeTimers();
    const { storage, calls } = countingStorage(memoryStorage());
    const service = createLeadService({ storage, fileStore: memoryFileStore(), exports: { worker: { pollMs: 10 } } });
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(calls).toEqual({ claims: 0, detectorPasses: 0, purges: 0, spoolPurges: 0 });
    expect(service.running).toBe(false);
    expect(service.exports.worker.started).toBe(false);
  });

  it('#21.11 start() runs every job (exports, alert passes, retention purge, firehose spool) and close() stops them all', async () => {
    const { storage, calls } = countingStorage(memoryStorage());
    const service = createLeadService({ storage, fileStore: memoryFileStore(), exports: { worker: { pollMs: 10 } } });
    service.start({ alerts: { intervalMs: 10 }, retention: { intervalMs: 10 }, firehose: { intervalMs: 10 } });
    expect(service.running).toBe(true);
    await until(() => {
      expect(calls.claims).toBeGreaterThan(1);
      expect(calls.detectorPasses).toBeGreaterThan(1);
      expect(calls.purges).toBeGreaterThan(1);
      expect(calls.spoolPurges).toBeGreaterThan(1);
    });
    await service.close();
    expect(service.running).toBe(false);
    expect(service.exports.worker.started).toBe(false);
    const after = { ...calls };
    await pause(200);
    expect(calls).toEqual(after);
  });

  it('#21.11 start() and close() are idempotent; a closed service can start again', async () => {
    vi.useFakeTimers();
    const service = createLeadService({ storage: memoryStorage(), fileStore: memoryFileStore() });
    await service.close(); // before start: nothing to stop
    service.start();
    const timers = vi.getTimerCount();
    expect(timers).toBeGreaterThan(0);
    service.start();
    expect(vi.getTimerCount()).toBe(timers);
    const [a, b] = [service.close(), service.close()];
    expect(a).toBe(b);
    await vi.advanceTimersByTimeAsync(0);
    await a;
    expect(vi.getTimerCount()).toBe(0);
    await service.close();
    service.start();
    expect(service.running).toBe(true);
    await service.close();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('#21.11 Symbol.asyncDispose closes the service (await using)', async () => {
    const { storage, calls } = countingStorage(memoryStorage());
    let service: ReturnType<typeof createLeadService> | undefined;
    {
      await using disposable = createLeadService({ storage, fileStore: memoryFileStore() });
      service = disposable;
      disposable.start({ retention: { intervalMs: 10 } });
      await until(() => expect(calls.purges).toBeGreaterThan(1));
    }
    expect(service.running).toBe(false);
    const after = calls.purges;
    await pause(100);
    expect(calls.purges).toBe(after);
  });

  it('#23.2 services sharing one storage purge once per interval between them, and a stopped holder is replaced after its lease', async () => {
    const shared = memoryStorage();
    const three = [0, 1, 2].map(() => countingStorage(shared));
    const services = three.map(({ storage }) => createLeadService({ storage }));
    const only = { alerts: false, firehose: false, exports: false, retention: { intervalMs: 100 } } as const;
    for (const s of services) s.start(only);
    await pause(550);
    const purges = three.map((t) => t.calls.purges);
    // One holder purges every interval (about six passes); the other two skip every pass of theirs.
    expect(purges.filter((n) => n > 0)).toHaveLength(1);
    const holder = purges.findIndex((n) => n > 0);
    expect(purges[holder]).toBeGreaterThanOrEqual(3);
    expect(purges[holder]).toBeLessThanOrEqual(7);
    // The holder stops without giving the lease up, as a crashed process does: another takes over once it ran out.
    await services[holder]?.close();
    const before = three.map((t) => t.calls.purges);
    await until(() => expect(three.some((t, i) => i !== holder && t.calls.purges > (before[i] ?? 0))).toBe(true));
    await Promise.all(services.map((s) => s.close()));
  });

  it('#23.2 the retention job purges expired idempotency keys too', async () => {
    const storage = memoryStorage();
    const scope = { account_id: 'a', flow_id: 'f', source_id: 's', key: 'k' };
    const expired = {
      ...scope,
      fingerprint: 'x',
      created_at: '2026-01-01T00:00:00.000Z',
      expires_at: '2026-01-02T00:00:00.000Z',
    };
    (await storage.idempotency.claim(expired, '2026-01-01T00:00:00.000Z'))._unsafeUnwrap();
    const purged: number[] = [];
    const counted: Storage = {
      ...storage,
      idempotency: {
        ...storage.idempotency,
        purgeExpired: (before) => storage.idempotency.purgeExpired(before).map((n) => (purged.push(n), n)),
      },
    };
    const service = createLeadService({ storage: counted });
    service.start({ alerts: false, firehose: false, exports: false });
    await until(() => expect(purged).toEqual([1]));
    await service.close();
  });

  it('#21.11 the retention job runs extra purges (e.g. counters) with the cut-off time', async () => {
    const seen: string[] = [];
    const service = createLeadService({ storage: memoryStorage() });
    service.start({
      alerts: false,
      firehose: false,
      retention: { also: [{ name: 'counters', run: (before) => (seen.push(before), okAsync(0)) }] },
    });
    await until(() => expect(seen).toHaveLength(1));
    await service.close();
    expect(Date.parse(seen[0] as string)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('#21.11 close() waits for the export under way, which stops at its next page and is released for the next worker', async () => {
    const w = await world({ exports: { pageSize: 2, worker: { pollMs: 10 } } });
    const at = (i: number) => Date.UTC(2026, 2, 2) + i * 1000;
    for (let i = 0; i < 10; i++)
      (await w.storage.events.insert(exportEvent(w.principal.account.id, at(i), { n: i })))._unsafeUnwrap();
    // Event pages wait for the test, so the export is caught mid-way.
    const waiting: (() => void)[] = [];
    const stepped: Storage = {
      ...w.storage,
      events: {
        ...w.storage.events,
        query: (q) =>
          ResultAsync.fromSafePromise(new Promise<void>((r) => waiting.push(r))).andThen(() =>
            w.storage.events.query(q),
          ),
      },
    };
    const service = w.process({ storage: stepped, exports: { pageSize: 2, worker: { pollMs: 10 } } });
    service.start({ alerts: false, retention: false, firehose: false });
    const request = {
      start: '2026-03-01T00:00:00Z',
      end: '2026-03-10T00:00:00Z',
      fields: ['lead.n'],
      email_to: ['ops@example.com'],
    };
    const exp = (await service.exports.create(w.principal, request))._unsafeUnwrap();
    await until(() => expect(waiting).toHaveLength(1));
    waiting.shift()?.(); // page 1
    await until(() => expect(waiting).toHaveLength(1)); // page 2 asked
    let closed = false;
    const closing = service.close().then(() => (closed = true));
    await pause(50);
    expect(closed).toBe(false); // the page in flight is awaited
    waiting.shift()?.();
    await closing;
    // No third page was read: the job stopped at the page boundary.
    await pause(50);
    expect(waiting).toHaveLength(0);
    expect(w.storage.tables.exports.get(exp.id)?.status).toBe('processing');
    const job = (await w.storage.jobs.get(EXPORT_JOB, exp.id))._unsafeUnwrap();
    expect(job).toMatchObject({ state: 'pending', attempts: 1 });
    expect(job?.leaseId).toBeUndefined();
    // Another process takes it up at once (no lease to wait out) and finishes it.
    expect(await w.process().exports.runPending()).toBe(1);
    expect(w.storage.tables.exports.get(exp.id)).toMatchObject({ status: 'complete', exported_docs: 10 });
  });
});
