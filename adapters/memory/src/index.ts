import type { Storage } from '@leadroute/core';
import { alertStore } from './alert-store';
import { certificateStore } from './certificate-store';
import { eventStore } from './event-store';
import { exportStore } from './export-store';
import { fieldRollupStore } from './field-rollup-store';
import { counterStore, credentialStore, flowStore, leadStore } from './flow-stores';
import { idempotencyStore } from './idempotency-store';
import { jobStore } from './job-store';
import { memoryLeadWrites } from './lead-writes';
import { rollupStore } from './rollup-store';
import { memorySearchIndex } from './search-index';
import { memorySpool } from './spool';
import { accountStore, aliasStore, entityStore } from './stores';
import { createTables, type MemoryTables } from './tables';

export type { MemoryTables } from './tables';
export { memorySpool } from './spool';
export { memoryOutbox, type MemoryOutbox } from './outbox';
export { memoryFileStore, type MemoryFileStore } from './file-store';
export { directoryFileStore, type DirectoryFileStoreOptions } from './directory-file-store';

/** In-memory storage: every port on plain maps, with `tables` exposed for tests. */
export interface MemoryStorage extends Storage {
  readonly tables: MemoryTables;
}

/**
 * Storage that lives in the process: the embedded default and the engine of
 * unit tests. Nothing survives a restart.
 * @example
 * const service = createLeadService({ storage: memoryStorage() });
 */
export function memoryStorage(): MemoryStorage {
  const tables = createTables();
  const events = eventStore(tables);
  const leads = leadStore(tables);
  const rollups = rollupStore(tables.rollups);
  const search = memorySearchIndex(tables.search);
  const fieldRollups = fieldRollupStore();
  return {
    tables,
    accounts: accountStore(tables),
    entities: entityStore(tables),
    aliases: aliasStore(tables),
    flows: flowStore(tables),
    leads,
    events,
    counters: counterStore(tables),
    credentials: credentialStore(tables),
    rollups,
    fieldRollups,
    search,
    spool: memorySpool(),
    certificates: certificateStore(tables),
    alerts: alertStore(tables.alerts),
    exports: exportStore(tables.exports),
    jobs: jobStore(tables.jobs),
    leadWrites: memoryLeadWrites(tables, { rollups, fieldRollups, search }),
    idempotency: idempotencyStore(),
  };
}
