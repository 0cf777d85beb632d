import { createLeadService } from '@leadroute/core';
import { memoryOutbox, memoryStorage } from '@leadroute/memory';
import { s3FileStore, s3Storage } from '@leadroute/s3';
import { manualClock } from '@leadroute/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type S3rverHandle, startS3rver } from '../../adapters/s3/src/s3rver.test-helper';
import { exportEvent } from './support';

const KEY = { id: 'AKIALEADROUTEEXPORT', secret: 'export-secret' };
const BUCKET = 'exports-e2e';
let server: S3rverHandle;
let driver: ReturnType<typeof s3Storage>;

beforeAll(async () => {
  server = await startS3rver({ buckets: [BUCKET], accessKeys: { [KEY.id]: KEY.secret } });
  driver = s3Storage({
    endpoint: server.endpoint,
    forcePathStyle: true,
    maxAttempts: 1,
    clientConfig: { requestChecksumCalculation: 'WHEN_REQUIRED', responseChecksumValidation: 'WHEN_REQUIRED' },
  });
});
afterAll(async () => {
  driver?.close();
  await server?.dispose();
});

describe('an export to S3', () => {
  it('is uploaded to the bucket and downloaded through a pre-signed URL valid 10 seconds', async () => {
    const storage = memoryStorage();
    const clock = manualClock('2026-03-10T12:00:00Z');
    const fileStore = s3FileStore({
      driver,
      location: { service: 'aws', accessKeyId: KEY.id, secretAccessKey: KEY.secret, bucket: BUCKET },
      prefix: 'leadroute/',
    });
    const service = createLeadService({
      storage,
      clock,
      notifier: memoryOutbox(),
      fileStore,
      exports: { worker: false },
    });
    const { api_key } = (await service.accounts.create({ name: 'Acme', time_zone: 'America/Chicago' }))._unsafeUnwrap();
    const principal = (await service.accounts.authenticate(api_key))._unsafeUnwrap();
    (
      await storage.events.insert(exportEvent(principal.account.id, Date.UTC(2026, 2, 2, 18), { email: 'a@b.co' }))
    )._unsafeUnwrap();
    const exp = (
      await service.exports.create(principal, {
        start: '2026-03-01',
        end: '2026-03-03',
        fields: ['lead.email', 'start_timestamp'],
      })
    )._unsafeUnwrap();
    expect(await service.exports.runPending()).toBe(1);
    const link = (await service.exports.fileLink(principal, exp.id))._unsafeUnwrap();
    const url = new URL(link.url);
    expect(url.pathname).toBe(`/${BUCKET}/leadroute/exports/${principal.account.id}/${exp.id}-1.csv`);
    expect(url.searchParams.get('X-Amz-Expires')).toBe('10');
    expect(await (await fetch(url)).text()).toBe('lead.email,start_timestamp\na@b.co,2026-03-02 12:00:00\n');
    expect(storage.tables.exports.get(exp.id)?.downloads).toHaveLength(1);
  });
});
