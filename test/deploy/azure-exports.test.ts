import { BlobServiceClient } from '@azure/storage-blob';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AzuriteHandle, startAzurite } from '../../adapters/azure-blob/src/azurite.test-helper';
import { type ServerProcess, startServerProcess, stopAll } from './server-process';

const CONTAINER = 'leadroute-exports';
const API_KEY = 'azure-deploy-key-0123456789';
const AUTH = `Basic ${Buffer.from(`API:${API_KEY}`).toString('base64')}`;

describe('#21.12 the production server with export files in Azure Blob Storage', () => {
  let azurite: AzuriteHandle;
  let server: ServerProcess;
  const running: ServerProcess[] = [];

  const api = async (path: string, body?: unknown, auth = true) => {
    const res = await fetch(`${server.url}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: {
        ...(auth ? { authorization: AUTH } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  beforeAll(async () => {
    azurite = await startAzurite();
    await BlobServiceClient.fromConnectionString(azurite.connectionString()).getContainerClient(CONTAINER).create();
    // In memory otherwise: this test is about where export files go.
    server = await startServerProcess(
      {
        PORT: '0',
        HOST: '127.0.0.1',
        DATABASE_URL: '',
        LEADROUTE_AZURE_CONNECTION_STRING: azurite.connectionString(),
        LEADROUTE_AZURE_CONTAINER: CONTAINER,
        LEADROUTE_AZURE_PREFIX: 'lr/',
        LEADROUTE_BOOTSTRAP_ACCOUNT_NAME: 'Azure Test',
        LEADROUTE_BOOTSTRAP_API_KEY: API_KEY,
        LEADROUTE_EXPORT_POLL_MS: '200',
      },
      running,
    );
  }, 90_000);

  afterAll(async () => {
    await stopAll(running);
    await azurite?.dispose();
  }, 60_000);

  it('#21.12 writes the export CSV to the container and links to it with a read-only SAS URL', async () => {
    expect(server.logs.find((l) => l.msg === 'leadroute listening')).toMatchObject({
      storage: 'memory',
      exportFiles: 'azure',
    });
    const source = await api('/entities', { name: 'Blob Vendor', source: 'seller', recipient: null, module_ids: [] });
    const flow = await api('/flows', { name: 'Blob flow', sources: [{ entity_id: source.body.id }], steps: [] });
    const lead = await api(
      `/flows/${flow.body.id}/sources/${source.body.id}/submit`,
      { email: 'blob@example.com' },
      false,
    );
    expect(lead.body).toMatchObject({ outcome: 'success' });
    const exp = await api('/exports', {
      start: '2020-01-01T00:00:00Z',
      end: '2100-01-01T00:00:00Z',
      fields: ['type', 'vars.lead.email'],
    });
    expect(exp.status).toBe(201);
    for (const deadline = Date.now() + 30_000; ; ) {
      if ((await api(`/exports/${exp.body.id}`)).body.status === 'complete') break;
      expect(Date.now()).toBeLessThan(deadline);
      await new Promise((r) => setTimeout(r, 100));
    }
    const link = new URL((await api(`/exports/${exp.body.id}/file`)).body.url as string);
    expect(link.pathname).toMatch(
      new RegExp(`^/devstoreaccount1/${CONTAINER}/lr/exports/[0-9a-f]{24}/${exp.body.id}-1\\.csv$`),
    );
    expect(link.searchParams.get('sp')).toBe('r');
    expect(await (await fetch(link)).text()).toBe('type,vars.lead.email\nsource,blob@example.com\n');
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  }, 90_000);
});
