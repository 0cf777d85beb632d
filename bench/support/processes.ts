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

/** Runs one autocannon round in a child process while this process serves it. */
export function load(options: autocannon.Options): Promise<Measured> {
  return new Promise((resolve, reject) => {
    const cpuStart = cpuMs();
    const child = spawn(process.execPath, [...process.execArgv, here('./load-worker.ts'), JSON.stringify(options)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      const cpu = cpuMs() - cpuStart;
      if (code !== 0) return reject(new Error(`[bench] load generator exited with ${code}`));
      const result = JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as LoadResult;
      if (result.non2xx > 0 || result.errors > 0) return reject(new Error(`[bench] ${options.url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`));
      resolve({ ...result, cpuMsPerRequest: result.total > 0 ? cpu / result.total : Number.NaN });
    });
  });
}

/** Starts the recipient server in a child process; resolves its URL and a stop function. */
export function startRecipient(): Promise<{ url: string; stop: () => void }> {
  return new Promise((resolve, reject) => {
    const child: ChildProcess = spawn(process.execPath, [...process.execArgv, here('./recipient-worker.ts')], { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
    child.on('error', reject);
    child.stdout?.once('data', (chunk: Buffer) => {
      const port = Number(chunk.toString('utf8').trim());
      resolve({ url: `http://127.0.0.1:${port}/leads`, stop: () => child.kill() });
    });
  });
}
