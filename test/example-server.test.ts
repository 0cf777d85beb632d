import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startExample } from './support/example';
import { OVERSIZED_HEADERS, rawExchange } from './support/call';
import { basic } from './support/fixture';

// The README's first command must work: the example service starts on memory
// storage with the demo key from the environment and answers GET /entities.
describe('examples/express-server (what npm start runs)', () => {
  let child: ChildProcess;
  let url: string;
  const key = 'readme-demo-key-0123456789';

  beforeAll(async () => {
    const started = await startExample({ LEADROUTE_API_KEY: key });
    child = started.child;
    url = started.url;
    expect(started.output).toContain(`curl -u API:${key}`);
  }, 40_000);

  afterAll(async () => {
    child.kill('SIGTERM');
    if (child.exitCode === null) await once(child, 'exit');
  });

  it('answers GET /entities with the demo key, seeded with demo data', async () => {
    const res = await fetch(`${url}/entities`, { headers: { authorization: basic(key) } });
    expect(res.status).toBe(200);
    const names = ((await res.json()) as { name: string }[]).map((e) => e.name);
    expect(names).toEqual(expect.arrayContaining(['Acme Insurance', 'Lead Vendor LLC', 'Demo Leads']));
  });

  it('does not name its framework (no X-Powered-By)', async () => {
    const res = await fetch(`${url}/entities`, { headers: { authorization: basic(key) } });
    expect(res.headers.get('x-powered-by')).toBeNull();
  });

  it('answers headers over 16 KB (refused by Node before any route) with a 431 problem document', async () => {
    const { head, body } = await rawExchange(url, OVERSIZED_HEADERS);
    expect(head).toMatch(/^HTTP\/1\.1 431 /);
    expect(head).toMatch(/content-type: application\/problem\+json/i);
    expect(JSON.parse(body)).toMatchObject({ status: 431, code: 'HeadersTooLarge' });
  });

  it('refuses a wrong key', async () => {
    expect((await fetch(`${url}/entities`, { headers: { authorization: basic('wrong-key') } })).status).toBe(401);
  });
});
