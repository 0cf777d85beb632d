import { createHash } from 'node:crypto';
import {
  GetObjectCommand,
  HeadBucketCommand,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type {
  AwsLocation,
  CloudObjectBody,
  CloudStorageDriver,
  CloudStorageError,
  CloudStorageErrorType,
  PutOptions,
  PutOutcome,
} from '@leadroute/core';
import { putMany } from '@leadroute/core';
import { errAsync, okAsync, ResultAsync } from 'neverthrow';

export { s3FileStore, type S3FileStoreOptions } from './file-store';

/** Options of {@link s3Storage}. */
export interface S3StorageOptions {
  /**
   * The region of buckets whose location names none. Requests to a bucket in
   * another region follow S3's redirect.
   * @default 'us-east-1'
   */
  readonly region?: string;
  /**
   * Another S3-compatible endpoint (MinIO, s3rver, LocalStack).
   * @example 'http://127.0.0.1:4569'
   */
  readonly endpoint?: string;
  /**
   * Address buckets as `endpoint/bucket` rather than `bucket.endpoint`; needed by most
   * S3-compatible servers.
   * @default false
   */
  readonly forcePathStyle?: boolean;
  /**
   * Attempts per request, the first included (the SDK's own retries). Firehose
   * delivery retries on its own schedule, so a low number keeps requests short.
   * @default 3
   */
  readonly maxAttempts?: number;
  /**
   * Longest wait for a response, in ms, so a hung request cannot outlive the
   * spool's lease. Ignored when `clientConfig.requestHandler` is given.
   * @default 30000
   */
  readonly requestTimeoutMs?: number;
  /** How many objects of a batch are written at once. @default 8 */
  readonly batchConcurrency?: number;
  /**
   * More client settings, applied under the ones above, e.g.
   * `{ requestChecksumCalculation: 'WHEN_REQUIRED', responseChecksumValidation: 'WHEN_REQUIRED' }`
   * for servers that do not know flexible checksums.
   */
  readonly clientConfig?: Omit<S3ClientConfig, 'credentials' | 'region'>;
  /** Builds the client for one set of credentials. @default `(config) => new S3Client(config)` */
  readonly clientFactory?: (config: S3ClientConfig) => S3Client;
  /** Clients kept, one per credentials and region; the least recently used is destroyed. @default 32 */
  readonly maxClients?: number;
}

/** The S3 driver: the cloud storage port plus `close()`, which destroys its clients. */
export interface S3Storage extends CloudStorageDriver<'aws'> {
  presignGet(location: AwsLocation, key: string, expiresInSeconds: number): ResultAsync<string, CloudStorageError>;
  close(): void;
}

const DRIVER = 's3';

const cloudStorageError = (type: CloudStorageErrorType, message: string, cause?: unknown): CloudStorageError =>
  cause === undefined
    ? { type, message: `[leadroute] [${DRIVER}] ${message}` }
    : { type, message: `[leadroute] [${DRIVER}] ${message}`, cause };

const defaultContentType = (body: CloudObjectBody): string =>
  typeof body === 'string' ? 'text/plain; charset=utf-8' : 'application/octet-stream';

const CREDENTIAL_ERRORS = new Set([
  'InvalidAccessKeyId',
  'SignatureDoesNotMatch',
  'InvalidToken',
  'ExpiredToken',
  'TokenRefreshRequired',
  'InvalidClientTokenId',
  'AuthorizationHeaderMalformed',
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
  'UND_ERR_SOCKET',
]);

interface SdkErrorShape {
  name?: unknown;
  code?: unknown;
  message?: unknown;
  $fault?: unknown;
  $metadata?: { httpStatusCode?: unknown };
}

function shape(e: unknown): { name: string; code: string; message: string; status: number | undefined; fault: string } {
  const s = (typeof e === 'object' && e !== null ? e : {}) as SdkErrorShape;
  const status = s.$metadata?.httpStatusCode;
  return {
    name: typeof s.name === 'string' ? s.name : '',
    code: typeof s.code === 'string' ? s.code : '',
    message: typeof s.message === 'string' ? s.message : String(e),
    status: typeof status === 'number' ? status : undefined,
    fault: typeof s.$fault === 'string' ? s.$fault : '',
  };
}

/** Turns any exception of the SDK into a port error; `what` says which request failed. */
export function s3Error(e: unknown, what: string): CloudStorageError {
  const { name, code, message, status, fault } = shape(e);
  // HEAD answers carry no error body: the SDK can only say "UnknownError".
  const text = message === 'UnknownError' && status !== undefined ? `HTTP ${status}` : message;
  const detail = `${what} failed: ${name && !text.startsWith(name) ? `${name}: ` : ''}${text}`;
  if (name === 'NoSuchBucket' || (status === 404 && what.startsWith('HeadBucket')))
    return cloudStorageError('ContainerNotFound', detail, e);
  if (CREDENTIAL_ERRORS.has(name)) return cloudStorageError('InvalidCredentials', detail, e);
  if (name === 'AccessDenied' || name === 'AllAccessDisabled' || status === 403)
    return cloudStorageError('AccessDenied', detail, e);
  if (name === 'InvalidBucketName') return cloudStorageError('InvalidLocation', detail, e);
  if (
    (status !== undefined && status >= 500) ||
    status === 429 ||
    fault === 'server' ||
    UNAVAILABLE_CODES.has(code) ||
    UNAVAILABLE_CODES.has(name) ||
    name === 'TimeoutError' ||
    name === 'RequestTimeout' ||
    name === 'ConditionalRequestConflict'
  )
    return cloudStorageError('Unavailable', detail, e);
  return cloudStorageError('Failed', detail, e);
}

const isPreconditionFailed = (e: unknown): boolean => {
  const { name, status } = shape(e);
  return name === 'PreconditionFailed' || status === 412;
};

function checkLocation(location: AwsLocation, key?: string): CloudStorageError | undefined {
  if (!location.accessKeyId || !location.secretAccessKey)
    return cloudStorageError('InvalidCredentials', 'Missing access key ID or secret access key.');
  if (!location.bucket) return cloudStorageError('InvalidLocation', 'Missing bucket name.');
  if (key !== undefined && key === '') return cloudStorageError('InvalidLocation', 'Missing object key.');
  return undefined;
}

/**
 * The AWS S3 driver of the cloud storage port: firehose validation and delivery,
 * export files with pre-signed download links.
 * @example
 * const service = createLeadService({ cloudStorage: { aws: s3Storage({ region: 'us-east-2' }) } });
 */
export function s3Storage(options: S3StorageOptions = {}): S3Storage {
  const region = options.region ?? 'us-east-1';
  const maxClients = Math.max(1, options.maxClients ?? 32);
  const concurrency = Math.max(1, options.batchConcurrency ?? 8);
  const factory = options.clientFactory ?? ((config: S3ClientConfig) => new S3Client(config));
  const clients = new Map<string, S3Client>();

  const clientFor = (location: AwsLocation): S3Client => {
    const r = location.region ?? region;
    const id = createHash('sha256')
      .update([r, location.accessKeyId, location.secretAccessKey, location.sessionToken ?? ''].join('\u0000'))
      .digest('hex');
    const cached = clients.get(id);
    if (cached) {
      clients.delete(id);
      clients.set(id, cached);
      return cached;
    }
    const client = factory({
      followRegionRedirects: true,
      maxAttempts: options.maxAttempts ?? 3,
      requestHandler: { requestTimeout: options.requestTimeoutMs ?? 30_000, connectionTimeout: 5000 },
      ...options.clientConfig,
      ...(options.endpoint === undefined ? {} : { endpoint: options.endpoint }),
      ...(options.forcePathStyle === undefined ? {} : { forcePathStyle: options.forcePathStyle }),
      region: r,
      credentials: {
        accessKeyId: location.accessKeyId,
        secretAccessKey: location.secretAccessKey,
        ...(location.sessionToken === undefined ? {} : { sessionToken: location.sessionToken }),
      },
    });
    clients.set(id, client);
    for (const [oldId, old] of clients) {
      if (clients.size <= maxClients) break;
      clients.delete(oldId);
      old.destroy();
    }
    return client;
  };

  const put = (
    location: AwsLocation,
    key: string,
    body: CloudObjectBody,
    opts: PutOptions = {},
  ): ResultAsync<PutOutcome, CloudStorageError> => {
    const invalid = checkLocation(location, key);
    if (invalid) return errAsync(invalid);
    const command = new PutObjectCommand({
      Bucket: location.bucket,
      Key: key,
      Body: body,
      ContentType: opts.contentType ?? defaultContentType(body),
      ...(opts.ifAbsent ? { IfNoneMatch: '*' } : {}),
    });
    return ResultAsync.fromPromise(
      clientFor(location)
        .send(command)
        .then(
          (): PutOutcome => ({ written: true }),
          (e: unknown): PutOutcome => {
            if (opts.ifAbsent && isPreconditionFailed(e)) return { written: false };
            throw e;
          },
        ),
      (e) => s3Error(e, `PutObject s3://${location.bucket}/${key}`),
    );
  };

  return {
    service: 'aws',
    capabilities: { presignedUrls: true, conditionalWrites: true },

    validate(location) {
      const invalid = checkLocation(location);
      if (invalid) return errAsync(invalid);
      return ResultAsync.fromPromise(
        clientFor(location).send(new HeadBucketCommand({ Bucket: location.bucket })),
        (e) => s3Error(e, `HeadBucket s3://${location.bucket}`),
      ).map(() => undefined);
    },

    putObject: put,

    putObjects(location, objects, opts = {}) {
      const invalid = checkLocation(location);
      if (invalid) return errAsync(invalid);
      if (objects.length === 0) return okAsync([]);
      return putMany(put, location, objects, opts, concurrency);
    },

    presignGet(location, key, expiresInSeconds) {
      const invalid = checkLocation(location, key);
      if (invalid) return errAsync(invalid);
      return ResultAsync.fromPromise(
        getSignedUrl(clientFor(location), new GetObjectCommand({ Bucket: location.bucket, Key: key }), {
          expiresIn: expiresInSeconds,
        }),
        (e) => s3Error(e, `presign GetObject s3://${location.bucket}/${key}`),
      );
    },

    close() {
      for (const client of clients.values()) client.destroy();
      clients.clear();
    },
  };
}
