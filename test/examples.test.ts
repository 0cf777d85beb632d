import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { startExample } from './support/example';
import { basic } from './support/fixture';

// Smoke tests: every runnable example starts and answers.
describe('examples', () => {
  let child: ChildProcess | undefined;
  const key = 'examples-smoke-key-0123456';
  afterEach(async () => {
    child?.kill('SIGTERM');
    if (child && child.exitCode === null) await once(child, 'exit');
  });

  it('fastify-server serves the API under /api and its own routes beside it', async () => {
    const started = await startExample({ LEADROUTE_API_KEY: key }, 'examples/fastify-server/src/main.ts');
    child = started.child;
    const entities = await fetch(`${started.url}/api/entities`, { headers: { authorization: basic(key) } });
    expect(entities.status).toBe(200);
    expect(((await entities.json()) as unknown[]).length).toBeGreaterThan(0);
    expect((await fetch(`${started.url}/health`)).status).toBe(200);
    expect(
      (await fetch(`${started.url}/certificates/${'a'.repeat(40)}/ping`, { headers: { authorization: basic(key) } }))
        .status,
    ).toBe(404);
  }, 60_000);

  it("embedded-express keeps the app's own JSON routes working beside Leadroute", async () => {
    const started = await startExample({ LEADROUTE_API_KEY: key }, 'examples/embedded-express/src/main.ts');
    child = started.child;
    const order = await fetch(`${started.url}/orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ item: 'book' }),
    });
    expect(await order.json()).toEqual({ id: 1, item: 'book' });
    const entity = await fetch(`${started.url}/leadroute/entities`, {
      method: 'POST',
      headers: { authorization: basic(key), 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Embedded buyer', module_ids: [], source: null, recipient: 'buyer' }),
    });
    expect(entity.status).toBe(201);
    expect((await fetch(`${started.url}/health`)).status).toBe(200);
  }, 60_000);
});
