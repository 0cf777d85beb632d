import {
  createLeadService,
  type ExportOptions,
  type FileStore,
  type LeadService,
  type Principal,
  type Storage,
} from '@leadroute/core';
import {
  memoryFileStore,
  type MemoryFileStore,
  type MemoryOutbox,
  memoryOutbox,
  type MemoryStorage,
  memoryStorage,
} from '@leadroute/memory';
import { type ManualClock, manualClock } from '@leadroute/testkit';
import { SYNTHETIC_FIELDS, syntheticEventStore } from './synthetic';

/** One "process" of the service over shared storage, plus the handles a test steers it with. */
export interface World {
  readonly service: LeadService;
  readonly storage: MemoryStorage;
  readonly clock: ManualClock;
  readonly outbox: MemoryOutbox;
  readonly files: MemoryFileStore;
  readonly principal: Principal;
  /** Another service over the same storage, clock and files: a second process. */
  process(options?: { storage?: Storage; fileStore?: FileStore; exports?: ExportOptions }): LeadService;
}

export async function world(options: { exports?: ExportOptions; time_zone?: string } = {}): Promise<World> {
  const storage = memoryStorage();
  const clock = manualClock('2026-03-10T12:00:00Z');
  const outbox = memoryOutbox();
  const files = memoryFileStore();
  const process: World['process'] = (o = {}) =>
    createLeadService({
      storage: o.storage ?? storage,
      clock,
      notifier: outbox,
      fileStore: o.fileStore ?? files,
      exports: { worker: false, ...options.exports, ...o.exports },
    });
  const service = process();
  const created = (
    await service.accounts.create({ name: 'Acme', time_zone: options.time_zone ?? 'America/New_York' })
  )._unsafeUnwrap();
  const principal = (await service.accounts.authenticate(created.api_key))._unsafeUnwrap();
  return { service, storage, clock, outbox, files, principal, process };
}

/** The text of an export's CSV as the file store holds it. */
export function csvOf(w: World, exportId: string): string {
  const stored = w.storage.tables.exports.get(exportId);
  const file = stored?.file_key === undefined ? undefined : w.files.files.get(stored.file_key);
  if (!file) throw new Error(`no file for export ${exportId}`);
  return new TextDecoder().decode(file.body);
}

/**
 * An export of `events` synthetic events (made up page by page: see `syntheticEventStore`) into `fileStore`, requested
 * and not yet run, by a process of a fresh world whose row limit is well above them.
 */
export async function syntheticExport(events: number, fileStore: FileStore) {
  const w = await world({ exports: { rowLimit: 10 * events } });
  const service = w.process({
    storage: { ...w.storage, events: syntheticEventStore(w.principal.account.id, events, Date.UTC(2026, 2, 2)) },
    fileStore,
  });
  const exp = (
    await service.exports.create(w.principal, {
      start: '2026-03-01T00:00:00Z',
      end: '2026-03-03T00:00:00Z',
      fields: SYNTHETIC_FIELDS,
    })
  )._unsafeUnwrap();
  return { w, service, exp };
}
