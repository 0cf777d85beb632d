import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic } from '../support/fixture';
import { createPgCluster, hasPostgresBinaries, type PgCluster } from '../support/pg-cluster';

// `npm start` on PostgreSQL listened before its tables were migrated and its routes mounted: while the database was
// not up yet (or was frozen), every valid lead post got Express's HTML "404 Cannot POST", which a vendor takes as
// final, and a database down at start ended the process. Now it answers 503 problem+json with Retry-After until it is
// ready, waits for the database, and serves once it is up.
const run = hasPostgresBinaries() || process.env.CI ? describe : describe.skip;

run('examples/express-server started before its PostgreSQL', () => {
  let cluster: PgCluster;
  let child: ChildProcess;
  let out = '';
  const key = 'example-start-key-0123456789';
  const waitFor = async (pattern: RegExp, ms: number): Promise<RegExpExecArray> => {
    const deadline = Date.now() + ms;
    for (;;) {
      const found = pattern.exec(out);
      if (found) return found;
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`no ${pattern} in:\n${out}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };

  beforeAll(async () => {
    cluster = await createPgCluster();
    cluster.stop('fast');
    child = spawn(process.execPath, ['--import', 'tsx', 'examples/express-server/src/main.ts'], {
      env: { ...process.env, PORT: '0', DATABASE_URL: cluster.url, LEADROUTE_API_KEY: key },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    for (const stream of [child.stdout, child.stderr]) {
      stream?.setEncoding('utf8');
      stream?.on('data', (chunk: string) => (out += chunk));
    }
  }, 60_000);

  afterAll(async () => {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
    cluster?.destroy();
  });

  it('answers 503 problem+json with Retry-After meanwhile, stays up, and serves once the database is up', async () => {
    const url = (await waitFor(/starting on (\S+)/, 30_000))[1] as string;
    await waitFor(/waiting for PostgreSQL/, 30_000);
    const lead = await fetch(`${url}/flows/${'a'.repeat(24)}/sources/${'b'.repeat(24)}/submit`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'ada@example.com' }),
    });
    expect(lead.status).toBe(503);
    expect(lead.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(lead.headers.get('retry-after')).toBe('2');
    expect(((await lead.json()) as { detail: string }).detail).toMatch(/starting/);
    expect(child.exitCode).toBeNull();

    cluster.start();
    await waitFor(/listening on/, 30_000);
    const entities = await fetch(`${url}/entities`, { headers: { authorization: basic(key) } });
    expect(entities.status).toBe(200);

    // A failure of the store afterwards is on stderr, not silent (the example logged nothing before).
    const flows = (await (await fetch(`${url}/flows`, { headers: { authorization: basic(key) } })).json()) as {
      id: string;
      sources: { entity_id: string }[];
    }[];
    const flow = flows[0] as (typeof flows)[number];
    cluster.stop('immediate');
    const down = await fetch(`${url}/flows/${flow.id}/sources/${flow.sources[0]?.entity_id}/submit`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ first_name: 'Ada', email: 'ada@example.com', state: 'TX' }),
    });
    expect(down.status).toBe(503);
    await waitFor(/\[leadroute\] /, 10_000);
  }, 90_000);
});
