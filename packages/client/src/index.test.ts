import { afterEach, describe, expect, it, vi } from 'vitest';
import { createClient } from './index';

describe('@leadroute/client outside Node', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('#21.5 builds HTTP Basic auth without Buffer (browsers, edge runtimes), UTF-8 keys included', async () => {
    const key = 'clé-ключ-0123456789';
    const expected = `Basic ${Buffer.from(`API:${key}`, 'utf8').toString('base64')}`;
    const seen: unknown[] = [];
    // No Buffer while the client is made (where the header is built); Node's own fetch
    // classes need Buffer internally, so it comes back before the request runs.
    vi.stubGlobal('Buffer', undefined);
    const api = createClient({
      baseUrl: 'http://leadroute.test',
      apiKey: key,
      fetch: async (_url, init) => {
        seen.push((init?.headers as Record<string, string> | undefined)?.authorization);
        return new Response('[]', { status: 200, headers: { 'content-type': 'application/json' } });
      },
    });
    vi.unstubAllGlobals();
    const listed = await api.entities.list();
    expect(listed.isOk() ? listed.value : listed.error).toEqual([]);
    expect(seen).toEqual([expected]);
  });
});
