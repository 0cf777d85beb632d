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

  it('#24.7 calls the connection routes: invite, list, accept, decline', async () => {
    const seen: { method: string | undefined; url: string; body: unknown }[] = [];
    const api = createClient({
      baseUrl: 'http://leadroute.test',
      apiKey: 'k',
      fetch: async (url, init) => {
        const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
        seen.push({ method: init?.method, url: String(url), body });
        return new Response('{}', { status: 200, headers: { 'content-type': 'application/json' } });
      },
    });
    const id = '0123456789abcdef01234567';
    const results = [
      await api.connections.invite({ account_id: id, role: 'seller' }),
      await api.connections.invitations(),
      await api.connections.accept(id),
      await api.connections.decline('a/b'),
    ];
    expect(results.map((r) => r.isOk())).toEqual([true, true, true, true]);
    expect(seen).toEqual([
      {
        method: 'POST',
        url: 'http://leadroute.test/connections/invitations',
        body: { account_id: id, role: 'seller' },
      },
      { method: 'GET', url: 'http://leadroute.test/connections/invitations', body: undefined },
      { method: 'POST', url: `http://leadroute.test/connections/invitations/${id}/accept`, body: undefined },
      { method: 'POST', url: 'http://leadroute.test/connections/invitations/a%2Fb/decline', body: undefined },
    ]);
  });
});
