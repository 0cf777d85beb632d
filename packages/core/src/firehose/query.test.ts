import { describe, expect, it } from 'vitest';
import { parseFirehoseQuery, verificationFileName } from './query';

const T = Date.UTC(2025, 0, 2, 3, 4, 5, 6);

describe('verificationFileName', () => {
  it('is platform_verification_[<flow_id>_]<yyyyMMddHHmmssSSS>.txt in UTC', () => {
    expect(verificationFileName(T)).toBe('platform_verification_20250102030405006.txt');
    expect(verificationFileName(T, 'flow42')).toBe('platform_verification_flow42_20250102030405006.txt');
    expect(verificationFileName(Date.UTC(2024, 11, 31, 23, 59, 59, 999))).toMatch(
      /^platform_verification_20241231235959999\.txt$/,
    );
  });
});

describe('parseFirehoseQuery', () => {
  it('lists every missing parameter', () => {
    const error = parseFirehoseQuery({})._unsafeUnwrapErr();
    expect(error).toMatchObject({ type: 'BadRequest' });
    expect(error.type === 'BadRequest' && error.issues).toEqual([
      { path: '/service', message: 'service is required.' },
      { path: '/bucket', message: 'bucket is required.' },
    ]);
    const aws = parseFirehoseQuery({ service: 'aws', bucket: 'my-bucket' })._unsafeUnwrapErr();
    expect(aws.type === 'BadRequest' && aws.issues?.map((i) => i.path)).toEqual([
      '/access_key_id',
      '/secret_access_key',
    ]);
    const azure = parseFirehoseQuery({ service: 'azure', bucket: 'events' })._unsafeUnwrapErr();
    expect(azure.type === 'BadRequest' && azure.issues?.map((i) => i.path)).toEqual(['/connection_string']);
  });

  it('names invalid values', () => {
    const error = parseFirehoseQuery({
      service: 'gcs',
      bucket: ['a', 'b'],
      verification_file: 'maybe',
      flow_id: 'a/b',
    })._unsafeUnwrapErr();
    const issues = error.type === 'BadRequest' ? (error.issues ?? []) : [];
    expect(issues).toHaveLength(4);
    expect(issues).toEqual(
      expect.arrayContaining([
        { path: '/service', message: 'service must be aws or azure.' },
        { path: '/bucket', message: 'bucket must be given once.' },
        { path: '/flow_id', message: 'flow_id must be letters, digits, hyphens or underscores.' },
        { path: '/verification_file', message: 'verification_file must be true or false.' },
      ]),
    );
    const container = parseFirehoseQuery({
      service: 'azure',
      bucket: 'Not_A_Container',
      connection_string: 'x',
    })._unsafeUnwrapErr();
    expect(container.type === 'BadRequest' && container.issues?.map((i) => i.path)).toEqual(['/bucket']);
    const spaced = parseFirehoseQuery({
      service: 'aws',
      bucket: 'my-bucket',
      access_key_id: 'AK IA',
      secret_access_key: 's',
    });
    expect(spaced._unsafeUnwrapErr()).toMatchObject({ issues: [{ path: '/access_key_id' }] });
    // Parameters the check does not read are ignored; empty values count as absent.
    expect(
      parseFirehoseQuery({ service: 'azure', connection_string: 'cs', bucket: 'events', prefix: '', _: '1' }).isOk(),
    ).toBe(true);
  });

  it('returns a typed check', () => {
    expect(
      parseFirehoseQuery({
        service: 'aws',
        access_key_id: 'AKIA1',
        secret_access_key: 's',
        bucket: 'my-bucket',
        prefix: '/leads/2025/',
        flow_id: 'f1',
        verification_file: 'false',
      })._unsafeUnwrap(),
    ).toEqual({
      location: { service: 'aws', accessKeyId: 'AKIA1', secretAccessKey: 's', bucket: 'my-bucket' },
      prefix: 'leads/2025',
      flowId: 'f1',
      verificationFile: false,
    });
    expect(parseFirehoseQuery({ service: 'azure', connection_string: 'cs', bucket: 'events' })._unsafeUnwrap()).toEqual(
      {
        location: { service: 'azure', connectionString: 'cs', container: 'events' },
        verificationFile: true,
      },
    );
  });
});
