import type { FirehoseValidation } from '../schemas/responses';
import { err, errAsync, ok, okAsync, type Result, ResultAsync } from 'neverthrow';
import { errors, type LeadrouteError } from '../errors';
import type {
  CloudLocationOf,
  CloudService,
  CloudStorageDriver,
  CloudStorageDrivers,
  CloudStorageError,
} from '../ports/cloud-storage';
import { type FirehoseCheck, parseFirehoseQuery, type QueryParams, verificationFileName } from './query';

/** The answer of `GET /firehose`. */
export type { FirehoseValidation } from '../schemas/responses';

/** What firehose validation needs. */
export interface FirehoseValidationDeps {
  readonly clock: { now(): number };
  readonly cloudStorage: CloudStorageDrivers;
}

/** The cloud storage error's message without the `[leadroute] [driver] ` tag, for people. */
export function plainMessage(error: CloudStorageError): string {
  return error.message.replace(/^(?:\[[^\]]*\]\s*)+/, '');
}

function verificationText(check: FirehoseCheck, nowMs: number): string {
  const where = check.location.service === 'aws' ? check.location.bucket : check.location.container;
  return [
    'Leadroute firehose verification file.',
    'It shows that these credentials can write here; it may be deleted.',
    `service: ${check.location.service}`,
    `bucket: ${where}`,
    ...(check.flowId === undefined ? [] : [`flow_id: ${check.flowId}`]),
    `created_at: ${new Date(nowMs).toISOString()}`,
    '',
  ].join('\n');
}

/**
 * Maps a driver failure to the answer: refused credentials are `validated: false`
 * with a reason (a 200, since the check itself worked), a missing bucket or
 * container is a 404, an unusable location a 400, the rest a failure of the service.
 */
function answerFailure(
  check: FirehoseCheck,
  error: CloudStorageError,
): ResultAsync<FirehoseValidation, LeadrouteError> {
  const { service } = check.location;
  switch (error.type) {
    case 'InvalidCredentials':
      return okAsync({
        validated: false,
        verification_file: false,
        reason: `The ${service} credentials were not accepted: ${plainMessage(error)}`,
      });
    case 'AccessDenied':
      return okAsync({
        validated: false,
        verification_file: false,
        reason: `The ${service} credentials were refused access${check.verificationFile ? ' to write' : ''}: ${plainMessage(error)}`,
      });
    case 'ContainerNotFound':
      return errAsync(
        service === 'aws'
          ? errors.notFound(`The bucket ${check.location.bucket}`)
          : errors.notFound(`The container ${check.location.container}`),
      );
    case 'InvalidLocation':
      return errAsync(errors.badRequest(`The ${service} location cannot be used: ${plainMessage(error)}`));
    case 'Unavailable':
    case 'Failed':
      return errAsync(errors.upstreamFailure(`The ${service} storage service failed: ${plainMessage(error)}`, error));
  }
}

/**
 * `GET /firehose`: checks the parameters, then asks the chosen service whether the
 * credentials work. With `verification_file` (the default) it writes
 * `platform_verification_[<flow_id>_]<yyyyMMddHHmmssSSS>.txt` under the prefix (or at
 * the root), which also proves write access; without it, it only checks the
 * credentials and the bucket (for S3 a HEAD of the bucket, which needs `s3:ListBucket`;
 * for Azure the container's properties).
 *
 * Errors: 400 (`BadRequest`) for bad parameters or a service this deployment has no
 * driver for, 404 (`NotFound`) for a missing bucket or container, 409 (`Conflict`) when
 * the verification file already exists (a second check in the same millisecond, with a
 * driver that supports conditional writes), `UpstreamFailure` when the service is down
 * or fails otherwise.
 */
export function validateFirehose(
  deps: FirehoseValidationDeps,
  query: QueryParams,
): ResultAsync<FirehoseValidation, LeadrouteError> {
  const parsed = parseFirehoseQuery(query);
  if (parsed.isErr()) return errAsync(parsed.error);
  const check = parsed.value;
  const { location } = check;
  if (location.service === 'aws') {
    const driver = deps.cloudStorage.aws;
    return driver ? run(driver, location, check, deps.clock) : errAsync(unavailable('aws'));
  }
  const driver = deps.cloudStorage.azure;
  return driver ? run(driver, location, check, deps.clock) : errAsync(unavailable('azure'));
}

function run<S extends CloudService>(
  driver: CloudStorageDriver<S>,
  location: CloudLocationOf<S>,
  check: FirehoseCheck,
  clock: { now(): number },
): ResultAsync<FirehoseValidation, LeadrouteError> {
  const checked = driver.validate(location);
  if (!check.verificationFile) return checked.map(validatedWithoutFile).orElse((e) => answerFailure(check, e));
  const nowMs = clock.now();
  const name = verificationFileName(nowMs, check.flowId);
  const key = check.prefix === undefined ? name : `${check.prefix}/${name}`;
  // Credentials that may write but not read (an S3 key with only s3:PutObject, a
  // write-only SAS) fail the read-side check with AccessDenied: the write decides.
  const written = checked
    .orElse((e) => (e.type === 'AccessDenied' ? okAsync(undefined) : errAsync(e)))
    .andThen(() =>
      driver.putObject(location, key, verificationText(check, nowMs), {
        contentType: 'text/plain; charset=utf-8',
        // Two checks in the same millisecond name the same file: the second one is the spec's 409.
        ifAbsent: driver.capabilities.conditionalWrites,
      }),
    );
  return new ResultAsync(
    (async (): Promise<Result<FirehoseValidation, LeadrouteError>> => {
      const outcome = await written;
      if (outcome.isErr()) return answerFailure(check, outcome.error);
      return outcome.value.written
        ? ok({ validated: true, verification_file: true })
        : err(errors.conflict(`A verification file ${key} already exists.`));
    })(),
  );
}

const validatedWithoutFile = (): FirehoseValidation => ({ validated: true, verification_file: false });

const unavailable = (service: string): LeadrouteError =>
  errors.badRequest(`The ${service} service is not available on this server.`, [
    { path: '/service', message: `has no ${service} storage driver configured` },
  ]);
