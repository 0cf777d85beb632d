import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { startExample } from '../support/example';

// Issue #18.18: the example servers listened on every interface. A machine address
// other than loopback shows which: a loopback-only server refuses connections there.
const external = Object.values(networkInterfaces())
  .flat()
  .find((a) => a && a.family === 'IPv4' && !a.internal)?.address;

/** Whether a TCP connection to host:port is accepted (within 2 s). */
const reachable = (host: string, port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect({ host, port, timeout: 2000 });
    const done = (ok: boolean) => (socket.destroy(), resolve(ok));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
    socket.once('timeout', () => done(false));
  });

describe.skipIf(external === undefined)('example servers bind to loopback unless HOST says otherwise', () => {
  const children: ChildProcess[] = [];
  afterEach(async () => {
    for (const child of children.splice(0)) {
      child.kill('SIGTERM');
      if (child.exitCode === null) await once(child, 'exit');
    }
  });
  const start = async (script: string, env: Record<string, string> = {}) => {
    const started = await startExample({ LEADROUTE_API_KEY: 'bind-test-key-0123456789', HOST: '', ...env }, script);
    children.push(started.child);
    return Number(new URL(started.url).port);
  };

  it.each([
    'examples/express-server/src/main.ts',
    'examples/fastify-server/src/main.ts',
    'examples/embedded-express/src/main.ts',
  ])(
    '#18.18 %s answers on 127.0.0.1 and refuses connections on the machine address',
    async (script) => {
      const port = await start(script);
      expect(await reachable('127.0.0.1', port)).toBe(true);
      expect(await reachable(external as string, port)).toBe(false);
    },
    60_000,
  );

  it.each(['examples/express-server/src/main.ts', 'examples/fastify-server/src/main.ts'])(
    '#18.18 %s with HOST=0.0.0.0 serves the machine address (so the probe above sees a listening port)',
    async (script) => {
      const port = await start(script, { HOST: '0.0.0.0' });
      expect(await reachable(external as string, port)).toBe(true);
    },
    60_000,
  );
});
