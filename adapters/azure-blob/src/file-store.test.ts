import { BlobServiceClient } from '@azure/storage-blob';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AzuriteHandle, startAzurite } from './azurite.test-helper';
import { azureBlobFileStore } from './file-store';

const CONTAINER = 'exports';
let server: AzuriteHandle;

async function* chunks(parts: readonly string[], failAfter?: number): AsyncGenerator<string> {
  for (const [i, part] of parts.entries()) {
    if (failAfter !== undefined && i === failAfter) throw new Error('the export stopped');
    yield part;
  }
}

const blobNames = async (): Promise<string[]> => {
  const names: string[] = [];
  for await (const b of BlobServiceClient.fromConnectionString(server.connectionString())
    .getContainerClient(CONTAINER)
    .listBlobsFlat())
    names.push(b.name);
  return names;
};

beforeAll(async () => {
  server = await startAzurite();
  await BlobServiceClient.fromConnectionString(server.connectionString()).getContainerClient(CONTAINER).create();
}, 60_000);
afterAll(async () => {
  await server?.dispose();
});

describe('#21.12 export files in Azure Blob Storage (azurite)', () => {
  it('#21.12 streams a file into the container and hands out a read-only SAS URL for the given seconds', async () => {
    const store = azureBlobFileStore({
      connectionString: server.connectionString(),
      container: CONTAINER,
      prefix: 'leadroute/',
    });
    const put = await store.put('exports/a/1.csv', chunks(['id,type\n', '1,source\n', 'é\n']), {
      contentType: 'text/csv; charset=utf-8',
    });
    expect(put._unsafeUnwrap()).toEqual({ bytes: Buffer.byteLength('id,type\n1,source\né\n') });
    expect(await blobNames()).toEqual(['leadroute/exports/a/1.csv']);
    const url = new URL((await store.presign('exports/a/1.csv', 10))._unsafeUnwrap());
    expect(url.pathname).toBe(`/devstoreaccount1/${CONTAINER}/leadroute/exports/a/1.csv`);
    expect(url.searchParams.get('sp')).toBe('r');
    const expiry = Date.parse(url.searchParams.get('se') as string);
    expect(expiry).toBeGreaterThan(Date.now());
    expect(expiry).toBeLessThanOrEqual(Date.now() + 11_000);
    const res = await fetch(url);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(await res.text()).toBe('id,type\n1,source\né\n');
    (await store.remove('exports/a/1.csv'))._unsafeUnwrap();
    (await store.remove('exports/a/1.csv'))._unsafeUnwrap(); // a missing file is no error
    expect(await blobNames()).toEqual([]);
  });

  it('#21.12 leaves nothing under the name when the stream fails, and says why', async () => {
    const store = azureBlobFileStore({ connectionString: server.connectionString(), container: CONTAINER });
    const put = await store.put('broken.csv', chunks(['a\n', 'b\n', 'c\n'], 2), { contentType: 'text/csv' });
    expect(put._unsafeUnwrapErr()).toMatchObject({
      type: 'StorageFailure',
      message: expect.stringContaining('the export stopped'),
    });
    expect(await blobNames()).toEqual([]);
  });

  it('#21.12 refuses to sign without an account key, as an error value', async () => {
    const sas = `BlobEndpoint=http://127.0.0.1:${server.port}/devstoreaccount1;SharedAccessSignature=sv=2020-08-04&sig=x`;
    const store = azureBlobFileStore({ connectionString: sas, container: CONTAINER });
    expect((await store.presign('x.csv', 10))._unsafeUnwrapErr()).toMatchObject({
      type: 'StorageFailure',
      message: expect.stringContaining('Signing'),
    });
  });
});
