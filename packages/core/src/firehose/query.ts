import { err, ok, type Result } from 'neverthrow';
import { errors, type Issue, type LeadrouteError } from '../errors';
import type { CloudLocation } from '../ports/cloud-storage';
import { formatInZone } from '../time';
import { cleanPrefix, isBucketName } from './config';
import { queryValidator } from '../schemas/define';
import { FirehoseQueryParams } from '../schemas/queries';

/** A `GET /firehose` request, checked. */
export interface FirehoseCheck {
  readonly location: CloudLocation;
  /** Without leading or trailing slashes. */
  readonly prefix?: string;
  readonly flowId?: string;
  /** Whether to write a verification file. @default true */
  readonly verificationFile: boolean;
}

/** Query parameters as HTTP bindings hand them over: repeated names give arrays. */
export type QueryParams = Readonly<Record<string, string | readonly string[] | undefined>>;

/**
 * The name of a verification file:
 * `platform_verification_[<flow_id>_]<yyyyMMddHHmmssSSS>.txt`, the time in UTC
 * (the spec's `YYYYMMDDHHMMSSMS`, where MS is milliseconds).
 * @example verificationFileName(Date.UTC(2025, 0, 2, 3, 4, 5, 6), 'abc') // 'platform_verification_abc_20250102030405006.txt'
 */
export function verificationFileName(nowMs: number, flowId?: string): string {
  const stamp = formatInZone(nowMs, 'UTC', 'yyyyMMddHHmmssSSS');
  return `platform_verification_${flowId ? `${flowId}_` : ''}${stamp}.txt`;
}

const CREDENTIALS = { aws: ['access_key_id', 'secret_access_key'], azure: ['connection_string'] } as const;
const BUCKET_RULES = {
  aws: 'must be an S3 bucket name (3 to 255 letters, digits, dots, hyphens or underscores)',
  azure: 'must be a container name (3 to 63 lowercase letters, digits and single hyphens)',
} as const;
const checkQuery = queryValidator(FirehoseQueryParams, 'is not a parameter of GET /firehose');

/**
 * Checks the query of `GET /firehose` against its schema (`FirehoseQueryParams`), then what
 * the schema cannot say: which credentials each service needs, and its bucket naming rules.
 * On failure the error is a 400 (`BadRequest`) whose issues name every missing or invalid
 * parameter (`/bucket`, `/access_key_id`, ...). Empty values count as absent; parameters the
 * check does not read are ignored, as before.
 */
export function parseFirehoseQuery(query: QueryParams): Result<FirehoseCheck, LeadrouteError> {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query))
    if (Object.hasOwn(FirehoseQueryParams.properties, name))
      for (const v of typeof value === 'string' ? [value] : (value ?? [])) if (v !== '') params.append(name, v);
  const checked = checkQuery(params);
  const issues: Issue[] = checked.isErr() ? [...checked.error] : [];
  const named = (name: string) => params.has(name) || issues.some((i) => i.path === `/${name}`);
  const service = params.get('service');
  if (service === 'aws' || service === 'azure') {
    for (const name of CREDENTIALS[service])
      if (!named(name)) issues.push({ path: `/${name}`, message: `${name} is required for ${service}.` });
    const bucket = params.get('bucket');
    if (bucket !== null && !issues.some((i) => i.path === '/bucket') && !isBucketName(service, bucket))
      issues.push({ path: '/bucket', message: `bucket ${BUCKET_RULES[service]}.` });
  }
  if (issues.length > 0 || checked.isErr())
    return err(errors.badRequest('The firehose parameters are not valid.', issues));
  const q = checked.value;
  const location: CloudLocation =
    q.service === 'aws'
      ? {
          service: 'aws',
          accessKeyId: q.access_key_id ?? '',
          secretAccessKey: q.secret_access_key ?? '',
          bucket: q.bucket,
        }
      : { service: 'azure', connectionString: q.connection_string ?? '', container: q.bucket };
  const cleaned = cleanPrefix(q.prefix);
  return ok({
    location,
    ...(cleaned === undefined ? {} : { prefix: cleaned }),
    ...(q.flow_id === undefined ? {} : { flowId: q.flow_id }),
    verificationFile: q.verification_file ?? true,
  });
}
