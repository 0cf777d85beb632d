import type { FileStoreError, ServedFileStore, StoredFile } from '@leadroute/core';
import { okAsync, ResultAsync } from 'neverthrow';
import { DONE } from './done';

/** The memory file store, with its files exposed for tests. */
export interface MemoryFileStore extends ServedFileStore {
  /** Files by key. */
  readonly files: ReadonlyMap<string, StoredFile>;
}

const encoder = new TextEncoder();

/**
 * Export files kept in the process, served through the service's signed download
 * route: the embedded default and what tests use. A file is whole in memory once
 * written (that is what memory storage is); use `directoryFileStore` or S3 for
 * large exports.
 * @example createLeadService({ storage: memoryStorage(), fileStore: memoryFileStore() })
 */
export function memoryFileStore(): MemoryFileStore {
  const files = new Map<string, StoredFile>();
  return {
    name: 'memory',
    delivery: 'served',
    capabilities: { remove: true },
    files,
    put(key, body, options) {
      const collect = async (): Promise<{ bytes: number }> => {
        const chunks: Uint8Array[] = [];
        let bytes = 0;
        for await (const chunk of body) {
          const part = typeof chunk === 'string' ? encoder.encode(chunk) : chunk;
          chunks.push(part);
          bytes += part.byteLength;
        }
        const whole = new Uint8Array(bytes);
        let at = 0;
        for (const part of chunks) {
          whole.set(part, at);
          at += part.byteLength;
        }
        files.set(key, { body: whole, contentType: options.contentType });
        return { bytes };
      };
      // A failed stream leaves nothing behind: the map is only written at the end.
      return ResultAsync.fromPromise(
        collect(),
        (e): FileStoreError => ({
          type: 'StorageFailure',
          message: `[leadroute] [memory] Writing ${key} failed.`,
          cause: e,
        }),
      );
    },
    read: (key) => okAsync(files.get(key)),
    remove(key) {
      files.delete(key);
      return DONE;
    },
  };
}
