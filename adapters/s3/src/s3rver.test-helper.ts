import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

interface S3rverInstance {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
}
type S3rverClass = new (options: Record<string, unknown>) => S3rverInstance;
interface AccountModule {
  DUMMY_ACCOUNT: { createKeyPair(accessKeyId: string, secretAccessKey: string): void };
}

const require = createRequire(import.meta.url);
const S3rver = require('s3rver') as S3rverClass;
const accounts = require('s3rver/lib/models/account') as AccountModule;

/** A running s3rver: a real S3 HTTP server on a free loopback port, with its files in a temp dir. */
export interface S3rverHandle {
  readonly endpoint: string;
  readonly port: number;
  /** Stops the server; the objects stay on disk. */
  stop(): Promise<void>;
  /** Starts it again on the same port over the same files. */
  restart(): Promise<void>;
  /** Stops it and removes its files. */
  dispose(): Promise<void>;
}

/**
 * Starts s3rver. It does not check signatures but does reject unknown access keys
 * (`InvalidAccessKeyId`): only the keys given here (and s3rver's own `S3RVER`) exist.
 */
export async function startS3rver(options: {
  buckets: readonly string[];
  accessKeys: Readonly<Record<string, string>>;
}): Promise<S3rverHandle> {
  for (const [id, secret] of Object.entries(options.accessKeys)) accounts.DUMMY_ACCOUNT.createKeyPair(id, secret);
  const directory = mkdtempSync(join(tmpdir(), 'leadroute-s3rver-'));
  let running: S3rverInstance | undefined;
  const launch = async (port: number): Promise<number> => {
    const server = new S3rver({
      address: '127.0.0.1',
      port,
      silent: true,
      directory,
      vhostBuckets: false,
      configureBuckets: options.buckets.map((name) => ({ name })),
    });
    const address = await server.run();
    running = server;
    return address.port;
  };
  const port = await launch(0);
  const stop = async () => {
    const server = running;
    running = undefined;
    await server?.close();
  };
  return {
    endpoint: `http://127.0.0.1:${port}`,
    port,
    stop,
    restart: async () => {
      await stop();
      await launch(port);
    },
    dispose: async () => {
      await stop();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
