import { err, ok, type Result } from 'neverthrow';
import { errors, type Issue, type LeadrouteError } from '../errors';
import type { CloudLocation } from '../ports/cloud-storage';
import { formatInZone } from '../time';
import { cleanPrefix, isBucketName } from './config';

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

const FLOW_ID = /^[A-Za-z0-9_-]{1,64}$/;

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

/**
 * Checks the query of `GET /firehose`. On failure the error is a 400 (`BadRequest`)
 * whose issues name every missing or invalid parameter (`/bucket`, `/access_key_id`, ...).
 */
export function parseFirehoseQuery(query: QueryParams): Result<FirehoseCheck, LeadrouteError> {
  const issues: Issue[] = [];
  const single = (name: string, { required = false, max = 1024 } = {}): string | undefined => {
    const value = query[name];
    if (Array.isArray(value)) {
      issues.push({ path: `/${name}`, message: 'must be given once' });
      return undefined;
    }
    if (value === undefined || value === '') {
      if (required) issues.push({ path: `/${name}`, message: 'is required' });
      return undefined;
    }
    const s = value as string;
    if (s.length > max) {
      issues.push({ path: `/${name}`, message: `must be at most ${max} characters` });
      return undefined;
    }
    return s;
  };

  const serviceText = single('service', { required: true, max: 16 });
  const service = serviceText === 'aws' || serviceText === 'azure' ? serviceText : undefined;
  if (serviceText !== undefined && service === undefined)
    issues.push({ path: '/service', message: 'must be aws or azure' });

  const bucket = single('bucket', { required: true, max: 255 });
  if (bucket !== undefined && service !== undefined && !isBucketName(service, bucket))
    issues.push({
      path: '/bucket',
      message:
        service === 'aws'
          ? 'must be an S3 bucket name (3 to 255 letters, digits, dots, hyphens or underscores)'
          : 'must be a container name (3 to 63 lowercase letters, digits and single hyphens)',
    });

  const accessKeyId = single('access_key_id', { required: service === 'aws', max: 128 });
  if (accessKeyId !== undefined && /\s/.test(accessKeyId))
    issues.push({ path: '/access_key_id', message: 'must not contain spaces' });
  const secretAccessKey = single('secret_access_key', { required: service === 'aws', max: 256 });
  const connectionString = single('connection_string', { required: service === 'azure', max: 4096 });
  const prefix = single('prefix');
  const flowId = single('flow_id', { max: 64 });
  if (flowId !== undefined && !FLOW_ID.test(flowId))
    issues.push({ path: '/flow_id', message: 'must be letters, digits, hyphens or underscores' });

  let verificationFile = true;
  const vf = single('verification_file', { max: 8 });
  if (vf !== undefined) {
    const v = vf.toLowerCase();
    if (v === 'true' || v === '1') verificationFile = true;
    else if (v === 'false' || v === '0') verificationFile = false;
    else issues.push({ path: '/verification_file', message: 'must be true or false' });
  }

  if (issues.length > 0 || service === undefined || bucket === undefined)
    return err(errors.badRequest('The firehose parameters are not valid.', issues));

  const location: CloudLocation =
    service === 'aws'
      ? { service, accessKeyId: accessKeyId ?? '', secretAccessKey: secretAccessKey ?? '', bucket }
      : { service, connectionString: connectionString ?? '', container: bucket };
  const cleaned = cleanPrefix(prefix);
  return ok({
    location,
    ...(cleaned === undefined ? {} : { prefix: cleaned }),
    ...(flowId === undefined ? {} : { flowId }),
    verificationFile,
  });
}
