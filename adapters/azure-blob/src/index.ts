import { createHash } from 'node:crypto';
import { BlobServiceClient, type StoragePipelineOptions } from '@azure/storage-blob';
import type {
  AzureLocation,
  CloudObjectBody,
  CloudStorageDriver,
  CloudStorageError,
  CloudStorageErrorType,
  PutOptions,
  PutOutcome,
} from '@leadroute/core';
import { putMany } from '@leadroute/core';
import { errAsync, ok, okAsync, Result, ResultAsync } from 'neverthrow';

export { azureBlobFileStore, type AzureBlobFileStoreOptions } from './file-store';

/** Options of {@link azureBlobStorage}. */
export interface AzureBlobStorageOptions {
  /**
   * Attempts per request, the first included (the SDK's own retries). Firehose
   * delivery retries on its own schedule, so a low number keeps requests short.
   * @default 3
   */
  readonly maxTries?: number;
  /**
   * Longest time one attempt may take, in ms; 0 leaves it to the service.
   * @default 30000
   */
  readonly tryTimeoutMs?: number;
  /** How many blobs of a batch are written at once. @default 8 */
  readonly batchConcurrency?: number;
  /** More pipeline settings (proxy, user agent, keep-alive), applied under the ones above. */
  readonly pipelineOptions?: StoragePipelineOptions;
  /**
   * Builds the client for one connection string.
   * @default `(cs, options) => BlobServiceClient.fromConnectionString(cs, options)`
   */
  readonly clientFactory?: (connectionString: string, options: StoragePipelineOptions) => BlobServiceClient;
  /** Clients kept, one per connection string; the least recently used is dropped. @default 32 */
  readonly maxClients?: number;
}

const DRIVER = 'azure-blob';

const cloudStorageError = (type: CloudStorageErrorType, message: string, cause?: unknown): CloudStorageError =>
  cause === undefined
    ? { type, message: `[leadroute] [${DRIVER}] ${message}` }
    : { type, message: `[leadroute] [${DRIVER}] ${message}`, cause };

const defaultContentType = (body: CloudObjectBody): string =>
  typeof body === 'string' ? 'text/plain; charset=utf-8' : 'application/octet-stream';

const CREDENTIAL_CODES = new Set(['AuthenticationFailed', 'InvalidAuthenticationInfo', 'NoAuthenticationInformation']);
const ACCESS_CODES = new Set([
  'AuthorizationFailure',
  'AuthorizationPermissionMismatch',
  'AuthorizationResourceTypeMismatch',
  'AuthorizationServiceMismatch',
  'AuthorizationProtocolMismatch',
  'AuthorizationSourceIPMismatch',
  'InsufficientAccountPermissions',
  'AccountIsDisabled',
]);
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'REQUEST_SEND_ERROR',
  'ServerBusy',
  'OperationTimedOut',
  'InternalError',
]);

function shape(e: unknown): { code: string; status: number | undefined; message: string; name: string } {
  const s = (typeof e === 'object' && e !== null ? e : {}) as Record<string, unknown>;
  const details = (typeof s.details === 'object' && s.details !== null ? s.details : {}) as Record<string, unknown>;
  const code = typeof s.code === 'string' ? s.code : typeof details.errorCode === 'string' ? details.errorCode : '';
  return {
    code,
    status: typeof s.statusCode === 'number' ? s.statusCode : undefined,
    // Service messages run over several lines (RequestId, Time): the first says what matters.
    message: (typeof s.message === 'string' ? s.message : String(e)).split('\n')[0] ?? '',
    name: typeof s.name === 'string' ? s.name : '',
  };
}

/** Turns any exception of the SDK into a port error; `what` says which request failed. */
export function azureBlobError(e: unknown, what: string): CloudStorageError {
  const { code, status, message, name } = shape(e);
  const detail = `${what} failed: ${code ? `${code}: ` : status ? `HTTP ${status}: ` : ''}${message || 'no message'}`;
  if (code === 'ContainerNotFound') return cloudStorageError('ContainerNotFound', detail, e);
  // Azurite answers a bad signature with AuthorizationFailure where Azure says AuthenticationFailed.
  if (CREDENTIAL_CODES.has(code) || (code === 'AuthorizationFailure' && /failed to authenticate/i.test(message)))
    return cloudStorageError('InvalidCredentials', detail, e);
  if (ACCESS_CODES.has(code) || status === 403) return cloudStorageError('AccessDenied', detail, e);
  if (code === 'InvalidResourceName' || code === 'OutOfRangeInput')
    return cloudStorageError('InvalidLocation', detail, e);
  if (
    UNAVAILABLE_CODES.has(code) ||
    (status !== undefined && (status >= 500 || status === 408 || status === 429)) ||
    name === 'AbortError'
  )
    return cloudStorageError('Unavailable', detail, e);
  if (status === 404 && what.startsWith('GetContainerProperties'))
    return cloudStorageError('ContainerNotFound', detail, e);
  return cloudStorageError('Failed', detail, e);
}

function checkLocation(location: AzureLocation, key?: string): CloudStorageError | undefined {
  if (!location.connectionString) return cloudStorageError('InvalidLocation', 'Missing connection string.');
  if (!location.container) return cloudStorageError('InvalidLocation', 'Missing container name.');
  if (key !== undefined && key === '') return cloudStorageError('InvalidLocation', 'Missing blob name.');
  return undefined;
}

/**
 * The Azure Blob Storage driver of the cloud storage port: firehose validation and
 * delivery. Locations carry a connection string (account key or SAS).
 * @example
 * const service = createLeadService({ cloudStorage: { azure: azureBlobStorage() } });
 */
export function azureBlobStorage(options: AzureBlobStorageOptions = {}): CloudStorageDriver<'azure'> {
  const maxClients = Math.max(1, options.maxClients ?? 32);
  const concurrency = Math.max(1, options.batchConcurrency ?? 8);
  const pipeline: StoragePipelineOptions = {
    ...options.pipelineOptions,
    retryOptions: {
      ...options.pipelineOptions?.retryOptions,
      maxTries: options.maxTries ?? 3,
      tryTimeoutInMs: options.tryTimeoutMs ?? 30_000,
    },
  };
  const factory =
    options.clientFactory ?? ((cs: string, o: StoragePipelineOptions) => BlobServiceClient.fromConnectionString(cs, o));
  const clients = new Map<string, BlobServiceClient>();

  // fromConnectionString throws on a malformed string; that is the caller's input, not an SDK failure.
  const parse = Result.fromThrowable(
    (cs: string) => factory(cs, pipeline),
    (e) =>
      cloudStorageError(
        'InvalidLocation',
        `The connection string is not valid: ${e instanceof Error ? e.message : String(e)}`,
        e,
      ),
  );

  const clientFor = (location: AzureLocation): Result<BlobServiceClient, CloudStorageError> => {
    const id = createHash('sha256').update(location.connectionString).digest('hex');
    const cached = clients.get(id);
    if (cached) {
      clients.delete(id);
      clients.set(id, cached);
      return ok(cached);
    }
    return parse(location.connectionString).map((client) => {
      clients.set(id, client);
      for (const oldId of clients.keys()) {
        if (clients.size <= maxClients) break;
        clients.delete(oldId);
      }
      return client;
    });
  };

  const put = (
    location: AzureLocation,
    key: string,
    body: CloudObjectBody,
    opts: PutOptions = {},
  ): ResultAsync<PutOutcome, CloudStorageError> => {
    const invalid = checkLocation(location, key);
    if (invalid) return errAsync(invalid);
    const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
    return clientFor(location).asyncAndThen((service) =>
      ResultAsync.fromPromise(
        service
          .getContainerClient(location.container)
          .getBlockBlobClient(key)
          .upload(bytes, bytes.byteLength, {
            blobHTTPHeaders: { blobContentType: opts.contentType ?? defaultContentType(body) },
            ...(opts.ifAbsent ? { conditions: { ifNoneMatch: '*' } } : {}),
          })
          .then(
            (): PutOutcome => ({ written: true }),
            (e: unknown): PutOutcome => {
              if (opts.ifAbsent && shape(e).code === 'BlobAlreadyExists') return { written: false };
              throw e;
            },
          ),
        (e) => azureBlobError(e, `PutBlob ${location.container}/${key}`),
      ),
    );
  };

  return {
    service: 'azure',
    capabilities: { presignedUrls: false, conditionalWrites: true },

    validate(location) {
      const invalid = checkLocation(location);
      if (invalid) return errAsync(invalid);
      return clientFor(location).asyncAndThen((service) =>
        ResultAsync.fromPromise(service.getContainerClient(location.container).getProperties(), (e) =>
          azureBlobError(e, `GetContainerProperties ${location.container}`),
        ).map(() => undefined),
      );
    },

    putObject: put,

    putObjects(location, objects, opts = {}) {
      const invalid = checkLocation(location);
      if (invalid) return errAsync(invalid);
      if (objects.length === 0) return okAsync([]);
      return putMany(put, location, objects, opts, concurrency);
    },
  };
}
