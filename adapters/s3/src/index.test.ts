import { countingDriver } from '@leadroute/testkit';
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import {
  type AwsLocation,
  type CloudCredential,
  createFirehoseDelivery,
  errors,
  validateFirehose,
} from '@leadroute/core';
import { errAsync, okAsync } from 'neverthrow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memorySpool } from '../../memory/src/spool';
import { type S3rverHandle, startS3rver } from './s3rver.test-helper';
import { s3Storage } from './index';

const KEY = { id: 'AKIALEADROUTETEST', secret: 'test-secret' };
const BUCKET = 'firehose-test';
const NOW = Date.UTC(2025, 6, 4, 9, 8, 7, 65);

let server: S3rverHandle;
let driver: ReturnType<typeof s3Storage>;
let admin: S3Client;
const location: AwsLocation = { service: 'aws', accessKeyId: KEY.id, secretAccessKey: KEY.secret, bucket: BUCKET };
const clientConfig = {
  requestChecksumCalculation: 'WHEN_REQUIRED',
  responseChecksumValidation: 'WHEN_REQUIRED',
} as const;

beforeAll(async () => {
  server = await startS3rver({ buckets: [BUCKET], accessKeys: { [KEY.id]: KEY.secret } });
  driver = s3Storage({ endpoint: server.endpoint, forcePathStyle: true, maxAttempts: 1, clientConfig });
  admin = new S3Client({
    endpoint: server.endpoint,
    forcePathStyle: true,
    region: 'us-east-1',
    credentials: { accessKeyId: KEY.id, secretAccessKey: KEY.secret },
    ...clientConfig,
  });
});

afterAll(async () => {
  driver?.close();
  admin?.destroy();
  await server?.dispose();
});

async function listKeys(prefix = ''): Promise<string[]> {
  const out = await admin.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: prefix }));
  return (out.Contents ?? []).map((o) => o.Key ?? '').sort();
}

async function read(key: string): Promise<string> {
  const out = await admin.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }));
  return (await out.Body?.transformToString()) ?? '';
}

describe('s3Storage against s3rver', () => {
  it('validates credentials and the bucket', async () => {
    expect((await driver.validate(location)).isOk()).toBe(true);
    expect((await driver.validate({ ...location, bucket: 'no-such-bucket' }))._unsafeUnwrapErr().type).toBe(
      'ContainerNotFound',
    );
    // A HEAD answer has no body: S3 cannot say more than 403.
    const refused = (await driver.validate({ ...location, accessKeyId: 'AKIAUNKNOWN' }))._unsafeUnwrapErr();
    expect(refused.type).toBe('AccessDenied');
    expect(refused.message).toMatch(/^\[leadroute\] \[s3\] HeadBucket s3:\/\/firehose-test failed/);
  });

  it('writes objects and wraps SDK exceptions with the original as cause', async () => {
    expect(
      (await driver.putObject(location, 'driver/a.txt', 'hello', { contentType: 'text/plain' }))._unsafeUnwrap(),
    ).toEqual({ written: true });
    expect(await read('driver/a.txt')).toBe('hello');
    const batch = (
      await driver.putObjects(location, [
        { key: 'driver/b.json', body: '{"b":1}', contentType: 'application/json' },
        { key: 'driver/c.bin', body: new Uint8Array([1, 2, 3]) },
      ])
    )._unsafeUnwrap();
    expect(batch).toEqual([
      { key: 'driver/b.json', ok: true, written: true },
      { key: 'driver/c.bin', ok: true, written: true },
    ]);
    const wrong = (
      await driver.putObject({ ...location, accessKeyId: 'AKIAUNKNOWN' }, 'driver/x', 'x')
    )._unsafeUnwrapErr();
    expect(wrong.type).toBe('InvalidCredentials');
    expect(wrong.message).toContain('InvalidAccessKeyId');
    expect((wrong.cause as Error).name).toBe('InvalidAccessKeyId');
    const missing = (await driver.putObject({ ...location, bucket: 'no-such-bucket' }, 'x', 'x'))._unsafeUnwrapErr();
    expect(missing.type).toBe('ContainerNotFound');
  });

  it('pre-signs download links valid 10 seconds', async () => {
    (await driver.putObject(location, 'exports/e1.csv', 'a,b\n1,2\n', { contentType: 'text/csv' }))._unsafeUnwrap();
    const url = (await driver.presignGet(location, 'exports/e1.csv', 10))._unsafeUnwrap();
    expect(new URL(url).searchParams.get('X-Amz-Expires')).toBe('10');
    const response = await fetch(url);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('a,b\n1,2\n');
  });
});

describe('GET /firehose (aws) against s3rver', () => {
  const deps = () => ({ clock: { now: () => NOW }, cloudStorage: { aws: driver } });
  const query = { service: 'aws', access_key_id: KEY.id, secret_access_key: KEY.secret, bucket: BUCKET };

  it('writes platform_verification_<timestamp>.txt at the bucket root', async () => {
    expect((await validateFirehose(deps(), query))._unsafeUnwrap()).toEqual({
      validated: true,
      verification_file: true,
    });
    const files = (await listKeys('platform_verification_')).filter((k) => !k.includes('/'));
    expect(files).toEqual(['platform_verification_20250704090807065.txt']);
    expect(files[0]).toMatch(/^platform_verification_\d{17}\.txt$/);
    expect(await read(files[0]!)).toContain('service: aws');
  });

  it('writes under the prefix with the flow ID in the name', async () => {
    const result = await validateFirehose(deps(), {
      ...query,
      prefix: 'leadroute/checks/',
      flow_id: '65f00000000000000000abcd',
    });
    expect(result._unsafeUnwrap()).toEqual({ validated: true, verification_file: true });
    expect(await listKeys('leadroute/checks/')).toEqual([
      'leadroute/checks/platform_verification_65f00000000000000000abcd_20250704090807065.txt',
    ]);
  });

  it('writes nothing with verification_file=false', async () => {
    const before = await listKeys();
    const result = await validateFirehose(deps(), { ...query, prefix: 'nofile', verification_file: 'false' });
    expect(result._unsafeUnwrap()).toEqual({ validated: true, verification_file: false });
    expect(await listKeys()).toEqual(before);
  });

  it('answers validated false for an unknown access key, 404 for a missing bucket, 400 for bad parameters', async () => {
    const wrong = (await validateFirehose(deps(), { ...query, access_key_id: 'AKIAWRONG' }))._unsafeUnwrap();
    expect(wrong).toMatchObject({ validated: false, verification_file: false });
    expect(wrong.reason).toContain('InvalidAccessKeyId');
    const wrongNoFile = (
      await validateFirehose(deps(), { ...query, access_key_id: 'AKIAWRONG', verification_file: 'false' })
    )._unsafeUnwrap();
    expect(wrongNoFile).toMatchObject({ validated: false, verification_file: false });
    expect((await validateFirehose(deps(), { ...query, bucket: 'no-such-bucket' }))._unsafeUnwrapErr().type).toBe(
      'NotFound',
    );
    const bad = (await validateFirehose(deps(), { service: 'aws', bucket: BUCKET }))._unsafeUnwrapErr();
    expect(bad).toMatchObject({
      type: 'BadRequest',
      issues: [{ path: '/access_key_id' }, { path: '/secret_access_key' }],
    });
  });
});

/** Counts the objects each key really received, to prove nothing is written twice. */

describe('firehose delivery to s3rver', () => {
  it('delivers events, spools them through an outage and delivers each exactly once after recovery', async () => {
    const credentials: Record<string, CloudCredential> = {
      cred1: { service: 'aws', accessKeyId: KEY.id, secretAccessKey: KEY.secret },
    };
    const { driver: wrapped, writes } = countingDriver(driver);
    const spool = memorySpool();
    let now = NOW;
    const delivery = createFirehoseDelivery({
      cloudStorage: { aws: wrapped },
      spool,
      clock: { now: () => now },
      resolveCredential: (id) =>
        credentials[id] ? okAsync(credentials[id]) : errAsync(errors.notFound('credential', id)),
    });
    // The legacy flat form: read as services.aws.
    const firehose = { enabled: true, credential_id: 'cred1', bucket: BUCKET, prefix: 'stream' };
    const events = Array.from({ length: 10 }, (_, n) => ({
      id: `65f1000000000000000000${String(n).padStart(2, '0')}`,
      lead_id: `65f20000000000000000000${n % 3}`,
      type: 'source',
      outcome: 'success',
      vars: { n },
    }));

    for (const e of events.slice(0, 4))
      expect((await delivery.deliver(firehose, e))._unsafeUnwrap()[0]?.status).toBe('delivered');

    await server.stop();
    for (const e of events.slice(4)) {
      const [outcome] = (await delivery.deliver(firehose, e))._unsafeUnwrap();
      expect(outcome).toMatchObject({ status: 'spooled' });
    }
    expect((await spool.count())._unsafeUnwrap()).toBe(6);
    // Validation during the outage is a failure of the service, not a verdict on the credentials.
    const down = await validateFirehose(
      { clock: { now: () => now }, cloudStorage: { aws: driver } },
      { service: 'aws', access_key_id: KEY.id, secret_access_key: KEY.secret, bucket: BUCKET },
    );
    expect(down._unsafeUnwrapErr().type).toBe('UpstreamFailure');
    now += 1000;
    expect((await delivery.retryDue(now))._unsafeUnwrap()).toEqual({ leased: 6, delivered: 0, rescheduled: 6 });

    await server.restart();
    now += 1000;
    expect((await delivery.retryDue(now))._unsafeUnwrap()).toEqual({ leased: 0, delivered: 0, rescheduled: 0 });
    now += 1000;
    expect((await delivery.retryDue(now))._unsafeUnwrap()).toEqual({ leased: 6, delivered: 6, rescheduled: 0 });
    expect((await delivery.retryDue(now + 3_600_000))._unsafeUnwrap().leased).toBe(0);
    expect((await spool.count())._unsafeUnwrap()).toBe(0);

    const expected = events.map((e) => `stream/${e.lead_id}/${e.id}.json`).sort();
    expect(await listKeys('stream/')).toEqual(expected);
    expect([...writes.keys()].sort()).toEqual(expected);
    expect([...writes.values()].every((n) => n === 1)).toBe(true);
    for (const e of events) expect(JSON.parse(await read(`stream/${e.lead_id}/${e.id}.json`))).toEqual(e);
  });
});
