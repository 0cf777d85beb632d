// The client alone at run time with Buffer gone, as in a browser or an edge runtime.
import { createClient } from '@leadroute/client';

delete globalThis.Buffer;
let authorization;
const api = createClient({
  baseUrl: 'https://leads.example.com',
  apiKey: 'key',
  fetch: async (_url, init) => {
    authorization = init.headers.authorization;
    // A plain answer object: Node's own Response needs Buffer internally.
    return { ok: true, status: 200, headers: { get: () => 'application/json' }, text: async () => '[]' };
  },
});
const listed = await api.entities.list();
if (!listed.isOk() || authorization !== `Basic ${btoa('API:key')}`) {
  console.log('FAIL client without Buffer', listed, authorization);
  process.exit(1);
}
console.log('ok   client runs without Buffer');
