import type { ExportStore, Id, StoredExport } from '@leadroute/core';
import { errors, type StoreError } from '@leadroute/core';
import { errAsync, okAsync } from 'neverthrow';
import { DONE } from './done';
import { copy } from './tables';

/** Exports by ID. */
export type ExportTable = Map<Id, StoredExport>;

/**
 * The memory export store. Listing sorts the account's exports by ID: creation order to the second (IDs of one second
 * are random).
 */
export function exportStore(table: ExportTable): ExportStore {
  return {
    insert(record) {
      if (table.has(record.id)) return errAsync(errors.conflict('export exists') as StoreError);
      table.set(record.id, copy(record));
      return DONE;
    },
    get: (id) => okAsync(copy(table.get(id))),
    list(q) {
      const page = [...table.values()]
        .filter((e) => e.account_id === q.account_id && e.expires_at > q.live_at)
        .filter(
          (e) => (q.before_id === undefined || e.id < q.before_id) && (q.after_id === undefined || e.id > q.after_id),
        )
        .sort((a, b) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
        .slice(0, q.limit);
      return okAsync(page.map(copy));
    },
    update(id, patch) {
      const current = table.get(id);
      if (!current) return okAsync(undefined);
      const next: StoredExport = { ...current, ...copy(patch) };
      table.set(id, next);
      return okAsync(copy(next));
    },
    addDownload(id, entry) {
      const current = table.get(id);
      if (!current) return okAsync(false);
      table.set(id, { ...current, downloads: [...current.downloads, copy(entry)] });
      return okAsync(true);
    },
  };
}
