import type { ResultAsync } from 'neverthrow';
import type { ExportDownload, StoredExport } from '../domain/exports';
import type { Id } from '../ids';
import type { StoreError } from './store-error';

/** One page of an account's exports, highest ID first: newest first to the second, as IDs of one second are random. */
export interface ExportListQuery {
  readonly account_id: Id;
  /** Only exports whose expires_at is after this instant (ISO). */
  readonly live_at: string;
  /** Only exports with an ID less than this (exclusive). */
  readonly before_id?: Id;
  /** Only exports with an ID greater than this (exclusive). */
  readonly after_id?: Id;
  readonly limit: number;
}

/** What the export job changes as it runs; absent fields stay as they are. */
export type ExportPatch = Partial<
  Pick<StoredExport, 'status' | 'exported_docs' | 'file_name' | 'file_key' | 'reason' | 'error'>
>;

/** Storage of export requests and their progress. */
export interface ExportStore {
  insert(record: StoredExport): ResultAsync<void, StoreError>;
  get(id: Id): ResultAsync<StoredExport | undefined, StoreError>;
  /** The account's unexpired exports, newest first. */
  list(query: ExportListQuery): ResultAsync<StoredExport[], StoreError>;
  /** Applies `patch` and answers the export as it now is; undefined when there is no such export. */
  update(id: Id, patch: ExportPatch): ResultAsync<StoredExport | undefined, StoreError>;
  /**
   * Appends one entry to the export's downloads, atomically (two concurrent calls
   * both land); false when there is no such export.
   */
  addDownload(id: Id, entry: ExportDownload): ResultAsync<boolean, StoreError>;
}
