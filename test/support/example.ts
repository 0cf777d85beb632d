import { type ChildProcess, spawn } from 'node:child_process';

/** Starts an example (by default examples/express-server, what `npm start` runs) on a free port; resolves its URL. */
export async function startExample(
  env: Record<string, string>,
  script = 'examples/express-server/src/main.ts',
): Promise<{ child: ChildProcess; url: string; output: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    env: { ...process.env, PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout?.setEncoding('utf8');
  child.stdout?.on('data', (chunk: string) => (out += chunk));
  const deadline = Date.now() + 30_000;
  // Every example ends its banner with a curl line to try; wait for the whole banner.
  while (!/listening on (\S+)[\s\S]*curl [^\n]*\n/.test(out)) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`example did not start:\n${out}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { child, url: (/listening on (\S+)/.exec(out) as RegExpExecArray)[1] as string, output: out };
}
