import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type autocannon from 'autocannon';

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));

/** What one load round measured, from the load generator's side. */
export interface LoadResult {
  readonly rps: number;
  readonly total: number;
  readonly p50: number;
  readonly p99: number;
  readonly non2xx: number;
  readonly errors: number;
  readonly timeouts: number;
}

/** A load round and the CPU this (the server's) process spent during it. */
export interface Measured extends LoadResult {
  /** Server CPU (user + system) per completed request, in ms. */
  readonly cpuMsPerRequest: number;
}

function cpuMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

/** Runs `worker` with one JSON argument in a child process while this process serves it. */
function inChild(worker: string, url: string, options: object): Promise<Measured> {
  return new Promise((resolve, reject) => {
    const cpuStart = cpuMs();
    const child = spawn(process.execPath, [...process.execArgv, here(worker), JSON.stringify(options)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      const cpu = cpuMs() - cpuStart;
      if (code !== 0) return reject(new Error(`[bench] load generator exited with ${code}`));
      const result = JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as LoadResult;
      if (result.non2xx > 0 || result.errors > 0)
        return reject(new Error(`[bench] ${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`));
      resolve({ ...result, cpuMsPerRequest: result.total > 0 ? cpu / result.total : Number.NaN });
    });
  });
}

/** One autocannon round (as many requests as `connections` keep in flight), in a child process. */
export const load = (options: autocannon.Options): Promise<Measured> =>
  inChild('./load-worker.ts', options.url, options);

/** POSTs `body` at a fixed `rate` per second for `duration` seconds, open loop (rate-worker.ts), in a child process. */
export const loadAtRate = (options: { url: string; body: string; rate: number; duration: number }): Promise<Measured> =>
  inChild('./rate-worker.ts', options.url, options);

/** Starts the recipient server in a child process; resolves its URL and a stop function. */
export function startRecipient(): Promise<{ url: string; stop: () => void }> {
  return new Promise((resolve, reject) => {
    const child: ChildProcess = spawn(process.execPath, [...process.execArgv, here('./recipient-worker.ts')], {
      stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
    });
    child.on('error', reject);
    child.stdout?.once('data', (chunk: Buffer) => {
      const port = Number(chunk.toString('utf8').trim());
      resolve({ url: `http://127.0.0.1:${port}/leads`, stop: () => child.kill() });
    });
  });
}
