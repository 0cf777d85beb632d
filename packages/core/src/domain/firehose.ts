/** A flow's firehose configuration: where its events are copied (S3 or Azure Blob Storage). */

/** Delivery of a flow's events to an AWS S3 bucket. */
export interface AwsFirehoseService {
  readonly enabled: boolean;
  /** The stored credential (access key ID and secret) to write with. */
  readonly credential_id: string;
  readonly bucket: string;
  /** Key prefix; events go to `<prefix>/<lead id>/<event id>.json`. */
  readonly prefix?: string;
}

/** Delivery of a flow's events to an Azure Blob Storage container. */
export interface AzureFirehoseService {
  readonly enabled: boolean;
  /** A stored credential holding the connection string; needed unless `connection_string` is given. */
  readonly credential_id?: string;
  /** The container name. */
  readonly bucket: string;
  readonly connection_string?: string;
  readonly prefix?: string;
}

/**
 * A flow's firehose configuration in its service form, the only form the rest of
 * the code sees. The legacy flat form is read as `services.aws`.
 */
export interface FirehoseConfig {
  readonly enabled: boolean;
  readonly services: {
    readonly aws?: AwsFirehoseService;
    readonly azure?: AzureFirehoseService;
  };
}

/** The legacy flat form (AWS only), still accepted on input. */
export interface LegacyFirehoseConfig {
  readonly enabled?: boolean;
  readonly credential_id?: string;
  readonly bucket?: string;
  readonly prefix?: string;
}

/** What a flow may carry as `firehose`: either form. */
export type FirehoseConfigInput =
  | LegacyFirehoseConfig
  | { readonly enabled?: boolean; readonly services?: Record<string, unknown> };
