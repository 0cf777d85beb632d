import type { ResultAsync } from 'neverthrow';
import type { LeadrouteError } from '../errors';

/**
 * What a file store fails with: its backing store is down or refused the file. `message` reads `[leadroute] [<store>]
 * ...`.
 */
export type FileStoreError = Extract<LeadrouteError, { type: 'StorageFailure' }>;

/** Options of {@link FileStore.put}. */
export interface FilePutOptions {
  /** e.g. `text/csv; charset=utf-8`. */
  readonly contentType: string;
}

/** A stored file read back for serving. */
export interface StoredFile {
  readonly body: Uint8Array;
  readonly contentType: string;
}

interface FileStoreBase {
  /** Names the store in logs and errors, e.g. `memory`, `directory`, `s3`. */
  readonly name: string;
  /**
   * Writes a file under `key` from a stream of chunks, replacing any file there.
   * The store pulls chunks as it can write them, so a large file never sits in
   * memory whole. When the stream fails, nothing is left under `key` (a partial
   * file is removed) and the stream's error comes back as the cause.
   */
  put(
    key: string,
    body: AsyncIterable<Uint8Array | string>,
    options: FilePutOptions,
  ): ResultAsync<{ readonly bytes: number }, FileStoreError>;
  /** What the store can do beyond writing and handing out files. */
  readonly capabilities: {
    /**
     * `remove` deletes. When false, `remove` does nothing and old files are left to
     * the backing store's own expiry (an S3 lifecycle rule).
     */
    readonly remove: boolean;
  };
  /** Removes the file (see `capabilities.remove`); removing a missing file is not an error. */
  remove(key: string): ResultAsync<void, FileStoreError>;
}

/** A store whose files the service serves itself, behind HMAC-signed links (memory, a local directory). */
export interface ServedFileStore extends FileStoreBase {
  readonly delivery: 'served';
  /** The file's bytes, or undefined when there is no file under `key`. */
  read(key: string): ResultAsync<StoredFile | undefined, FileStoreError>;
}

/** A store that signs its own download URLs (S3 pre-signed URLs). */
export interface PresignedFileStore extends FileStoreBase {
  readonly delivery: 'presigned';
  /** A URL that downloads the file without credentials for `expiresInSeconds`. */
  presign(key: string, expiresInSeconds: number): ResultAsync<string, FileStoreError>;
}

/**
 * Where export files go. `delivery` says how downloads work, and core branches on
 * it: `served` files are read through the service's own download route;
 * `presigned` stores hand out their own URLs.
 */
export type FileStore = ServedFileStore | PresignedFileStore;
