import { describe, expect, it } from 'vitest';
import { firehoseTargets, normalizeFirehoseConfig } from './config';

describe('normalizeFirehoseConfig', () => {
  it('reads the legacy flat form as services.aws', () => {
    const config = normalizeFirehoseConfig({
      enabled: true,
      credential_id: 'cred1',
      bucket: 'my-bucket',
      prefix: 'events',
    });
    expect(config._unsafeUnwrap()).toEqual({
      enabled: true,
      services: { aws: { enabled: true, credential_id: 'cred1', bucket: 'my-bucket', prefix: 'events' } },
    });
    expect(firehoseTargets(config._unsafeUnwrap())).toEqual([
      { service: 'aws', credential_id: 'cred1', bucket: 'my-bucket', prefix: 'events' },
    ]);
  });

  it('accepts the service form with both services', () => {
    const config = normalizeFirehoseConfig({
      enabled: true,
      services: {
        aws: { enabled: true, credential_id: 'c1', bucket: 'b-aws' },
        azure: { enabled: false, connection_string: 'AccountName=x', bucket: 'container-1', prefix: 'p' },
      },
    })._unsafeUnwrap();
    expect(config.services.azure).toEqual({
      enabled: false,
      connection_string: 'AccountName=x',
      bucket: 'container-1',
      prefix: 'p',
    });
    expect(firehoseTargets(config).map((t) => t.service)).toEqual(['aws']);
  });

  it('treats a missing value as a disabled firehose, and a disabled one needs no fields', () => {
    expect(normalizeFirehoseConfig(undefined)._unsafeUnwrap()).toEqual({ enabled: false, services: {} });
    const off = normalizeFirehoseConfig({ enabled: false, bucket: 'my-bucket' })._unsafeUnwrap();
    expect(firehoseTargets(off)).toEqual([]);
  });

  it('reports every problem with its path', () => {
    expect(normalizeFirehoseConfig({ enabled: true, bucket: 'x' })._unsafeUnwrapErr()).toEqual([
      { path: '/bucket', message: expect.stringContaining('S3 bucket name') },
      { path: '/credential_id', message: 'is required when the firehose is enabled' },
    ]);
    expect(
      normalizeFirehoseConfig({
        enabled: 'yes',
        services: { azure: { bucket: 'Bad_Name' }, gcs: {} },
      })._unsafeUnwrapErr(),
    ).toEqual([
      { path: '/enabled', message: 'must be true or false' },
      { path: '/services/azure/bucket', message: expect.stringContaining('container name') },
      { path: '/services/gcs', message: 'is not a known service; use aws or azure' },
    ]);
    expect(
      normalizeFirehoseConfig({ enabled: true, services: { azure: { bucket: 'events' } } })._unsafeUnwrapErr(),
    ).toEqual([{ path: '/services/azure', message: 'needs credential_id or connection_string' }]);
  });

  it('refuses the flat fields together with services.aws', () => {
    const result = normalizeFirehoseConfig({
      enabled: true,
      bucket: 'legacy-bucket',
      credential_id: 'c',
      services: { aws: { credential_id: 'c', bucket: 'new-bucket' } },
    });
    expect(result._unsafeUnwrapErr()).toEqual([{ path: '', message: expect.stringContaining('not both') }]);
  });

  it('moves flat fields into services.aws beside an azure service', () => {
    const config = normalizeFirehoseConfig({
      enabled: true,
      credential_id: 'c',
      bucket: 'legacy-bucket',
      services: { azure: { connection_string: 'cs', bucket: 'events' } },
    })._unsafeUnwrap();
    expect(firehoseTargets(config).map((t) => [t.service, t.bucket])).toEqual([
      ['aws', 'legacy-bucket'],
      ['azure', 'events'],
    ]);
  });
});
