import { err, ok, type Result } from 'neverthrow';

/** One environment variable the server reads: the README's table is checked against this list. */
export interface EnvVar {
  readonly name: string;
  /** What applies when it is unset, as the README shows it. */
  readonly default: string;
  readonly description: string;
}

/** Every variable, in the order the README's Deploy table lists them. */
export const ENV_VARS: readonly EnvVar[] = [
  { name: 'PORT', default: '3000', description: 'TCP port of the API (0 picks a free one).' },
  { name: 'HOST', default: '127.0.0.1', description: 'Address to listen on; the Docker image sets 0.0.0.0.' },
  {
    name: 'LEADROUTE_PUBLIC_URL',
    default: 'http://HOST:PORT',
    description: 'Base URL clients reach the API at, for served export download links.',
  },
  {
    name: 'DATABASE_URL',
    default: '(memory)',
    description: 'PostgreSQL connection string; migrations run at start. Unset: in-memory storage (data lost on exit).',
  },
  {
    name: 'LEADROUTE_DATABASE_SCHEMA',
    default: 'public',
    description: "Schema holding Leadroute's tables (created when missing).",
  },
  { name: 'LEADROUTE_DATABASE_POOL_MAX', default: '10', description: 'Most PostgreSQL connections of the pool.' },
  {
    name: 'DATABASE_READ_URL',
    default: '(DATABASE_URL)',
    description: 'A replica for statistics and lead search, which tolerate its lag (docs/scaling.md).',
  },
  {
    name: 'LEADROUTE_INSTANCES',
    default: '1',
    description:
      'How many instances share the database. Above 1, memory storage and memory export files are refused (set LEADROUTE_S3_BUCKET or LEADROUTE_AZURE_CONNECTION_STRING).',
  },
  {
    name: 'LEADROUTE_S3_BUCKET',
    default: '(none)',
    description: 'Bucket for export files; with it, downloads are S3 pre-signed URLs.',
  },
  {
    name: 'LEADROUTE_S3_REGION',
    default: 'us-east-1',
    description: 'Region of the S3 driver (export files and firehose delivery to S3).',
  },
  {
    name: 'LEADROUTE_S3_ENDPOINT',
    default: '(AWS)',
    description: 'An S3-compatible endpoint (MinIO, s3rver); optional checksums are then sent only when required.',
  },
  {
    name: 'LEADROUTE_S3_ACCESS_KEY_ID',
    default: '(none)',
    description: 'Access key of the export bucket; required with LEADROUTE_S3_BUCKET.',
  },
  {
    name: 'LEADROUTE_S3_SECRET_ACCESS_KEY',
    default: '(none)',
    description: 'Its secret; required with LEADROUTE_S3_BUCKET.',
  },
  {
    name: 'LEADROUTE_S3_FORCE_PATH_STYLE',
    default: 'false',
    description: 'Address buckets as endpoint/bucket (most S3-compatible servers need true).',
  },
  { name: 'LEADROUTE_S3_PREFIX', default: '(none)', description: 'Prefix of export object keys in the bucket.' },
  {
    name: 'LEADROUTE_AZURE_CONNECTION_STRING',
    default: '(none)',
    description: 'Connection string (with the account key) for export files in Azure Blob; downloads are SAS URLs.',
  },
  {
    name: 'LEADROUTE_AZURE_CONTAINER',
    default: '(none)',
    description: 'Container for export files; required with the connection string.',
  },
  { name: 'LEADROUTE_AZURE_PREFIX', default: '(none)', description: 'Prefix of export blob names in the container.' },
  {
    name: 'LEADROUTE_AZURE_MAX_TRIES',
    default: '3',
    description: 'Attempts per request of the Azure Blob driver (firehose delivery to Azure).',
  },
  {
    name: 'LEADROUTE_AZURE_TRY_TIMEOUT_MS',
    default: '30000',
    description: 'Longest single Azure Blob attempt, in ms.',
  },
  {
    name: 'LEADROUTE_EXPORT_DIR',
    default: '(memory)',
    description: 'Without S3 or Azure: directory for export files, served through signed links. Unset: kept in memory.',
  },
  {
    name: 'LEADROUTE_EXPORT_LINK_SECRET',
    default: '(random)',
    description: 'HMAC key of served download links; give every process the same one.',
  },
  {
    name: 'LEADROUTE_EXPORT_PAGE_SIZE',
    default: '1000',
    description: 'Events read per page while an export runs (a shutdown stops an export at a page).',
  },
  {
    name: 'LEADROUTE_EXPORT_POLL_MS',
    default: '5000',
    description: 'How often the export worker looks for work left by other processes.',
  },
  {
    name: 'LEADROUTE_EXPORT_LEASE_MS',
    default: '120000',
    description:
      'How long an export job stays with an instance that stopped heartbeating before another takes it over.',
  },
  {
    name: 'LEADROUTE_SMTP_URL',
    default: '(log only)',
    description:
      'SMTP server for alert and export e-mail, e.g. smtp://user:pass@mail:587. Unset: messages are logged and dropped.',
  },
  { name: 'LEADROUTE_SMTP_FROM', default: 'Leadroute <leadroute@localhost>', description: 'Sender of every e-mail.' },
  { name: 'LEADROUTE_ALERT_INTERVAL_MS', default: '60000', description: 'Pause between alert detector passes.' },
  {
    name: 'LEADROUTE_ALERT_SETTINGS',
    default: '(defaults)',
    description: 'Platform alert settings overrides as JSON, e.g. {"email_to":["ops@example.com"]}; applied at start.',
  },
  {
    name: 'LEADROUTE_RETENTION_INTERVAL_MS',
    default: '3600000',
    description: 'Pause between retention purges (expired events, leads, search entries, counters, idempotency keys).',
  },
  {
    name: 'LEADROUTE_FIREHOSE_INTERVAL_MS',
    default: '5000',
    description: 'Pause between retries of spooled firehose deliveries.',
  },
  {
    name: 'LEADROUTE_BOOTSTRAP_ACCOUNT_NAME',
    default: '(none)',
    description: 'With the next one: an account created at start unless its key already works.',
  },
  { name: 'LEADROUTE_BOOTSTRAP_API_KEY', default: '(none)', description: 'Its API key (at least 16 characters).' },
  { name: 'LEADROUTE_BOOTSTRAP_TIME_ZONE', default: 'UTC', description: "The bootstrap account's IANA time zone." },
  {
    name: 'LEADROUTE_LOG_LEVEL',
    default: 'info',
    description: 'debug, info, warn or error; logs are JSON lines on stdout.',
  },
  {
    name: 'LEADROUTE_SHUTDOWN_TIMEOUT_MS',
    default: '20000',
    description: 'On SIGTERM/SIGINT, the longest wait for requests and jobs to end before exiting 1.',
  },
];

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** The server's configuration, read once from the environment. */
export interface ServerConfig {
  readonly port: number;
  readonly host: string;
  readonly publicUrl: string | undefined;
  readonly database:
    | { readonly url: string; readonly readUrl?: string; readonly schema: string; readonly poolMax: number }
    | undefined;
  /** How many instances share the database (LEADROUTE_INSTANCES); above 1, nothing may live in one process's memory. */
  readonly instances: number;
  readonly s3: {
    readonly region: string;
    readonly endpoint: string | undefined;
    readonly forcePathStyle: boolean;
    readonly exports:
      | {
          readonly bucket: string;
          readonly accessKeyId: string;
          readonly secretAccessKey: string;
          readonly prefix: string;
        }
      | undefined;
  };
  readonly azure: {
    readonly maxTries: number;
    readonly tryTimeoutMs: number;
    readonly exports:
      | { readonly connectionString: string; readonly container: string; readonly prefix: string }
      | undefined;
  };
  readonly exports: {
    readonly dir: string | undefined;
    readonly linkSecret: string | undefined;
    readonly pageSize: number;
    readonly pollMs: number;
    readonly leaseMs: number;
  };
  readonly smtp: { readonly url: string; readonly from: string } | undefined;
  readonly alerts: { readonly intervalMs: number; readonly settings: Readonly<Record<string, unknown>> | undefined };
  readonly retentionIntervalMs: number;
  readonly firehoseIntervalMs: number;
  readonly bootstrap: { readonly name: string; readonly apiKey: string; readonly timeZone: string } | undefined;
  readonly logLevel: LogLevel;
  readonly shutdownTimeoutMs: number;
}

const LEVELS: readonly LogLevel[] = ['debug', 'info', 'warn', 'error'];

/**
 * Reads and checks every variable; answers all the problems at once, so a bad
 * deployment fails at start with one clear message rather than at the first use.
 */
export function readConfig(env: NodeJS.ProcessEnv): Result<ServerConfig, string[]> {
  const problems: string[] = [];
  const text = (name: string): string | undefined => {
    const value = env[name]?.trim();
    return value === undefined || value === '' ? undefined : value;
  };
  const integer = (name: string, fallback: number, min = 1): number => {
    const raw = text(name);
    if (raw === undefined) return fallback;
    const value = Number(raw);
    if (!Number.isSafeInteger(value) || value < min) {
      problems.push(`${name} must be an integer of at least ${min}, not ${JSON.stringify(raw)}.`);
      return fallback;
    }
    return value;
  };
  const flag = (name: string): boolean => {
    const raw = text(name)?.toLowerCase();
    if (raw === undefined || raw === 'false' || raw === '0') return false;
    if (raw === 'true' || raw === '1') return true;
    problems.push(`${name} must be true or false, not ${JSON.stringify(raw)}.`);
    return false;
  };

  const databaseUrl = text('DATABASE_URL');
  const bucket = text('LEADROUTE_S3_BUCKET');
  const accessKeyId = text('LEADROUTE_S3_ACCESS_KEY_ID');
  const secretAccessKey = text('LEADROUTE_S3_SECRET_ACCESS_KEY');
  if (bucket && (!accessKeyId || !secretAccessKey))
    problems.push('LEADROUTE_S3_BUCKET needs LEADROUTE_S3_ACCESS_KEY_ID and LEADROUTE_S3_SECRET_ACCESS_KEY.');
  const azureConnection = text('LEADROUTE_AZURE_CONNECTION_STRING');
  const azureContainer = text('LEADROUTE_AZURE_CONTAINER');
  if ((azureConnection === undefined) !== (azureContainer === undefined))
    problems.push('LEADROUTE_AZURE_CONNECTION_STRING and LEADROUTE_AZURE_CONTAINER go together: set both or neither.');
  if (bucket && azureConnection)
    problems.push(
      'Export files go to one place: set LEADROUTE_S3_BUCKET or LEADROUTE_AZURE_CONNECTION_STRING, not both.',
    );
  const smtpUrl = text('LEADROUTE_SMTP_URL');
  if (smtpUrl && !['smtp:', 'smtps:'].includes(URL.parse(smtpUrl)?.protocol ?? ''))
    problems.push('LEADROUTE_SMTP_URL must be an smtp:// or smtps:// URL.');

  let alertSettings: Record<string, unknown> | undefined;
  const rawSettings = text('LEADROUTE_ALERT_SETTINGS');
  if (rawSettings !== undefined) {
    try {
      const parsed: unknown = JSON.parse(rawSettings);
      if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
        alertSettings = parsed as Record<string, unknown>;
      else problems.push('LEADROUTE_ALERT_SETTINGS must be a JSON object.');
    } catch (e) {
      problems.push(`LEADROUTE_ALERT_SETTINGS is not JSON: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  const bootstrapName = text('LEADROUTE_BOOTSTRAP_ACCOUNT_NAME');
  const bootstrapKey = text('LEADROUTE_BOOTSTRAP_API_KEY');
  if ((bootstrapName === undefined) !== (bootstrapKey === undefined))
    problems.push('LEADROUTE_BOOTSTRAP_ACCOUNT_NAME and LEADROUTE_BOOTSTRAP_API_KEY go together: set both or neither.');

  // Several instances share only the database and the export store: what one keeps in memory the others never see.
  const instances = integer('LEADROUTE_INSTANCES', 1);
  if (instances > 1 && !databaseUrl)
    problems.push(
      `LEADROUTE_INSTANCES is ${instances}: every instance must use the same PostgreSQL; set DATABASE_URL (memory storage is one process's own).`,
    );
  if (instances > 1 && !bucket && !azureConnection) {
    const exportDir = text('LEADROUTE_EXPORT_DIR');
    if (!exportDir)
      problems.push(
        `LEADROUTE_INSTANCES is ${instances}: export files kept in one instance's memory cannot be downloaded from the others; set LEADROUTE_S3_BUCKET (with LEADROUTE_S3_ACCESS_KEY_ID and LEADROUTE_S3_SECRET_ACCESS_KEY) or LEADROUTE_AZURE_CONNECTION_STRING and LEADROUTE_AZURE_CONTAINER.`,
      );
    else if (!text('LEADROUTE_EXPORT_LINK_SECRET'))
      problems.push(
        `LEADROUTE_INSTANCES is ${instances}: with LEADROUTE_EXPORT_DIR (a directory every instance mounts) every instance needs the same LEADROUTE_EXPORT_LINK_SECRET, or a link one signs fails on the others; better, set LEADROUTE_S3_BUCKET or LEADROUTE_AZURE_CONNECTION_STRING.`,
      );
  }

  const level = (text('LEADROUTE_LOG_LEVEL') ?? 'info').toLowerCase();
  if (!LEVELS.includes(level as LogLevel)) problems.push(`LEADROUTE_LOG_LEVEL must be one of ${LEVELS.join(', ')}.`);

  const config: ServerConfig = {
    port: integer('PORT', 3000, 0),
    host: text('HOST') ?? '127.0.0.1',
    publicUrl: text('LEADROUTE_PUBLIC_URL')?.replace(/\/+$/, ''),
    database: databaseUrl
      ? {
          url: databaseUrl,
          ...(text('DATABASE_READ_URL') ? { readUrl: text('DATABASE_READ_URL') } : {}),
          schema: text('LEADROUTE_DATABASE_SCHEMA') ?? 'public',
          poolMax: integer('LEADROUTE_DATABASE_POOL_MAX', 10),
        }
      : undefined,
    instances,
    s3: {
      region: text('LEADROUTE_S3_REGION') ?? 'us-east-1',
      endpoint: text('LEADROUTE_S3_ENDPOINT'),
      forcePathStyle: flag('LEADROUTE_S3_FORCE_PATH_STYLE'),
      exports:
        bucket && accessKeyId && secretAccessKey
          ? { bucket, accessKeyId, secretAccessKey, prefix: text('LEADROUTE_S3_PREFIX') ?? '' }
          : undefined,
    },
    azure: {
      maxTries: integer('LEADROUTE_AZURE_MAX_TRIES', 3),
      tryTimeoutMs: integer('LEADROUTE_AZURE_TRY_TIMEOUT_MS', 30_000, 0),
      exports:
        azureConnection && azureContainer
          ? {
              connectionString: azureConnection,
              container: azureContainer,
              prefix: text('LEADROUTE_AZURE_PREFIX') ?? '',
            }
          : undefined,
    },
    exports: {
      dir: text('LEADROUTE_EXPORT_DIR'),
      linkSecret: text('LEADROUTE_EXPORT_LINK_SECRET'),
      pageSize: integer('LEADROUTE_EXPORT_PAGE_SIZE', 1000),
      pollMs: integer('LEADROUTE_EXPORT_POLL_MS', 5000),
      leaseMs: integer('LEADROUTE_EXPORT_LEASE_MS', 120_000),
    },
    smtp: smtpUrl
      ? { url: smtpUrl, from: text('LEADROUTE_SMTP_FROM') ?? 'Leadroute <leadroute@localhost>' }
      : undefined,
    alerts: { intervalMs: integer('LEADROUTE_ALERT_INTERVAL_MS', 60_000), settings: alertSettings },
    retentionIntervalMs: integer('LEADROUTE_RETENTION_INTERVAL_MS', 3_600_000),
    firehoseIntervalMs: integer('LEADROUTE_FIREHOSE_INTERVAL_MS', 5000),
    bootstrap:
      bootstrapName && bootstrapKey
        ? { name: bootstrapName, apiKey: bootstrapKey, timeZone: text('LEADROUTE_BOOTSTRAP_TIME_ZONE') ?? 'UTC' }
        : undefined,
    logLevel: level as LogLevel,
    shutdownTimeoutMs: integer('LEADROUTE_SHUTDOWN_TIMEOUT_MS', 20_000),
  };
  return problems.length > 0 ? err(problems) : ok(config);
}
