import { err, ok, type Result } from 'neverthrow';
import type { AwsFirehoseService, AzureFirehoseService, FirehoseConfig } from '../domain/firehose';
import type { Issue } from '../errors';

export type {
  AwsFirehoseService,
  AzureFirehoseService,
  FirehoseConfig,
  FirehoseConfigInput,
  LegacyFirehoseConfig,
} from '../domain/firehose';

/** One place events go: a service with its bucket and the means to reach it. */
export type FirehoseTarget =
  | { readonly service: 'aws'; readonly credential_id: string; readonly bucket: string; readonly prefix?: string }
  | {
      readonly service: 'azure';
      readonly credential_id?: string;
      readonly connection_string?: string;
      readonly bucket: string;
      readonly prefix?: string;
    };

const LEGACY_FIELDS = ['credential_id', 'bucket', 'prefix'] as const;
const AWS_BUCKET = /^[A-Za-z0-9][A-Za-z0-9._-]{1,253}[A-Za-z0-9]$/;
const AZURE_CONTAINER = /^(?:\$root|[a-z0-9](?:-?[a-z0-9])+)$/;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Whether `name` can be an S3 bucket (aws) or a Blob container (azure). */
export function isBucketName(service: 'aws' | 'azure', name: string): boolean {
  return service === 'aws'
    ? AWS_BUCKET.test(name)
    : name.length >= 3 && name.length <= 63 && AZURE_CONTAINER.test(name);
}

/** A key prefix without leading or trailing slashes; `undefined` when nothing is left. */
export function cleanPrefix(prefix: string | undefined): string | undefined {
  const trimmed = prefix?.replace(/^\/+|\/+$/g, '');
  return trimmed ? trimmed : undefined;
}

function text(
  source: Record<string, unknown>,
  field: string,
  path: string,
  issues: Issue[],
  { required, max }: { required: boolean; max: number },
): string | undefined {
  const value = source[field];
  if (value === undefined || value === null || value === '') {
    if (required) issues.push({ path, message: 'is required when the firehose is enabled' });
    return undefined;
  }
  if (typeof value !== 'string' || value.length > max) {
    issues.push({ path, message: `must be a string of at most ${max} characters` });
    return undefined;
  }
  return value;
}

function flag(source: Record<string, unknown>, path: string, issues: Issue[], fallback: boolean): boolean {
  const value = source.enabled;
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') {
    issues.push({ path, message: 'must be true or false' });
    return fallback;
  }
  return value;
}

function service(
  name: 'aws' | 'azure',
  raw: unknown,
  path: string,
  firehoseEnabled: boolean,
  issues: Issue[],
): AwsFirehoseService | AzureFirehoseService | undefined {
  if (!isRecord(raw)) {
    issues.push({ path, message: 'must be an object' });
    return undefined;
  }
  // A service given without `enabled` is meant to be used.
  const enabled = flag(raw, `${path}/enabled`, issues, true);
  const required = firehoseEnabled && enabled;
  const bucket = text(raw, 'bucket', `${path}/bucket`, issues, { required, max: 255 });
  if (bucket !== undefined && !isBucketName(name, bucket))
    issues.push({
      path: `${path}/bucket`,
      message:
        name === 'aws'
          ? 'must be an S3 bucket name (3 to 255 letters, digits, dots, hyphens or underscores)'
          : 'must be a container name (3 to 63 lowercase letters, digits and single hyphens)',
    });
  const prefix = text(raw, 'prefix', `${path}/prefix`, issues, { required: false, max: 1024 });
  const credentialId = text(raw, 'credential_id', `${path}/credential_id`, issues, {
    required: required && name === 'aws',
    max: 256,
  });
  const base = { enabled, bucket: bucket ?? '', ...(prefix === undefined ? {} : { prefix }) };
  if (name === 'aws') return { ...base, credential_id: credentialId ?? '' };
  const connectionString = text(raw, 'connection_string', `${path}/connection_string`, issues, {
    required: false,
    max: 4096,
  });
  if (required && credentialId === undefined && connectionString === undefined)
    issues.push({ path, message: 'needs credential_id or connection_string' });
  return {
    ...base,
    ...(credentialId === undefined ? {} : { credential_id: credentialId }),
    ...(connectionString === undefined ? {} : { connection_string: connectionString }),
  };
}

/**
 * Checks a flow's `firehose` value and returns it in the service form. The legacy
 * flat form (`enabled`, `credential_id`, `bucket`, `prefix`) becomes `services.aws`;
 * giving both forms at once is an error. A missing value is a disabled firehose.
 * Issue paths are relative to the firehose object (`/services/aws/bucket`).
 */
export function normalizeFirehoseConfig(input: unknown): Result<FirehoseConfig, Issue[]> {
  if (input === undefined || input === null) return ok({ enabled: false, services: {} });
  if (!isRecord(input)) return err([{ path: '', message: 'must be an object' }]);
  const issues: Issue[] = [];
  const enabled = flag(input, '/enabled', issues, false);
  const legacy = LEGACY_FIELDS.some((f) => input[f] !== undefined);
  const services: { aws?: AwsFirehoseService; azure?: AzureFirehoseService } = {};

  if (input.services !== undefined && !isRecord(input.services)) {
    issues.push({ path: '/services', message: 'must be an object with keys aws and azure' });
  } else if (isRecord(input.services)) {
    for (const [name, raw] of Object.entries(input.services)) {
      if (raw === undefined || raw === null) continue;
      if (name !== 'aws' && name !== 'azure') {
        issues.push({ path: `/services/${name}`, message: 'is not a known service; use aws or azure' });
        continue;
      }
      const parsed = service(name, raw, `/services/${name}`, enabled, issues);
      if (name === 'aws') services.aws = parsed as AwsFirehoseService | undefined;
      else services.azure = parsed as AzureFirehoseService | undefined;
    }
  }

  if (legacy) {
    if (services.aws || (isRecord(input.services) && input.services.aws != null)) {
      issues.push({
        path: '',
        message: 'give either the flat fields (credential_id, bucket, prefix) or services.aws, not both',
      });
    } else {
      const flat = Object.fromEntries(LEGACY_FIELDS.map((f) => [f, input[f]]));
      // Path '' reports legacy fields where the caller put them: `/bucket`, not `/services/aws/bucket`.
      const parsed = service('aws', { ...flat, enabled }, '', enabled, issues);
      if (parsed) services.aws = parsed as AwsFirehoseService;
    }
  }

  return issues.length > 0 ? err(issues) : ok({ enabled, services });
}

/** The services events of a flow with this configuration go to: none when the firehose is off. */
export function firehoseTargets(config: FirehoseConfig): FirehoseTarget[] {
  if (!config.enabled) return [];
  const targets: FirehoseTarget[] = [];
  const { aws, azure } = config.services;
  if (aws?.enabled) targets.push({ service: 'aws', ...withoutEnabled(aws) });
  if (azure?.enabled) targets.push({ service: 'azure', ...withoutEnabled(azure) });
  return targets;
}

function withoutEnabled<T extends { enabled: boolean }>(value: T): Omit<T, 'enabled'> {
  const { enabled: _enabled, ...rest } = value;
  return rest;
}
