import { spawnSync } from 'node:child_process';
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { BlobServiceClient } from '@azure/storage-blob';
import { azureBlobStorage } from '@leadroute/azure-blob';
import { type CloudStorageDrivers, type StoredEvent, type TypedFirehose, toEventRecord } from '@leadroute/core';
import { s3Storage } from '@leadroute/s3';
import { aCredential, countingDriver, createTestService, type TestService } from '@leadroute/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AzuriteHandle, startAzurite } from '../adapters/azure-blob/src/azurite.test-helper';
import { type S3rverHandle, startS3rver } from '../adapters/s3/src/s3rver.test-helper';

// Flow events submitted through intake arrive in the bucket, through outages, each exactly once.
const KEY = { id: 'AKIADELIVERYTEST', secret: 'delivery-test-secret' };
const BUCKET = 'firehose-delivery';
const CONTAINER = 'firehose-delivery';
const clientConfig = {
  requestChecksumCalculation: 'WHEN_REQUIRED',
  responseChecksumValidation: 'WHEN_REQUIRED',
} as const;

let s3: S3rverHandle;
let admin: S3Client;

beforeAll(async () => {
  s3 = await startS3rver({ buckets: [BUCKET], accessKeys: { [KEY.id]: KEY.secret } });
  admin = new S3Client({
    endpoint: s3.endpoint,
    forcePathStyle: true,
    region: 'us-east-1',
    credentials: { accessKeyId: KEY.id, secretAccessKey: KEY.secret },
    ...clientConfig,
  });
});
afterAll(async () => {
  admin?.destroy();
  await s3?.dispose();
});

async function s3Objects(prefix: string): Promise<Map<string, string>> {
  const out = await admin.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: prefix }));
  const objects = new Map<string, string>();
  for (const o of out.Contents ?? []) {
    const got = await admin.send(new GetObjectCommand({ Bucket: BUCKET, Key: o.Key }));
    objects.set(o.Key ?? '', (await got.Body?.transformToString()) ?? '');
  }
  return objects;
}

async function blobs(connectionString: string, prefix: string): Promise<Map<string, string>> {
  const container = BlobServiceClient.fromConnectionString(connectionString).getContainerClient(CONTAINER);
  const objects = new Map<string, string>();
  for await (const blob of container.listBlobsFlat({ prefix }))
    objects.set(blob.name, (await container.getBlobClient(blob.name).downloadToBuffer()).toString('utf8'));
  return objects;
}

interface Setup {
  readonly t: TestService;
  readonly sourceId: string;
  readonly recipientId: string;
  flow(firehose: TypedFirehose): Promise<string>;
  submit(flowId: string, n: number): Promise<void>;
  events(flowId: string): StoredEvent[];
  spooled(): Promise<number>;
}

async function setup(cloudStorage: CloudStorageDrivers): Promise<Setup> {
  const t = await createTestService({ cloudStorage, firehose: { backoff: { baseMs: 1000, maxMs: 8000 } } });
  const { sourceId, recipientId } = await t.entities();
  let lead = 0;
  return {
    t,
    sourceId,
    recipientId,
    async flow(firehose) {
      const created = await t.service.flows.create(t.principal, {
        name: 'Firehosed',
        sources: [{ entity_id: sourceId }],
        steps: [{ type: 'recipient', entity_id: recipientId, module_id: t.recipient.id }],
        firehose,
      });
      return created._unsafeUnwrap().id;
    },
    async submit(flowId, n) {
      for (let i = 0; i < n; i++) {
        lead += 1;
        const result = await t.service.leads.submit(flowId, sourceId, {
          first_name: `Lead ${lead}`,
          email: `lead${lead}@example.com`,
        });
        expect(result._unsafeUnwrap().outcome).toBe('success');
        t.clock.advance(10);
      }
    },
    events: (flowId) => [...t.storage.tables.events.values()].filter((e) => e.flow_id === flowId),
    spooled: async () => (await t.storage.spool.count())._unsafeUnwrap(),
  };
}

const expectedObjects = (events: readonly StoredEvent[], prefix: string) =>
  new Map(events.map((e) => [`${prefix}/${e.lead_id}/${e.id}.json`, toEventRecord(e)]));

describe('firehose delivery of flow events to S3 (s3rver)', () => {
  it('writes every event of a flow (legacy flat form, stored aws credential) as <prefix>/<lead id>/<event id>.json', async () => {
    const driver = s3Storage({ endpoint: s3.endpoint, forcePathStyle: true, maxAttempts: 1, clientConfig });
    const s = await setup({ aws: driver });
    const credential = aCredential(s.t.principal.account.id, { type: 'aws', username: KEY.id, password: KEY.secret });
    (await s.t.storage.credentials.insert(credential))._unsafeUnwrap();
    const flowId = await s.flow({ enabled: true, credential_id: credential.id, bucket: BUCKET, prefix: 'legacy/' });
    const off = await s.flow({ enabled: false, credential_id: credential.id, bucket: BUCKET, prefix: 'off' });
    await s.submit(flowId, 3);
    await s.submit(off, 2);

    const events = s.events(flowId);
    expect(events.map((e) => e.type).sort()).toEqual([
      'recipient',
      'recipient',
      'recipient',
      'source',
      'source',
      'source',
    ]);
    const objects = await s3Objects('legacy/');
    const expected = expectedObjects(events, 'legacy');
    expect([...objects.keys()].sort()).toEqual([...expected.keys()].sort());
    for (const [key, body] of objects) {
      expect(JSON.parse(body)).toEqual(JSON.parse(JSON.stringify(expected.get(key))));
      expect(body).not.toContain(KEY.secret);
      expect(body).not.toContain('account_id');
    }
    expect(await s3Objects('off/')).toEqual(new Map());
    expect(await s.spooled()).toBe(0);
    driver.close();
  });

  it('spools events while S3 is down and delivers each exactly once after recovery', async () => {
    const inner = s3Storage({ endpoint: s3.endpoint, forcePathStyle: true, maxAttempts: 1, clientConfig });
    const { driver, writes } = countingDriver(inner);
    const s = await setup({ aws: driver });
    const credential = aCredential(s.t.principal.account.id, { type: 'AWS', username: KEY.id, password: KEY.secret });
    (await s.t.storage.credentials.insert(credential))._unsafeUnwrap();
    const flowId = await s.flow({
      enabled: true,
      services: { aws: { enabled: true, credential_id: credential.id, bucket: BUCKET, prefix: 'outage' } },
    });

    await s.submit(flowId, 2);
    await s3.stop();
    try {
      // Intake goes on while the storage service is down; the events wait in the spool.
      await s.submit(flowId, 3);
      expect(await s.spooled()).toBe(6);
      s.t.clock.advance(1000);
      expect((await s.t.service.firehose.retryDue())._unsafeUnwrap()).toEqual({
        leased: 6,
        delivered: 0,
        rescheduled: 6,
      });
    } finally {
      await s3.restart();
    }
    // Not due yet: the second retry waits twice as long.
    s.t.clock.advance(1000);
    expect((await s.t.service.firehose.retryDue())._unsafeUnwrap().leased).toBe(0);
    s.t.clock.advance(1000);
    expect((await s.t.service.firehose.retryDue())._unsafeUnwrap()).toEqual({
      leased: 6,
      delivered: 6,
      rescheduled: 0,
    });
    s.t.clock.advance(60_000);
    expect((await s.t.service.firehose.retryDue())._unsafeUnwrap().leased).toBe(0);
    expect(await s.spooled()).toBe(0);

    const expected = expectedObjects(s.events(flowId), 'outage');
    expect(expected.size).toBe(10);
    const objects = await s3Objects('outage/');
    expect([...objects.keys()].sort()).toEqual([...expected.keys()].sort());
    for (const [key, body] of objects) expect(JSON.parse(body)).toEqual(JSON.parse(JSON.stringify(expected.get(key))));
    expect([...writes.keys()].sort()).toEqual([...expected.keys()].sort());
    expect([...writes.values()].every((n) => n === 1)).toBe(true);
    inner.close();
  });

  it('retries on its own with the runner until the spool is empty, and stops', async () => {
    const driver = s3Storage({ endpoint: s3.endpoint, forcePathStyle: true, maxAttempts: 1, clientConfig });
    const s = await setup({ aws: driver });
    const credential = aCredential(s.t.principal.account.id, { type: 'aws', username: KEY.id, password: KEY.secret });
    (await s.t.storage.credentials.insert(credential))._unsafeUnwrap();
    const flowId = await s.flow({
      enabled: true,
      services: { aws: { credential_id: credential.id, bucket: BUCKET, prefix: 'runner' } },
    });
    await s3.stop();
    try {
      await s.submit(flowId, 2);
    } finally {
      await s3.restart();
    }
    expect(await s.spooled()).toBe(4);
    const runner = s.t.service.firehose.runner({ intervalMs: 10 });
    runner.start();
    try {
      s.t.clock.advance(5000);
      const deadline = Date.now() + 10_000;
      while ((await s.spooled()) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    } finally {
      await runner.stop();
    }
    expect(runner.running).toBe(false);
    expect(await s.spooled()).toBe(0);
    expect([...(await s3Objects('runner/')).keys()].sort()).toEqual(
      [...expectedObjects(s.events(flowId), 'runner').keys()].sort(),
    );
    driver.close();
  });

  it('runs a runner that does not keep the process alive', () => {
    const script = [
      "import { createLeadService } from '@leadroute/core';",
      "import { memoryStorage } from '@leadroute/memory';",
      'createLeadService({ storage: memoryStorage() }).firehose.runner({ intervalMs: 50 }).start();',
      "console.log('started');",
    ].join('\n');
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(child.stdout).toContain('started');
    // A timer holding the process would have run into the timeout and been killed (status null).
    expect(child.status).toBe(0);
  }, 40_000);

  it('refuses a firehose credential of another account or of the wrong type when the flow is saved', async () => {
    const s = await setup({});
    const foreign = aCredential('65f00000000000000000ffff', { type: 'aws', username: KEY.id, password: KEY.secret });
    (await s.t.storage.credentials.insert(foreign))._unsafeUnwrap();
    const created = await s.t.service.flows.create(s.t.principal, {
      name: 'Borrowed',
      sources: [{ entity_id: s.sourceId }],
      steps: [],
      firehose: { enabled: true, credential_id: foreign.id, bucket: BUCKET },
    });
    const error = created._unsafeUnwrapErr();
    expect(error.type).toBe('Validation');
    expect(error.type === 'Validation' && error.issues.map((i) => i.path)).toEqual([
      '/firehose/services/aws/credential_id',
    ]);
    const own = aCredential(s.t.principal.account.id, { type: 'azure', username: null, password: 'x' });
    (await s.t.storage.credentials.insert(own))._unsafeUnwrap();
    const wrongType = await s.t.service.flows.create(s.t.principal, {
      name: 'Mixed',
      sources: [{ entity_id: s.sourceId }],
      steps: [],
      firehose: { enabled: true, credential_id: own.id, bucket: BUCKET },
    });
    const mixed = wrongType._unsafeUnwrapErr();
    expect(mixed.type === 'Validation' && mixed.issues).toEqual([
      {
        path: '/firehose/services/aws/credential_id',
        message: `Credential ${own.id} is of type azure; the aws firehose needs one of type aws.`,
      },
    ]);
  });
});

describe('firehose delivery of flow events to Azure Blob (azurite)', () => {
  let azurite: AzuriteHandle;
  beforeAll(async () => {
    // On disk, so blobs written before an outage survive the restart.
    azurite = await startAzurite({ persistent: true });
    await BlobServiceClient.fromConnectionString(azurite.connectionString()).getContainerClient(CONTAINER).create();
  }, 60_000);
  afterAll(async () => azurite?.dispose());

  it('delivers with an inline connection string that never shows in events or flows, through an outage, exactly once', async () => {
    const { driver, writes } = countingDriver(azureBlobStorage({ maxTries: 1, tryTimeoutMs: 5000 }));
    const s = await setup({ azure: driver });
    const connectionString = azurite.connectionString();
    const flowId = await s.flow({
      enabled: true,
      services: { azure: { enabled: true, bucket: CONTAINER, connection_string: connectionString, prefix: 'inline' } },
    });

    await s.submit(flowId, 2);
    await azurite.stop();
    try {
      await s.submit(flowId, 2);
      expect(await s.spooled()).toBe(4);
      s.t.clock.advance(1000);
      expect((await s.t.service.firehose.retryDue())._unsafeUnwrap()).toEqual({
        leased: 4,
        delivered: 0,
        rescheduled: 4,
      });
    } finally {
      await azurite.restart();
    }
    s.t.clock.advance(2000);
    expect((await s.t.service.firehose.retryDue())._unsafeUnwrap()).toEqual({
      leased: 4,
      delivered: 4,
      rescheduled: 0,
    });

    const events = s.events(flowId);
    const expected = expectedObjects(events, 'inline');
    const objects = await blobs(connectionString, 'inline/');
    expect([...objects.keys()].sort()).toEqual([...expected.keys()].sort());
    expect([...writes.values()].every((n) => n === 1)).toBe(true);
    expect(writes.size).toBe(8);
    for (const [key, body] of objects) {
      expect(JSON.parse(body)).toEqual(JSON.parse(JSON.stringify(expected.get(key))));
      expect(body).not.toContain('AccountKey');
    }
    for (const e of events)
      expect(e.firehose?.services.azure).toEqual({ enabled: true, bucket: CONTAINER, prefix: 'inline' });
    const flow = (await s.t.service.flows.get(s.t.principal, flowId))._unsafeUnwrap();
    expect(JSON.stringify(flow)).not.toContain('AccountKey');
    // Written back as read, the flow keeps its connection string.
    const updated = await s.t.service.flows.update(s.t.principal, flowId, { ...flow, name: 'Renamed' });
    expect(updated.isOk()).toBe(true);
    expect(s.t.storage.tables.flows.get(flowId)?.firehose?.services.azure?.connection_string).toBe(connectionString);
  }, 60_000);

  it('delivers to both services of one flow, the azure one through a stored credential', async () => {
    const aws = s3Storage({ endpoint: s3.endpoint, forcePathStyle: true, maxAttempts: 1, clientConfig });
    const s = await setup({ aws, azure: azureBlobStorage({ maxTries: 1, tryTimeoutMs: 5000 }) });
    const account = s.t.principal.account.id;
    const awsCredential = aCredential(account, { type: 'aws', username: KEY.id, password: KEY.secret });
    const azureCredential = aCredential(account, {
      type: 'azure',
      username: null,
      password: azurite.connectionString(),
    });
    (await s.t.storage.credentials.insert(awsCredential))._unsafeUnwrap();
    (await s.t.storage.credentials.insert(azureCredential))._unsafeUnwrap();
    const flowId = await s.flow({
      enabled: true,
      services: {
        aws: { enabled: true, credential_id: awsCredential.id, bucket: BUCKET, prefix: 'both' },
        azure: { enabled: true, credential_id: azureCredential.id, bucket: CONTAINER, prefix: 'both' },
      },
    });
    await s.submit(flowId, 2);
    const expected = [...expectedObjects(s.events(flowId), 'both').keys()].sort();
    expect(expected).toHaveLength(4);
    expect([...(await s3Objects('both/')).keys()].sort()).toEqual(expected);
    expect([...(await blobs(azurite.connectionString(), 'both/')).keys()].sort()).toEqual(expected);
    expect(await s.spooled()).toBe(0);
    aws.close();
  }, 30_000);
});
