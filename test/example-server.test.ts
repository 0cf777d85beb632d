import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic } from './support/fixture';

// The README's first command must work: the example service starts on memory
// storage with the demo key from the environment and answers GET /entities.
describe('examples/express-server (what npm start runs)', () => {
  let child: ChildProcess;
  let url: string;
  const key = 'readme-demo-key-0123456789';

  beforeAll(async () => {
    child = spawn(process.execPath, ['--import', 'tsx', '--conditions=@leadroute/source', 'examples/express-server/src/main.ts'], {
      env: { ...process.env, PORT: '0', LEADROUTE_API_KEY: key },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout?.setEncoding('utf8');
    child.stdout?.on('data', (chunk: string) => (out += chunk));
    const deadline = Date.now() + 30_000;
    while (!/listening on (\S+)/.test(out)) {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`example did not start:\n${out}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    url = (/listening on (\S+)/.exec(out) as RegExpExecArray)[1] as string;
    expect(out).toContain(`curl -u API:${key}`);
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

  it('refuses a wrong key', async () => {
    expect((await fetch(`${url}/entities`, { headers: { authorization: basic('wrong-key') } })).status).toBe(401);
  });
});
