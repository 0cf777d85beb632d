import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { AwsLocation, CloudStorageError, FileStoreError, PresignedFileStore } from '@leadroute/core';
import { okAsync, ResultAsync } from 'neverthrow';
import type { S3Storage } from './index';

/** Options of {@link s3FileStore}. */
export interface S3FileStoreOptions {
  /** The S3 driver, e.g. `s3Storage({ region: 'us-east-2' })`: its `putObject` and `presignGet` are used. */
  readonly driver: Pick<S3Storage, 'putObject' | 'presignGet'>;
  /** The bucket and the credentials export files are written with. */
  readonly location: AwsLocation;
  /**
   * Prepended to every key.
   * @default ''
   * @example 'leadroute/'
   */
  readonly prefix?: string;
  /**
   * Where a file is staged while the export streams, before its single upload.
   * @default os.tmpdir()
   */
  readonly stagingDir?: string;
}

const failure = (message: string, cause?: unknown): FileStoreError => ({
  type: 'StorageFailure',
  message: `[leadroute] [s3] ${message}`,
  cause,
});
const fromCloud = (e: CloudStorageError): FileStoreError => failure(e.message.replace(/^\[leadroute\] \[s3\] /, ''), e);

/**
 * Export files in an S3 bucket, downloaded through S3 pre-signed URLs. The export
 * streams to a staging file on local disk (so rows never pile up in memory while
 * it runs), which is then uploaded with one PutObject: the file is in memory once,
 * during the upload (a single PUT takes up to 5 GB). The driver has no delete, so
 * `remove` does nothing: give the bucket a lifecycle rule that expires export
 * objects after the export lifetime (7 days by default).
 * @example
 * const driver = s3Storage({ region: 'us-east-2' });
 * createLeadService({ storage, fileStore: s3FileStore({ driver, location: { service: 'aws', accessKeyId,
 * secretAccessKey, bucket: 'exports' } }) });
 */
export function s3FileStore(options: S3FileStoreOptions): PresignedFileStore {
  const prefix = options.prefix ?? '';
  const staging = options.stagingDir ?? tmpdir();
  return {
    name: 's3',
    delivery: 'presigned',
    capabilities: { remove: false },
    put(key, body, { contentType }) {
      const path = join(staging, `leadroute-export-${randomUUID()}.part`);
      const stage = async (): Promise<Buffer> => {
        try {
          await pipeline(Readable.from(body), createWriteStream(path));
          return await readFile(path);
        } finally {
          await rm(path, { force: true });
        }
      };
      return ResultAsync.fromPromise(stage(), (e) => failure(`Staging ${key} failed.`, e)).andThen((bytes) =>
        options.driver
          .putObject(options.location, prefix + key, new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), {
            contentType,
          })
          .mapErr(fromCloud)
          .map(() => ({ bytes: bytes.byteLength })),
      );
    },
    presign(key, seconds) {
      return options.driver.presignGet(options.location, prefix + key, seconds).mapErr(fromCloud);
    },
    remove: () => okAsync(undefined),
  };
}
