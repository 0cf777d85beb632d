import type { ResultAsync } from 'neverthrow';

/**
 * What a cloud storage driver fails with. Drivers catch every SDK exception and
 * return one of these, keeping the original as `cause`.
 *
 * - `InvalidCredentials`: the service does not know the key, or the signature is wrong.
 * - `AccessDenied`: the credentials were refused for this bucket or operation
 *   (also what S3 answers to a HEAD with unknown keys, since HEAD has no error body).
 * - `ContainerNotFound`: the bucket (aws) or container (azure) does not exist.
 * - `InvalidLocation`: the location cannot be used at all (a malformed connection string).
 * - `Unavailable`: the service could not be reached or answered 5xx; worth retrying.
 * - `Failed`: anything else.
 */
export type CloudStorageErrorType =
  | 'InvalidCredentials'
  | 'AccessDenied'
  | 'ContainerNotFound'
  | 'InvalidLocation'
  | 'Unavailable'
  | 'Failed';

/** A cloud storage failure as a value. `message` reads `[leadroute] [s3] ...`. */
export interface CloudStorageError {
  readonly type: CloudStorageErrorType;
  readonly message: string;
  /** The SDK's own exception. */
  readonly cause?: unknown;
}

/** An AWS S3 bucket reached with an access key. */
export interface AwsLocation {
  readonly service: 'aws';
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  /** Temporary credentials only. */
  readonly sessionToken?: string;
  readonly bucket: string;
  /**
   * Overrides the driver's region for this bucket. The S3 driver follows region
   * redirects, so the driver default usually suffices.
   */
  readonly region?: string;
}

/** An Azure Blob Storage container reached with a connection string. */
export interface AzureLocation {
  readonly service: 'azure';
  /** `DefaultEndpointsProtocol=...;AccountName=...;AccountKey=...` or a SAS connection string. */
  readonly connectionString: string;
  readonly container: string;
}

/**
 * Where objects go: credentials plus a bucket or container. Key prefixes are the
 * caller's business; every driver method takes the object's full key.
 */
export type CloudLocation = AwsLocation | AzureLocation;

/** The name of a cloud service as the API spells it (`service=aws|azure`). */
export type CloudService = CloudLocation['service'];

/** The location type of one service. */
export type CloudLocationOf<S extends CloudService> = Extract<CloudLocation, { service: S }>;

/** An object body: text (stored as UTF-8) or bytes. */
export type CloudObjectBody = string | Uint8Array;

/** One object of a batch write. */
export interface CloudObject {
  readonly key: string;
  readonly body: CloudObjectBody;
  /** @default 'application/octet-stream' for bytes, 'text/plain; charset=utf-8' for text */
  readonly contentType?: string;
}

/** Options of a single write. */
export interface PutOptions {
  /** @default derived from the body, as for {@link CloudObject.contentType} */
  readonly contentType?: string;
  /**
   * Write only when no object has this key yet. A driver that supports it
   * (`capabilities.conditionalWrites`) answers `{ written: false }` when the key
   * exists; one that does not simply overwrites.
   * @default false
   */
  readonly ifAbsent?: boolean;
}

/** What a write did. `written: false` only with `ifAbsent` when the object already existed. */
export interface PutOutcome {
  readonly written: boolean;
}

/** The outcome of one object of a batch, in the order given. */
export type BatchItemOutcome =
  | { readonly key: string; readonly ok: true; readonly written: boolean }
  | { readonly key: string; readonly ok: false; readonly error: CloudStorageError };

/** What a driver can do beyond the required methods. Core branches on these, never on method presence. */
export interface CloudStorageCapabilities {
  /** `presignGet` is implemented. */
  readonly presignedUrls: boolean;
  /** `PutOptions.ifAbsent` is honoured. */
  readonly conditionalWrites: boolean;
}

/**
 * The cloud storage port: one driver per service (`@leadroute/s3`, `@leadroute/azure-blob`).
 * Used by firehose validation and delivery, and by exports for their files.
 */
export interface CloudStorageDriver<S extends CloudService = CloudService> {
  /** The service this driver speaks to. */
  readonly service: S;
  readonly capabilities: CloudStorageCapabilities;
  /**
   * Checks that the credentials are accepted and the bucket or container exists,
   * without writing anything.
   */
  validate(location: CloudLocationOf<S>): ResultAsync<void, CloudStorageError>;
  /** Writes one object under its full key. */
  putObject(
    location: CloudLocationOf<S>,
    key: string,
    body: CloudObjectBody,
    options?: PutOptions,
  ): ResultAsync<PutOutcome, CloudStorageError>;
  /**
   * Writes several objects to one location. The batch fails as a whole only when it
   * could not be attempted; otherwise each object reports its own outcome.
   */
  putObjects(
    location: CloudLocationOf<S>,
    objects: readonly CloudObject[],
    options?: Omit<PutOptions, 'contentType'>,
  ): ResultAsync<readonly BatchItemOutcome[], CloudStorageError>;
  /**
   * A URL that downloads the object without credentials until it expires.
   * Present when `capabilities.presignedUrls` is true.
   */
  presignGet?(
    location: CloudLocationOf<S>,
    key: string,
    expiresInSeconds: number,
  ): ResultAsync<string, CloudStorageError>;
}

/** The drivers the service can use, by service name. A missing one means that service is not available. */
export interface CloudStorageDrivers {
  readonly aws?: CloudStorageDriver<'aws'>;
  readonly azure?: CloudStorageDriver<'azure'>;
}
