import { describe, expect, it } from 'vitest';
import { failure, fakeDriver } from './fake-driver.test-helper';
import { validateFirehose } from './validate';

const NOW = Date.UTC(2025, 5, 30, 23, 59, 58, 7);
const clock = { now: () => NOW };
const awsQuery = { service: 'aws', access_key_id: 'AKIA', secret_access_key: 's', bucket: 'my-bucket' };
const azureQuery = { service: 'azure', connection_string: 'AccountName=a;AccountKey=k', bucket: 'events' };

describe('validateFirehose', () => {
  it('writes the verification file at the bucket root or under the prefix', async () => {
    const aws = fakeDriver('aws');
    const deps = { clock, cloudStorage: { aws: aws.driver } };
    expect(await validateFirehose(deps, awsQuery)).toEqual(
      expect.objectContaining({ value: { validated: true, verification_file: true } }),
    );
    expect(await validateFirehose(deps, { ...awsQuery, prefix: 'leads/', flow_id: 'f1' })).toEqual(
      expect.objectContaining({ value: { validated: true, verification_file: true } }),
    );
    expect(aws.writes).toEqual([
      'my-bucket/platform_verification_20250630235958007.txt',
      'my-bucket/leads/platform_verification_f1_20250630235958007.txt',
    ]);
    const file = aws.objects.get('my-bucket/leads/platform_verification_f1_20250630235958007.txt');
    expect(file?.contentType).toBe('text/plain; charset=utf-8');
    expect(file?.body).toContain('flow_id: f1');
  });

  it('answers 409 when the verification file already exists', async () => {
    const aws = fakeDriver('aws');
    const deps = { clock, cloudStorage: { aws: aws.driver } };
    expect((await validateFirehose(deps, awsQuery)).isOk()).toBe(true);
    const again = (await validateFirehose(deps, awsQuery))._unsafeUnwrapErr();
    expect(again).toEqual({
      type: 'Conflict',
      message: 'A verification file platform_verification_20250630235958007.txt already exists.',
    });
    expect(aws.writes).toEqual(['my-bucket/platform_verification_20250630235958007.txt']);
  });

  it('writes nothing when verification_file is false', async () => {
    const azure = fakeDriver('azure');
    const result = await validateFirehose(
      { clock, cloudStorage: { azure: azure.driver } },
      { ...azureQuery, verification_file: 'false' },
    );
    expect(result._unsafeUnwrap()).toEqual({ validated: true, verification_file: false });
    expect(azure.writes).toEqual([]);
  });

  it('answers refused credentials with validated false and a reason', async () => {
    const aws = fakeDriver('aws');
    aws.state.failure = failure('InvalidCredentials', 'InvalidAccessKeyId: unknown key');
    const result = (await validateFirehose({ clock, cloudStorage: { aws: aws.driver } }, awsQuery))._unsafeUnwrap();
    expect(result).toEqual({
      validated: false,
      verification_file: false,
      reason: 'The aws credentials were not accepted: InvalidAccessKeyId: unknown key',
    });
  });

  it('lets the write decide when only the read-side check is refused', async () => {
    const azure = fakeDriver('azure');
    azure.state.validateFailure = failure('AccessDenied', 'AuthorizationPermissionMismatch');
    const deps = { clock, cloudStorage: { azure: azure.driver } };
    expect((await validateFirehose(deps, azureQuery))._unsafeUnwrap()).toEqual({
      validated: true,
      verification_file: true,
    });
    expect((await validateFirehose(deps, { ...azureQuery, verification_file: 'false' }))._unsafeUnwrap()).toMatchObject(
      {
        validated: false,
        verification_file: false,
      },
    );
  });

  it('maps a missing bucket to 404, an outage to an upstream failure, bad input to 400', async () => {
    const aws = fakeDriver('aws');
    const deps = { clock, cloudStorage: { aws: aws.driver } };
    aws.state.failure = failure('ContainerNotFound');
    expect((await validateFirehose(deps, awsQuery))._unsafeUnwrapErr()).toEqual({
      type: 'NotFound',
      message: 'The bucket my-bucket not found.',
    });
    aws.state.failure = failure('Unavailable', 'connect ECONNREFUSED');
    expect((await validateFirehose(deps, awsQuery))._unsafeUnwrapErr()).toMatchObject({
      type: 'UpstreamFailure',
      message: 'The aws storage service failed: connect ECONNREFUSED',
      cause: aws.state.failure,
    });
    expect((await validateFirehose(deps, { service: 'aws' }))._unsafeUnwrapErr().type).toBe('BadRequest');
    expect((await validateFirehose(deps, azureQuery))._unsafeUnwrapErr()).toMatchObject({
      type: 'BadRequest',
      issues: [{ path: '/service', message: 'has no azure storage driver configured' }],
    });
  });
});
