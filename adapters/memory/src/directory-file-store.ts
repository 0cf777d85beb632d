import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, readFile, rename, rm } from 'node:fs/promises';
import { dirname, extname, resolve, sep } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FileStoreError, ServedFileStore } from '@leadroute/core';
import { errAsync, ResultAsync } from 'neverthrow';

/** Options of {@link directoryFileStore}. */
export interface DirectoryFileStoreOptions {
  /** The directory files go under (created when missing). Keys become relative paths in it. */
  readonly dir: string;
}

const CONTENT_TYPES: Record<string, string> = {
  '.csv': 'text/csv; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.json': 'application/json',
};

const failure = (message: string, cause?: unknown): FileStoreError => ({
  type: 'StorageFailure',
  message: `[leadroute] [directory] ${message}`,
  cause,
});

/**
 * Export files in a local directory, served through the service's signed download
 * route. Files are streamed to disk (a temporary name, renamed when complete), so
 * an export never sits in memory whole. The content type is read back from the
 * file's extension.
 * @example createLeadService({ storage, fileStore: directoryFileStore({ dir: '/var/lib/leadroute/exports' }) })
 */
export function directoryFileStore(options: DirectoryFileStoreOptions): ServedFileStore {
  const root = resolve(options.dir);
  // Keys are the service's own, but a key must never reach outside the directory.
  const pathOf = (key: string): string | undefined => {
    const path = resolve(root, key);
    return key !== '' && !key.includes('\u0000') && path.startsWith(root + sep) ? path : undefined;
  };
  const badKey = (key: string) => errAsync(failure(`The key ${JSON.stringify(key)} is not a path inside ${root}.`));

  return {
    name: 'directory',
    delivery: 'served',
    capabilities: { remove: true },
    put(key, body) {
      const path = pathOf(key);
      if (!path) return badKey(key);
      const partial = `${path}.${randomUUID()}.partial`;
      let bytes = 0;
      async function* counted(): AsyncIterable<Uint8Array | string> {
        for await (const chunk of body) {
          bytes += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.byteLength;
          yield chunk;
        }
      }
      const write = async () => {
        await mkdir(dirname(path), { recursive: true });
        try {
          await pipeline(Readable.from(counted()), createWriteStream(partial));
          await rename(partial, path);
        } catch (e) {
          await rm(partial, { force: true });
          throw e;
        }
        return { bytes };
      };
      return ResultAsync.fromPromise(write(), (e) => failure(`Writing ${key} failed.`, e));
    },
    read(key) {
      const path = pathOf(key);
      if (!path) return badKey(key);
      return ResultAsync.fromPromise(
        readFile(path).then(
          (body) => ({
            body: new Uint8Array(body.buffer, body.byteOffset, body.byteLength),
            contentType: CONTENT_TYPES[extname(path)] ?? 'application/octet-stream',
          }),
          (e: NodeJS.ErrnoException) => {
            if (e.code === 'ENOENT') return undefined;
            throw e;
          },
        ),
        (e) => failure(`Reading ${key} failed.`, e),
      );
    },
    remove(key) {
      const path = pathOf(key);
      if (!path) return badKey(key);
      return ResultAsync.fromPromise(rm(path, { force: true }), (e) => failure(`Removing ${key} failed.`, e));
    },
  };
}
