import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
const BLOB_MAIN = join(dirname(require.resolve('azurite/package.json')), 'dist/src/blob/main.js');

/** Azurite's well-known development account. */
export const DEV_ACCOUNT = {
  name: 'devstoreaccount1',
  key: 'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==',
} as const;

/** A running azurite-blob on a free loopback port. */
export interface AzuriteHandle {
  readonly port: number;
  /** A connection string for the development account, or with another account key. */
  connectionString(accountKey?: string): string;
  /** Stops the process (SIGTERM, then SIGKILL after 5 s). */
  stop(): Promise<void>;
  /** Starts it again on the same port (over the same files when `persistent`). */
  restart(): Promise<void>;
  /** Stops it and removes its files. */
  dispose(): Promise<void>;
}

function launch(port: number, location: string | undefined): Promise<{ child: ChildProcess; port: number }> {
  const args = [
    BLOB_MAIN,
    '--blobHost',
    '127.0.0.1',
    '--blobPort',
    String(port),
    '--skipApiVersionCheck',
    '--disableTelemetry',
    ...(location === undefined ? ['--inMemoryPersistence', '--extentMemoryLimit', '256'] : ['--location', location]),
  ];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`azurite did not start within 20 s:\n${output}`));
    }, 20_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listens on http:\/\/127\.0\.0\.1:(\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        child.stdout?.off('data', onData);
        child.stdout?.resume();
        child.stderr?.resume();
        resolve({ child, port: Number(match[1]) });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`azurite exited with ${code}:\n${output}`));
    });
  });
}

// Azurite closes its server (saving its database) on SIGTERM but may not exit by
// itself afterwards: wait for "successfully closed", then make sure it is gone.
function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 5000);
    const onData = (chunk: Buffer) => {
      if (chunk.toString().includes('successfully closed')) child.kill('SIGKILL');
    };
    child.stdout?.on('data', onData);
    child.once('exit', () => {
      clearTimeout(force);
      child.stdout?.off('data', onData);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/**
 * Starts `azurite-blob --skipApiVersionCheck` as a child process on a free port:
 * in memory, or over a temp directory with `persistent` so a restart keeps the blobs.
 * Azurite checks shared-key signatures, so a wrong account key is refused.
 */
export async function startAzurite(options: { persistent?: boolean } = {}): Promise<AzuriteHandle> {
  const location = options.persistent ? mkdtempSync(join(tmpdir(), 'leadroute-azurite-')) : undefined;
  let { child, port } = await launch(0, location);
  let running = true;
  const stop = async () => {
    if (!running) return;
    running = false;
    await kill(child);
  };
  return {
    port,
    connectionString: (accountKey = DEV_ACCOUNT.key) =>
      `DefaultEndpointsProtocol=http;AccountName=${DEV_ACCOUNT.name};AccountKey=${accountKey};` +
      `BlobEndpoint=http://127.0.0.1:${port}/${DEV_ACCOUNT.name};`,
    stop,
    restart: async () => {
      await stop();
      ({ child } = await launch(port, location));
      running = true;
    },
    dispose: async () => {
      await stop();
      if (location !== undefined) rmSync(location, { recursive: true, force: true });
    },
  };
}
