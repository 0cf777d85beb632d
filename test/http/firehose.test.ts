import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { BlobServiceClient } from '@azure/storage-blob';
import { azureBlobStorage } from '@leadroute/azure-blob';
import { s3Storage } from '@leadroute/s3';
import { manualClock } from '@leadroute/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AzuriteHandle, startAzurite } from '../../adapters/azure-blob/src/azurite.test-helper';
import { type S3rverHandle, startS3rver } from '../../adapters/s3/src/s3rver.test-helper';
import { call } from '../support/call';
import { createFixture, type Fixture } from '../support/fixture';
import { BINDINGS, type Binding, startBinding } from '../support/servers';

// GET /firehose end to end: both bindings, against a real S3 (s3rver) and a real Azure Blob (azurite).
const KEY = { id: 'AKIAFIREHOSEHTTP', secret: 'http-test-secret' };
const BUCKET = 'firehose-http';
const CONTAINER = 'firehose-http';
const WRONG_KEY = Buffer.from('not the account key, but 64 bytes long........................').toString('base64');
const NOW = Date.UTC(2026, 2, 4, 5, 6, 7, 89);
const clientConfig = {
  requestChecksumCalculation: 'WHEN_REQUIRED',
  responseChecksumValidation: 'WHEN_REQUIRED',
} as const;

let s3: S3rverHandle;
let azurite: AzuriteHandle;
let admin: S3Client;
const s3Driver = () => s3Storage({ endpoint: s3.endpoint, forcePathStyle: true, maxAttempts: 1, clientConfig });
const azureDriver = azureBlobStorage({ maxTries: 1, tryTimeoutMs: 5000 });

beforeAll(async () => {
  [s3, azurite] = await Promise.all([
    startS3rver({ buckets: [BUCKET], accessKeys: { [KEY.id]: KEY.secret } }),
    startAzurite(),
  ]);
  admin = new S3Client({
    endpoint: s3.endpoint,
    forcePathStyle: true,
    region: 'us-east-1',
    credentials: { accessKeyId: KEY.id, secretAccessKey: KEY.secret },
    ...clientConfig,
  });
  await BlobServiceClient.fromConnectionString(azurite.connectionString()).getContainerClient(CONTAINER).create();
}, 60_000);

afterAll(async () => {
  admin?.destroy();
  await Promise.all([s3?.dispose(), azurite?.dispose()]);
});

async function s3Keys(prefix = ''): Promise<string[]> {
  const out = await admin.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: prefix }));
  return (out.Contents ?? []).map((o) => o.Key ?? '').sort();
}

async function blobNames(prefix = ''): Promise<string[]> {
  const container = BlobServiceClient.fromConnectionString(azurite.connectionString()).getContainerClient(CONTAINER);
  const names: string[] = [];
  for await (const blob of container.listBlobsFlat({ prefix })) names.push(blob.name);
  return names.sort();
}

const qs = (params: Record<string, string>) => `/firehose?${new URLSearchParams(params).toString()}`;

describe.each(BINDINGS)('GET /firehose through %s', (name) => {
  let binding: Binding;
  let f: Fixture;
  // Each binding writes at its own instant, so their verification files differ.
  const at = NOW + (name === 'express' ? 0 : 60_000);
  const stamp = name === 'express' ? '20260304050607089' : '20260304050707089';
  const clock = manualClock(at);
  const get = (path: string, key: string | null = f.keys.demo) =>
    call(binding.url, { path, ...(key === null ? {} : { key }) });

  beforeAll(async () => {
    f = await createFixture({ clock, cloudStorage: { aws: s3Driver(), azure: azureDriver } });
    binding = await startBinding(name, f.service);
  });
  afterAll(async () => binding?.close());

  describe('aws (s3rver)', () => {
    const aws = () => ({ service: 'aws', access_key_id: KEY.id, secret_access_key: KEY.secret, bucket: BUCKET });

    it('writes platform_verification_<YYYYMMDDHHMMSSMS>.txt at the bucket root', async () => {
      const res = await get(qs(aws()));
      expect(res.status, res.text).toBe(200);
      expect(res.body).toEqual({ validated: true, verification_file: true });
      expect(res.text).not.toContain(KEY.secret);
      const file = `platform_verification_${stamp}.txt`;
      expect(file).toMatch(/^platform_verification_\d{17}\.txt$/);
      expect((await s3Keys('platform_verification_')).filter((k) => !k.includes('/'))).toContain(file);
    });

    it('writes under the prefix, with the flow ID in the name', async () => {
      const flowId = '65f0000000000000000000aa';
      const res = await get(qs({ ...aws(), prefix: `/${name}/checks/`, flow_id: flowId }));
      expect(res.body).toEqual({ validated: true, verification_file: true });
      expect(await s3Keys(`${name}/`)).toEqual([`${name}/checks/platform_verification_${flowId}_${stamp}.txt`]);
    });

    it('checks without writing when verification_file is false', async () => {
      const before = await s3Keys();
      const res = await get(qs({ ...aws(), prefix: `${name}-nofile`, verification_file: 'false' }));
      expect(res.body).toEqual({ validated: true, verification_file: false });
      expect(await s3Keys()).toEqual(before);
    });

    it('answers validated false with a reason for an unknown access key, not an error', async () => {
      for (const verification_file of ['true', 'false']) {
        const res = await get(qs({ ...aws(), access_key_id: 'AKIAUNKNOWNKEY', verification_file }));
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({ validated: false, verification_file: false });
        expect(res.body.reason).toMatch(/credentials/);
        expect(res.text).not.toContain(KEY.secret);
      }
    });

    it('answers 404 for a missing bucket', async () => {
      const res = await get(qs({ ...aws(), bucket: 'no-such-bucket' }));
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
      expect(res.body.detail).toContain('no-such-bucket');
    });
  });

  describe('azure (azurite)', () => {
    const azure = () => ({ service: 'azure', connection_string: azurite.connectionString(), bucket: CONTAINER });

    it('validates and writes the file at the root, or under the prefix with the flow ID', async () => {
      const root = await get(qs(azure()));
      expect(root.status, root.text).toBe(200);
      expect(root.body).toEqual({ validated: true, verification_file: true });
      expect(root.text).not.toContain('AccountKey');
      expect(await blobNames('platform_verification_')).toContain(`platform_verification_${stamp}.txt`);
      // A second check in the same millisecond would overwrite that file: 409. (s3rver ignores
      // If-None-Match, so only azurite shows it; S3 itself honours it.)
      const again = await get(qs(azure()));
      expect(again.status, again.text).toBe(409);
      expect(again.body.detail).toContain(`platform_verification_${stamp}.txt`);
      const flowId = '65f0000000000000000000bb';
      const prefixed = await get(qs({ ...azure(), prefix: `${name}/az`, flow_id: flowId }));
      expect(prefixed.body).toEqual({ validated: true, verification_file: true });
      expect(await blobNames(`${name}/`)).toEqual([`${name}/az/platform_verification_${flowId}_${stamp}.txt`]);
    });

    it('checks without writing when verification_file is false', async () => {
      const before = await blobNames();
      const res = await get(qs({ ...azure(), prefix: `${name}-nofile`, verification_file: 'false' }));
      expect(res.body).toEqual({ validated: true, verification_file: false });
      expect(await blobNames()).toEqual(before);
    });

    it('answers validated false for a wrong account key, 404 for a missing container, 400 for a malformed connection string', async () => {
      const wrong = await get(qs({ ...azure(), connection_string: azurite.connectionString(WRONG_KEY) }));
      expect(wrong.status).toBe(200);
      expect(wrong.body).toMatchObject({ validated: false, verification_file: false });
      expect(wrong.body.reason).toMatch(/azure credentials/);
      expect(wrong.text).not.toContain(WRONG_KEY);
      const missing = await get(qs({ ...azure(), bucket: 'no-such-container' }));
      expect(missing.status).toBe(404);
      expect(missing.body.detail).toContain('no-such-container');
      expect((await get(qs({ ...azure(), connection_string: 'garbage' }))).status).toBe(400);
    });
  });

  it('never shows an inline connection string in flow or event responses', async () => {
    const key = f.keys.demo;
    const post = (path: string, json: unknown) => call(binding.url, { path, key, json });
    const vendor = (await post('/entities', { name: 'Vendor', module_ids: [], source: 'seller', recipient: null })).body
      .id;
    const firehose = {
      enabled: true,
      services: { azure: { bucket: CONTAINER, connection_string: azurite.connectionString(), prefix: `${name}-flow` } },
    };
    const created = await post('/flows', { name: 'Streamed', sources: [{ entity_id: vendor }], steps: [], firehose });
    expect(created.status, created.text).toBe(201);
    expect(created.body.firehose.services.azure).toEqual({ enabled: true, bucket: CONTAINER, prefix: `${name}-flow` });
    const submitted = await post(`/flows/${created.body.id}/sources/${vendor}/submit`, { first_name: 'Ada' });
    expect(submitted.status).toBe(201);
    for (const path of [`/flows/${created.body.id}`, '/flows', `/events?lead_id=${submitted.body.lead.id}`]) {
      const res = await get(path);
      expect(res.status).toBe(200);
      expect(res.text).not.toContain('AccountKey');
    }
    const written = await blobNames(`${name}-flow/`);
    expect(written).toHaveLength(1);
    expect(written[0]).toMatch(new RegExp(`^${name}-flow/${submitted.body.lead.id}/[0-9a-f]{24}\\.json$`));
  });

  describe('parameters and authentication', () => {
    it.each([
      ['no service', { bucket: BUCKET }, '/service'],
      ['an unknown service', { service: 'gcp', bucket: BUCKET }, '/service'],
      ['no bucket', { service: 'aws', access_key_id: KEY.id, secret_access_key: KEY.secret }, '/bucket'],
      ['aws without keys', { service: 'aws', bucket: BUCKET }, '/access_key_id'],
      ['azure without a connection string', { service: 'azure', bucket: CONTAINER }, '/connection_string'],
      [
        'a bad bucket name',
        { service: 'aws', access_key_id: KEY.id, secret_access_key: KEY.secret, bucket: 'x' },
        '/bucket',
      ],
      [
        'a bad verification_file',
        {
          service: 'aws',
          access_key_id: KEY.id,
          secret_access_key: KEY.secret,
          bucket: BUCKET,
          verification_file: 'maybe',
        },
        '/verification_file',
      ],
    ])('answers 400 naming the parameter for %s', async (_case, params, path) => {
      const res = await get(qs(params as Record<string, string>));
      expect(res.status).toBe(400);
      expect(res.body.errors.map((e: { path: string }) => e.path)).toContain(path);
    });

    it('answers 400 for a repeated parameter', async () => {
      const res = await get(
        `${qs({ service: 'aws', access_key_id: KEY.id, secret_access_key: KEY.secret })}&bucket=a-bucket&bucket=b-bucket`,
      );
      expect(res.status).toBe(400);
      expect(res.body.errors).toContainEqual({ path: '/bucket', message: 'bucket must be given once.' });
    });

    it('answers 401 without a valid API key, before looking at the parameters', async () => {
      for (const key of [null, 'not-a-key']) {
        const res = await get(qs({ service: 'aws', bucket: BUCKET }), key);
        expect(res.status).toBe(401);
        expect(res.headers.get('www-authenticate')).toMatch(/^Basic/);
      }
    });
  });
});

describe('GET /firehose when the storage service is down', () => {
  it.each(BINDINGS)(
    "#19.9 answers a failure of the storage service with the spec's 500 and a clear detail, not a verdict on the credentials (%s)",
    async (name) => {
      const down = await startS3rver({ buckets: [BUCKET], accessKeys: { [KEY.id]: KEY.secret } });
      const f = await createFixture({
        cloudStorage: {
          aws: s3Storage({ endpoint: down.endpoint, forcePathStyle: true, maxAttempts: 1, clientConfig }),
        },
      });
      const binding = await startBinding(name, f.service);
      try {
        await down.stop();
        const res = await call(binding.url, {
          path: qs({ service: 'aws', access_key_id: KEY.id, secret_access_key: KEY.secret, bucket: BUCKET }),
          key: f.keys.demo,
        });
        expect(res.status).toBe(500);
        expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
        expect(res.body).toMatchObject({ status: 500, code: 'UpstreamFailure' });
        expect(res.body.detail).toMatch(/aws storage service failed/);
        expect(res.text).not.toContain(KEY.secret);
      } finally {
        await binding.close();
        await down.dispose();
      }
    },
  );

  it('answers 400 for a service this server has no driver for', async () => {
    const f = await createFixture();
    const binding = await startBinding('fastify', f.service);
    try {
      const res = await call(binding.url, {
        path: qs({ service: 'azure', connection_string: 'x', bucket: CONTAINER }),
        key: f.keys.demo,
      });
      expect(res.status).toBe(400);
      expect(res.body.detail).toMatch(/azure service is not available/);
    } finally {
      await binding.close();
    }
  });
});
