import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The repository root, where the image runs its command. */
export const root = fileURLToPath(new URL('../..', import.meta.url));
export const dockerfile = readFileSync(`${root}servers/leadroute/Dockerfile`, 'utf8');
/** The image's command line, read from its CMD, so tests run what the image runs. */
export const imageCommand = JSON.parse(
  (/^CMD (\[.*\])\s*$/m.exec(dockerfile) as RegExpExecArray)[1] as string,
) as string[];

/** A production server started as a child process. */
export interface ServerProcess {
  readonly child: ChildProcess;
  readonly url: string;
  /** Every JSON log line so far. */
  readonly logs: Record<string, unknown>[];
  readonly exited: Promise<number | null>;
}

/** Runs the image's command from the repository root with `env` added; resolves once it logs that it listens. */
export async function startServerProcess(
  env: Readonly<Record<string, string>>,
  running: ServerProcess[] = [],
): Promise<ServerProcess> {
  const [command, ...args] = imageCommand;
  const executable = command === 'node' ? process.execPath : (command as string);
  const child = spawn(executable, args, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: Record<string, unknown>[] = [];
  let rest = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8');
  child.stdout?.on('data', (chunk: string) => {
    const lines = (rest + chunk).split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) if (line.trim()) logs.push(JSON.parse(line) as Record<string, unknown>);
  });
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => (stderr += chunk));
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  const started: ServerProcess = { child, logs, exited, url: '' };
  running.push(started);
  const deadline = Date.now() + 60_000;
  for (;;) {
    const listening = logs.find((l) => l.msg === 'leadroute listening');
    if (listening) return { ...started, url: listening.url as string };
    if (Date.now() > deadline || child.exitCode !== null)
      throw new Error(`the server did not start:\n${JSON.stringify(logs, null, 1)}\n${stderr}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Kills what is still running and waits for every process to end. */
export async function stopAll(running: readonly ServerProcess[]): Promise<void> {
  for (const p of running) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
  await Promise.all(running.map((p) => p.exited));
}
