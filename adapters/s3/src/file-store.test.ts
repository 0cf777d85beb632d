import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { AwsLocation } from '@leadroute/core';
import { runFileStoreSuite } from '@leadroute/testkit/suites';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type S3rverHandle, startS3rver } from './s3rver.test-helper';
import { s3FileStore, s3Storage } from './index';

const KEY = { id: 'AKIALEADROUTEFILES', secret: 'files-secret' };
const BUCKET = 'exports-test';
const clientConfig = {
  requestChecksumCalculation: 'WHEN_REQUIRED',
  responseChecksumValidation: 'WHEN_REQUIRED',
} as const;
const location: AwsLocation = { service: 'aws', accessKeyId: KEY.id, secretAccessKey: KEY.secret, bucket: BUCKET };

let server: S3rverHandle;
let driver: ReturnType<typeof s3Storage>;

beforeAll(async () => {
  server = await startS3rver({ buckets: [BUCKET], accessKeys: { [KEY.id]: KEY.secret } });
  driver = s3Storage({ endpoint: server.endpoint, forcePathStyle: true, maxAttempts: 1, clientConfig });
});

afterAll(async () => {
  driver?.close();
  await server?.dispose();
});

runFileStoreSuite('s3 against s3rver', async () => ({
  store: s3FileStore({ driver, location, prefix: 'leadroute/' }),
}));

describe('s3FileStore', () => {
  it('uploads under the prefix with the content type, and presigns a 10-second GET', async () => {
    const store = s3FileStore({ driver, location, prefix: 'leadroute/' });
    async function* body() {
      yield 'id,name\n';
      yield '1,"a, b"\n';
    }
    expect(
      (await store.put('exports/acct/x.csv', body(), { contentType: 'text/csv; charset=utf-8' }))._unsafeUnwrap(),
    ).toEqual({ bytes: 17 });
    const admin = new S3Client({
      endpoint: server.endpoint,
      forcePathStyle: true,
      region: 'us-east-1',
      credentials: { accessKeyId: KEY.id, secretAccessKey: KEY.secret },
      ...clientConfig,
    });
    try {
      const object = await admin.send(new GetObjectCommand({ Bucket: BUCKET, Key: 'leadroute/exports/acct/x.csv' }));
      expect(object.ContentType).toBe('text/csv; charset=utf-8');
      expect(await object.Body?.transformToString()).toBe('id,name\n1,"a, b"\n');
    } finally {
      admin.destroy();
    }
    const url = new URL((await store.presign('exports/acct/x.csv', 10))._unsafeUnwrap());
    expect(url.pathname).toBe(`/${BUCKET}/leadroute/exports/acct/x.csv`);
    expect(url.searchParams.get('X-Amz-Expires')).toBe('10');
    expect(await (await fetch(url)).text()).toBe('id,name\n1,"a, b"\n');
  });

  it('reports a refused upload as a StorageFailure with the driver error as cause', async () => {
    const store = s3FileStore({ driver, location: { ...location, bucket: 'no-such-bucket' } });
    async function* body() {
      yield 'x';
    }
    const failed = (await store.put('k.csv', body(), { contentType: 'text/csv' }))._unsafeUnwrapErr();
    expect(failed.type).toBe('StorageFailure');
    expect(failed.message).toMatch(/^\[leadroute\] \[s3\] PutObject s3:\/\/no-such-bucket\/k\.csv failed/);
    expect((failed.cause as { type: string }).type).toBe('ContainerNotFound');
  });
});
