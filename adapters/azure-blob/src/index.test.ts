import { countingDriver } from '@leadroute/testkit';
import { BlobServiceClient } from '@azure/storage-blob';
import { type AzureLocation, createFirehoseDelivery, errors, validateFirehose } from '@leadroute/core';
import { errAsync, okAsync } from 'neverthrow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memorySpool } from '../../memory/src/spool';
import { type AzuriteHandle, startAzurite } from './azurite.test-helper';
import { azureBlobStorage } from './index';

const CONTAINER = 'firehose-test';
const WRONG_KEY = Buffer.from('not the account key, but 64 bytes long........................').toString('base64');
const NOW = Date.UTC(2025, 10, 30, 1, 2, 3, 4);

let server: AzuriteHandle;
const driver = azureBlobStorage({ maxTries: 1, tryTimeoutMs: 5000 });
let location: AzureLocation;

async function listBlobs(connectionString: string, prefix = ''): Promise<string[]> {
  const container = BlobServiceClient.fromConnectionString(connectionString).getContainerClient(CONTAINER);
  const names: string[] = [];
  for await (const blob of container.listBlobsFlat({ prefix })) names.push(blob.name);
  return names.sort();
}

async function read(connectionString: string, name: string): Promise<string> {
  const blob = BlobServiceClient.fromConnectionString(connectionString)
    .getContainerClient(CONTAINER)
    .getBlobClient(name);
  return (await blob.downloadToBuffer()).toString('utf8');
}

beforeAll(async () => {
  server = await startAzurite();
  location = { service: 'azure', connectionString: server.connectionString(), container: CONTAINER };
  await BlobServiceClient.fromConnectionString(location.connectionString).getContainerClient(CONTAINER).create();
});

afterAll(async () => {
  await server?.dispose();
});

describe('azureBlobStorage against azurite', () => {
  it('validates credentials and the container', async () => {
    expect((await driver.validate(location)).isOk()).toBe(true);
    expect((await driver.validate({ ...location, container: 'no-such-container' }))._unsafeUnwrapErr().type).toBe(
      'ContainerNotFound',
    );
    const wrong = (
      await driver.validate({ ...location, connectionString: server.connectionString(WRONG_KEY) })
    )._unsafeUnwrapErr();
    expect(wrong.type).toBe('InvalidCredentials');
    // Azure says AuthenticationFailed; azurite says AuthorizationFailure "Server failed to authenticate".
    expect(wrong.message).toMatch(
      /^\[leadroute\] \[azure-blob\] GetContainerProperties firehose-test failed: .*authenticate/i,
    );
    expect((wrong.cause as { statusCode?: number }).statusCode).toBe(403);
    expect((await driver.validate({ ...location, connectionString: 'garbage' }))._unsafeUnwrapErr().type).toBe(
      'InvalidLocation',
    );
  });

  it('writes blobs, singly and in batches, and honours ifAbsent', async () => {
    expect((await driver.putObject(location, 'driver/a.txt', 'hello'))._unsafeUnwrap()).toEqual({ written: true });
    expect(await read(location.connectionString, 'driver/a.txt')).toBe('hello');
    expect((await driver.putObject(location, 'driver/a.txt', 'again', { ifAbsent: true }))._unsafeUnwrap()).toEqual({
      written: false,
    });
    expect(await read(location.connectionString, 'driver/a.txt')).toBe('hello');
    const batch = (
      await driver.putObjects(location, [
        { key: 'driver/b.json', body: '{}', contentType: 'application/json' },
        { key: 'driver/c.bin', body: new Uint8Array([1, 2, 3]) },
      ])
    )._unsafeUnwrap();
    expect(batch.map((b) => b.ok)).toEqual([true, true]);
    const wrong = (
      await driver.putObject({ ...location, connectionString: server.connectionString(WRONG_KEY) }, 'x', 'x')
    )._unsafeUnwrapErr();
    expect(wrong.type).toBe('InvalidCredentials');
  });
});

describe('GET /firehose (azure) against azurite', () => {
  const deps = { clock: { now: () => NOW }, cloudStorage: { azure: driver } };
  const query = () => ({ service: 'azure', connection_string: location.connectionString, bucket: CONTAINER });

  it('validates and writes the verification file, at the root or under the prefix', async () => {
    expect((await validateFirehose(deps, query()))._unsafeUnwrap()).toEqual({
      validated: true,
      verification_file: true,
    });
    expect((await validateFirehose(deps, { ...query(), prefix: 'checks', flow_id: 'flow7' }))._unsafeUnwrap()).toEqual({
      validated: true,
      verification_file: true,
    });
    const files = await listBlobs(location.connectionString, 'platform_verification_');
    expect(files).toEqual(['platform_verification_20251130010203004.txt']);
    expect(await listBlobs(location.connectionString, 'checks/')).toEqual([
      'checks/platform_verification_flow7_20251130010203004.txt',
    ]);
  });

  it('writes nothing with verification_file=false', async () => {
    const before = await listBlobs(location.connectionString);
    expect(
      (await validateFirehose(deps, { ...query(), prefix: 'none', verification_file: 'false' }))._unsafeUnwrap(),
    ).toEqual({
      validated: true,
      verification_file: false,
    });
    expect(await listBlobs(location.connectionString)).toEqual(before);
  });

  it('answers validated false for a wrong account key, 404 for a missing container, 400 for bad parameters', async () => {
    const wrong = (
      await validateFirehose(deps, { ...query(), connection_string: server.connectionString(WRONG_KEY) })
    )._unsafeUnwrap();
    expect(wrong).toMatchObject({ validated: false, verification_file: false });
    expect(wrong.reason).toMatch(/^The azure credentials were not accepted: .*authenticate/i);
    expect((await validateFirehose(deps, { ...query(), bucket: 'no-such-container' }))._unsafeUnwrapErr().type).toBe(
      'NotFound',
    );
    expect((await validateFirehose(deps, { service: 'azure', bucket: CONTAINER }))._unsafeUnwrapErr()).toMatchObject({
      type: 'BadRequest',
      issues: [{ path: '/connection_string' }],
    });
  });
});

describe('firehose delivery to azurite', () => {
  it('delivers events, spools them through an outage and delivers each exactly once after recovery', async () => {
    // On disk, so the blobs written before the outage survive the restart.
    const persistent = await startAzurite({ persistent: true });
    try {
      const connectionString = persistent.connectionString();
      await BlobServiceClient.fromConnectionString(connectionString).getContainerClient(CONTAINER).create();
      const { driver: wrapped, writes } = countingDriver(driver);
      const spool = memorySpool();
      let now = NOW;
      const delivery = createFirehoseDelivery({
        cloudStorage: { azure: wrapped },
        spool,
        clock: { now: () => now },
        resolveCredential: (id) =>
          id === 'az1' ? okAsync({ service: 'azure', connectionString }) : errAsync(errors.notFound('credential', id)),
      });
      const firehose = {
        enabled: true,
        services: { azure: { enabled: true, credential_id: 'az1', bucket: CONTAINER, prefix: 'stream/' } },
      };
      const events = Array.from({ length: 8 }, (_, n) => ({
        id: `65f3000000000000000000${String(n).padStart(2, '0')}`,
        lead_id: `65f40000000000000000000${n % 2}`,
        type: 'recipient',
        vars: { n },
      }));

      for (const e of events.slice(0, 3))
        expect((await delivery.deliver(firehose, e))._unsafeUnwrap()[0]?.status).toBe('delivered');
      await persistent.stop();
      for (const e of events.slice(3))
        expect((await delivery.deliver(firehose, e))._unsafeUnwrap()[0]?.status).toBe('spooled');
      now += 1000;
      expect((await delivery.retryDue(now))._unsafeUnwrap()).toEqual({ leased: 5, delivered: 0, rescheduled: 5 });

      await persistent.restart();
      now += 2000;
      expect((await delivery.retryDue(now))._unsafeUnwrap()).toEqual({ leased: 5, delivered: 5, rescheduled: 0 });
      expect((await delivery.retryDue(now + 3_600_000))._unsafeUnwrap().leased).toBe(0);
      expect((await spool.count())._unsafeUnwrap()).toBe(0);

      const expected = events.map((e) => `stream/${e.lead_id}/${e.id}.json`).sort();
      expect(await listBlobs(connectionString, 'stream/')).toEqual(expected);
      expect([...writes.keys()].sort()).toEqual(expected);
      expect([...writes.values()].every((n) => n === 1)).toBe(true);
      for (const e of events)
        expect(JSON.parse(await read(connectionString, `stream/${e.lead_id}/${e.id}.json`))).toEqual(e);
    } finally {
      await persistent.dispose();
    }
    // Two azurite start-ups take a few seconds each on a loaded machine.
  }, 60_000);
});
