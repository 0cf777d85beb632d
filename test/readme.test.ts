import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startExample } from './support/example';

// The README promises a new user a delivered lead, a feedback call, a search hit and
// a finished export in five minutes; this runs its quick-start block as written.
describe('the README quick start', () => {
  const key = 'readme-quick-start-key-01';
  let child: ChildProcess;
  let url: string;

  beforeAll(async () => {
    const started = await startExample({ LEADROUTE_API_KEY: key });
    child = started.child;
    url = started.url;
  }, 40_000);

  afterAll(async () => {
    child.kill('SIGTERM');
    if (child.exitCode === null) await once(child, 'exit');
  });

  it('reaches a delivered lead, feedback, a search hit and a downloaded export', async () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const block = /<!-- quick-start -->\s*```sh\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(block, 'README has a quick-start block').toBeDefined();
    const { stdout } = await promisify(execFile)('bash', ['-euo', 'pipefail', '-c', block as string], {
      env: { ...process.env, B: url, LEADROUTE_API_KEY: key },
      timeout: 60_000,
    }).catch((e: { stdout?: string; stderr?: string; message: string }) => {
      throw new Error(`the quick start failed:\n${e.stderr ?? ''}\n--- stdout ---\n${e.stdout ?? ''}`);
    });
    const lines = stdout.trim().split('\n');
    expect(JSON.parse(lines[0] as string)).toMatchObject({ outcome: 'success', price: 3 });
    expect(JSON.parse(lines[1] as string)).toMatchObject({ outcome: 'success', lead: { first_name: 'Ada' } });
    const search = JSON.parse(lines[2] as string);
    expect(search.total).toBe(1);
    expect(search.hits[0]).toMatchObject({ last_name: 'Lovelace', flow_name: 'Demo flow' });
    expect(lines[3]).toBe('id,type,outcome,vars.lead.email');
    expect(lines.slice(4).some((l) => l.includes('ada@example.com'))).toBe(true);
  }, 90_000);
});
