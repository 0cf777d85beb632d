import { Readable } from 'node:stream';
import { BlobSASPermissions, BlobServiceClient, type StoragePipelineOptions } from '@azure/storage-blob';
import type { FileStoreError, PresignedFileStore } from '@leadroute/core';
import { ResultAsync } from 'neverthrow';

/** Options of {@link azureBlobFileStore}. */
export interface AzureBlobFileStoreOptions {
  /**
   * A connection string with the account key (`AccountName=...;AccountKey=...`): download
   * links are SAS URLs signed with that key, so a SAS connection string cannot sign them.
   */
  readonly connectionString: string;
  /** The container export files go to; it must exist. */
  readonly container: string;
  /**
   * Prepended to every blob name.
   * @default ''
   * @example 'leadroute/'
   */
  readonly prefix?: string;
  /** Pipeline settings (retries, proxy) of the client. @default the SDK's */
  readonly pipelineOptions?: StoragePipelineOptions;
}

const DRIVER = 'azure-blob';
const failure = (message: string, cause?: unknown): FileStoreError => ({
  type: 'StorageFailure',
  message: `[leadroute] [${DRIVER}] ${message}`,
  cause,
});
const describe = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/**
 * Export files in an Azure Blob Storage container, downloaded through read-only SAS
 * URLs. The CSV streams into a block blob (4 MiB blocks, committed once the stream
 * ends), so neither the rows nor the file are held whole; when the stream fails, no
 * block list is committed and nothing appears under the name.
 * @example
 * createLeadService({ storage, fileStore: azureBlobFileStore({ connectionString, container: 'exports' }) });
 */
export function azureBlobFileStore(options: AzureBlobFileStoreOptions): PresignedFileStore {
  // A malformed connection string is a configuration error, found at start-up.
  if (!options.connectionString)
    throw new TypeError(`[leadroute] [${DRIVER}] Missing required option connectionString.`);
  if (!options.container) throw new TypeError(`[leadroute] [${DRIVER}] Missing required option container.`);
  const container = BlobServiceClient.fromConnectionString(
    options.connectionString,
    options.pipelineOptions,
  ).getContainerClient(options.container);
  const prefix = options.prefix ?? '';
  const blob = (key: string) => container.getBlockBlobClient(prefix + key);

  return {
    name: DRIVER,
    delivery: 'presigned',
    capabilities: { remove: true },
    put(key, body, { contentType }) {
      let bytes = 0;
      async function* counted(): AsyncGenerator<Buffer> {
        for await (const chunk of body) {
          const buffer =
            typeof chunk === 'string'
              ? Buffer.from(chunk, 'utf8')
              : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
          bytes += buffer.byteLength;
          yield buffer;
        }
      }
      return ResultAsync.fromPromise(
        blob(key).uploadStream(Readable.from(counted()), 4 * 1024 * 1024, 4, {
          blobHTTPHeaders: { blobContentType: contentType },
        }),
        (e) => failure(`Uploading ${options.container}/${prefix}${key} failed: ${describe(e)}`, e),
      ).map(() => ({ bytes }));
    },
    presign(key, seconds) {
      return ResultAsync.fromPromise(
        // generateSasUrl throws synchronously without an account key; inside the async function that becomes a
        // rejection.
        (async () =>
          blob(key).generateSasUrl({
            permissions: BlobSASPermissions.parse('r'),
            expiresOn: new Date(Date.now() + seconds * 1000),
          }))(),
        (e) => failure(`Signing a download URL for ${options.container}/${prefix}${key} failed: ${describe(e)}`, e),
      );
    },
    remove(key) {
      return ResultAsync.fromPromise(blob(key).deleteIfExists(), (e) =>
        failure(`Deleting ${options.container}/${prefix}${key} failed: ${describe(e)}`, e),
      ).map(() => undefined);
    },
  };
}
