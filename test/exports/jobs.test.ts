import { EXPORT_JOB, type PresignedFileStore, type Storage } from '@leadroute/core';
import { okAsync, ResultAsync } from 'neverthrow';
import { describe, expect, it, vi } from 'vitest';
import { unhandledRejectionsOf } from '../support/rejections';
import { exportEvent } from './support';
import { csvOf, type World, world } from './world';

const LEASE = 60_000;
const request = {
  start: '2026-03-01T00:00:00Z',
  end: '2026-03-10T00:00:00Z',
  fields: ['lead.n'],
  email_to: ['ops@example.com'],
};

async function seed(w: World, count: number, from = 0): Promise<void> {
  for (let i = from; i < from + count; i++)
    (
      await w.storage.events.insert(exportEvent(w.principal.account.id, Date.UTC(2026, 2, 2) + i * 1000, { n: i }))
    )._unsafeUnwrap();
}

/** Storage whose event pages wait for the test: `next()` lets one page through; `hang` never answers again. */
function steppedStorage(storage: Storage) {
  const waiting: (() => void)[] = [];
  let pages = 0;
  const stepped: Storage = {
    ...storage,
    events: {
      ...storage.events,
      query: (q) => {
        pages++;
        return ResultAsync.fromSafePromise(new Promise<void>((resolve) => waiting.push(resolve))).andThen(() =>
          storage.events.query(q),
        );
      },
    },
  };
  return {
    storage: stepped,
    pagesAsked: () => pages,
    next: () => waiting.shift()?.(),
  };
}

const exportRow = (w: World, id: string) => w.storage.tables.exports.get(id);

describe('export jobs', () => {
  it('goes created -> processing -> complete, publishing exported_docs page by page, then notifies', async () => {
    const w = await world({ exports: { pageSize: 2 } });
    await seed(w, 5);
    const stepped = steppedStorage(w.storage);
    const service = w.process({ storage: stepped.storage });
    const exp = (await service.exports.create(w.principal, request))._unsafeUnwrap();
    expect(exp.status).toBe('created');
    expect((await w.storage.jobs.get(EXPORT_JOB, exp.id))._unsafeUnwrap()).toMatchObject({
      state: 'pending',
      attempts: 0,
    });

    const run = service.exports.runPending();
    const seen: [string | undefined, number | undefined][] = [];
    for (let page = 1; page <= 3; page++) {
      await vi.waitFor(() => expect(stepped.pagesAsked()).toBe(page));
      seen.push([exportRow(w, exp.id)?.status, exportRow(w, exp.id)?.exported_docs]);
      stepped.next();
    }
    expect(await run).toBe(1);
    expect(seen).toEqual([
      ['processing', 0],
      ['processing', 2],
      ['processing', 4],
    ]);
    const done = (await w.service.exports.get(w.principal, exp.id))._unsafeUnwrap();
    expect(done).toMatchObject({ status: 'complete', exported_docs: 5, file_name: `leads_2026-03-10_${exp.id}.csv` });
    expect(csvOf(w, exp.id)).toBe('lead.n\n0\n1\n2\n3\n4\n');
    expect((await w.storage.jobs.get(EXPORT_JOB, exp.id))._unsafeUnwrap()).toMatchObject({
      state: 'done',
      attempts: 1,
    });
    expect(w.outbox.messages).toHaveLength(1);
    expect(w.outbox.messages[0]).toMatchObject({
      to: ['ops@example.com'],
      subject: `[Acme] Export ready: leads_2026-03-10_${exp.id}.csv`,
    });
    expect(w.outbox.messages[0]?.text).toContain('5 records');
    // Nothing left to do.
    expect(await service.exports.runPending()).toBe(0);
  });

  it('a job left by a stopped worker is taken over once its lease runs out, and completes', async () => {
    const w = await world({ exports: { pageSize: 2, leaseMs: LEASE } });
    await seed(w, 7);
    // Process A claims the job, writes a page, heartbeats, then stops for good on its next page.
    const stepped = steppedStorage(w.storage);
    const a = w.process({ storage: stepped.storage });
    const exp = (await w.service.exports.create(w.principal, request))._unsafeUnwrap();
    let aDone = false;
    const aRun = a.exports.runPending().finally(() => {
      aDone = true;
    });
    await vi.waitFor(() => expect(stepped.pagesAsked()).toBe(1));
    stepped.next();
    await vi.waitFor(() => expect(stepped.pagesAsked()).toBe(2));
    expect(exportRow(w, exp.id)).toMatchObject({ status: 'processing', exported_docs: 2 });
    const heldBy = (await w.storage.jobs.get(EXPORT_JOB, exp.id))._unsafeUnwrap();
    expect(heldBy).toMatchObject({ attempts: 1, leasedUntil: w.clock.now() + LEASE });

    // Process B finds nothing to do while the lease holds...
    const b = w.process();
    w.clock.advance(LEASE - 1);
    expect(await b.exports.runPending()).toBe(0);
    expect(exportRow(w, exp.id)?.status).toBe('processing');
    // ...and takes the job over when it has run out, starting again from the first row.
    w.clock.advance(1);
    expect(await b.exports.runPending()).toBe(1);
    expect(exportRow(w, exp.id)).toMatchObject({ status: 'complete', exported_docs: 7 });
    expect(csvOf(w, exp.id)).toBe('lead.n\n0\n1\n2\n3\n4\n5\n6\n');
    expect((await w.storage.jobs.get(EXPORT_JOB, exp.id))._unsafeUnwrap()).toMatchObject({
      state: 'done',
      attempts: 2,
    });
    expect(w.outbox.messages).toHaveLength(1);

    // If A ever wakes up, its lease is gone: it stops without touching the export or leaving a file.
    const filesBefore = [...w.files.files.keys()];
    while (!aDone) {
      stepped.next();
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    expect(await aRun).toBe(0);
    expect([...w.files.files.keys()]).toEqual(filesBefore);
    expect(filesBefore).toEqual([`exports/${w.principal.account.id}/${exp.id}-2.csv`]);
    expect(exportRow(w, exp.id)).toMatchObject({ status: 'complete', exported_docs: 7 });
  });

  it('retries a failed attempt later, and ends in error after the last attempt, telling the recipients', async () => {
    const w = await world({ exports: { maxAttempts: 2 } });
    await seed(w, 2);
    let puts = 0;
    const down = {
      ...w.files,
      put: () => (
        puts++,
        ResultAsync.fromPromise(Promise.reject(new Error('disk full')), () => ({
          type: 'StorageFailure' as const,
          message: '[leadroute] [test] disk full',
        }))
      ),
    };
    const service = w.process({ fileStore: down });
    const exp = (await service.exports.create(w.principal, request))._unsafeUnwrap();
    expect(await service.exports.runPending()).toBe(0);
    expect(exportRow(w, exp.id)?.status).toBe('processing');
    const job = (await w.storage.jobs.get(EXPORT_JOB, exp.id))._unsafeUnwrap();
    expect(job).toMatchObject({
      state: 'pending',
      error: '[leadroute] [test] disk full',
      dueAt: w.clock.now() + 30_000,
    });
    expect(await service.exports.runPending()).toBe(0);
    w.clock.advance(30_000);
    expect(await service.exports.runPending()).toBe(1);
    expect(puts).toBe(2);
    expect(exportRow(w, exp.id)).toMatchObject({
      status: 'error',
      error: '[leadroute] [test] disk full',
      reason: { message: '[leadroute] [test] disk full' },
    });
    expect((await w.storage.jobs.get(EXPORT_JOB, exp.id))._unsafeUnwrap()?.state).toBe('failed');
    expect(w.outbox.messages.map((m) => m.subject)).toEqual(['[Acme] Export failed']);
    expect((await service.exports.fileLink(w.principal, exp.id))._unsafeUnwrapErr().type).toBe('NotFound');
  });

  it('gives up on a job that keeps killing its worker', async () => {
    const w = await world({ exports: { maxAttempts: 2, leaseMs: LEASE } });
    const exp = (await w.service.exports.create(w.principal, request))._unsafeUnwrap();
    // Two workers claim the job and die at once.
    for (let i = 0; i < 2; i++) {
      expect((await w.storage.jobs.claim(EXPORT_JOB, w.clock.now(), LEASE))._unsafeUnwrap()?.id).toBe(exp.id);
      w.clock.advance(LEASE);
    }
    expect(await w.service.exports.runPending()).toBe(1);
    expect(exportRow(w, exp.id)).toMatchObject({
      status: 'error',
      error: 'The export was interrupted 2 times and was given up.',
    });
  });

  it('truncates at the row limit, and an export of exactly the limit is complete', async () => {
    const w = await world({ exports: { rowLimit: 3, pageSize: 2 } });
    await seed(w, 3);
    const exact = (await w.service.exports.create(w.principal, request))._unsafeUnwrap();
    await w.service.exports.runPending();
    expect(exportRow(w, exact.id)).toMatchObject({ status: 'complete', exported_docs: 3 });
    await seed(w, 1, 3);
    const over = (await w.service.exports.create(w.principal, request))._unsafeUnwrap();
    await w.service.exports.runPending();
    expect(exportRow(w, over.id)).toMatchObject({
      status: 'truncated',
      exported_docs: 3,
      reason: { message: expect.stringContaining('More than 3 rows match') },
    });
    // #19.10: only a complete export has a file; the partial one is not kept.
    expect(exportRow(w, over.id)).not.toHaveProperty('file_key');
    expect(w.files.files.size).toBe(1);
    expect(w.outbox.messages.at(-1)?.subject).toContain('Export stopped at the row limit');
  });

  it('the background worker runs new exports by itself once the service starts, and close() ends it (#21.11)', async () => {
    const w = await world();
    await seed(w, 2);
    expect(w.service.exports.worker.started).toBe(false);
    const service = w.process({ exports: { worker: { pollMs: 20 } } });
    // Creating a service starts nothing (#21.11): start() does.
    expect(service.exports.worker.started).toBe(false);
    service.start({ alerts: false, retention: false, firehose: false });
    expect(service.exports.worker.started).toBe(true);
    const exp = (await service.exports.create(w.principal, request))._unsafeUnwrap();
    await vi.waitFor(() => expect(exportRow(w, exp.id)?.status).toBe('complete'), { timeout: 5000 });
    await service.close();
    expect(service.exports.worker.started).toBe(false);
    const later = (await service.exports.create(w.principal, request))._unsafeUnwrap();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(exportRow(w, later.id)?.status).toBe('created');
  });

  it('a background pass that throws (a storage bug) escapes nowhere, and the next pass runs the export', async () => {
    const w = await world();
    await seed(w, 2);
    let claims = 0;
    // A store whose claim throws instead of answering an Err, once.
    const storage: Storage = {
      ...w.storage,
      jobs: {
        ...w.storage.jobs,
        claim: (...args) => {
          if (++claims === 1) throw new Error('adapter bug');
          return w.storage.jobs.claim(...args);
        },
      },
    };
    const service = w.process({ storage, exports: { worker: { pollMs: 20 } } });
    const escaped = await unhandledRejectionsOf(async () => {
      const exp = (await service.exports.create(w.principal, request))._unsafeUnwrap();
      service.start({ alerts: false, retention: false, firehose: false });
      await vi.waitFor(() => expect(exportRow(w, exp.id)?.status).toBe('complete'), { timeout: 5000 });
      await service.close();
    });
    expect(claims).toBeGreaterThan(1);
    expect(escaped).toEqual([]);
  });

  it('a file store that throws instead of answering an Err ends the attempt, and nothing escapes to the process', async () => {
    const w = await world();
    await seed(w, 2);
    const service = w.process({
      fileStore: {
        ...w.files,
        put: () => new ResultAsync(Promise.reject(new Error('file store bug'))),
      },
    });
    const escaped = await unhandledRejectionsOf(async () => {
      const exp = (await service.exports.create(w.principal, request))._unsafeUnwrap();
      expect(await service.exports.runPending()).toBe(0);
      expect(exportRow(w, exp.id)?.status).toBe('processing');
    });
    expect(escaped).toEqual([]);
  });

  it('a store with its own signed URLs hands those out for 10 seconds', async () => {
    const w = await world();
    const asked: [string, number][] = [];
    const s3like: PresignedFileStore = {
      name: 'fake-s3',
      delivery: 'presigned',
      capabilities: { remove: true },
      put: w.files.put,
      remove: w.files.remove,
      presign: (key, seconds) => (
        asked.push([key, seconds]), okAsync(`https://bucket.example/${key}?X-Amz-Expires=${seconds}`)
      ),
    };
    const service = w.process({ fileStore: s3like });
    const exp = (await service.exports.create(w.principal, request))._unsafeUnwrap();
    await service.exports.runPending();
    const link = (await service.exports.fileLink(w.principal, exp.id))._unsafeUnwrap();
    const key = exportRow(w, exp.id)?.file_key as string;
    expect(link).toEqual({
      url: `https://bucket.example/${key}?X-Amz-Expires=10`,
      expires_at: new Date(w.clock.now() + 10_000).toISOString(),
    });
    expect(asked).toEqual([[key, 10]]);
    expect(exportRow(w, exp.id)?.downloads).toHaveLength(1);
    // Served links do not exist for such a store.
    expect((await service.exports.download(exp.id, '1', 'x'.repeat(43)))._unsafeUnwrapErr().type).toBe('Forbidden');
  });

  it('builds absolute links from baseUrl', async () => {
    const w = await world({ exports: { baseUrl: 'https://api.example.com/leadroute/', linkSecret: 'shared secret' } });
    const exp = (await w.service.exports.create(w.principal, request))._unsafeUnwrap();
    await w.service.exports.runPending();
    const link = (await w.service.exports.fileLink(w.principal, exp.id))._unsafeUnwrap();
    expect(link.url).toMatch(
      new RegExp(`^https://api\\.example\\.com/leadroute/exports/${exp.id}/download\\?expires=\\d+&signature=`),
    );
    // Another process with the same secret accepts the link.
    const url = new URL(link.url);
    const other = w.process({ exports: { linkSecret: 'shared secret' } });
    const file = (
      await other.exports.download(exp.id, url.searchParams.get('expires'), url.searchParams.get('signature'))
    )._unsafeUnwrap();
    expect(new TextDecoder().decode(file.body)).toBe('lead.n\n');
    const stranger = w.process({ exports: { linkSecret: 'another secret' } });
    expect(
      (
        await stranger.exports.download(exp.id, url.searchParams.get('expires'), url.searchParams.get('signature'))
      )._unsafeUnwrapErr().type,
    ).toBe('Forbidden');
  });

  it('without a file store, POST /exports is refused with a clear error', async () => {
    const w = await world();
    const { createLeadService } = await import('@leadroute/core');
    const bare = createLeadService({ storage: w.storage, clock: w.clock, exports: { worker: false } });
    const refused = (await bare.exports.create(w.principal, request))._unsafeUnwrapErr();
    expect(refused).toMatchObject({
      type: 'StorageFailure',
      message: expect.stringContaining('No file store is configured'),
    });
  });
});

describe('a file store that refuses at once', () => {
  it('does not leave a large export waiting for room: the job fails with the store error', async () => {
    const w = await world({ exports: { maxAttempts: 1, pageSize: 500 } });
    await seed(w, 2000);
    const refusing = {
      ...w.files,
      put: () =>
        ResultAsync.fromPromise(Promise.reject(new Error('no')), () => ({
          type: 'StorageFailure' as const,
          message: '[leadroute] [test] bucket gone',
        })),
    };
    const service = w.process({ fileStore: refusing });
    const exp = (await service.exports.create(w.principal, request))._unsafeUnwrap();
    expect(await service.exports.runPending()).toBe(1);
    expect(exportRow(w, exp.id)).toMatchObject({ status: 'error', error: '[leadroute] [test] bucket gone' });
  });
});
