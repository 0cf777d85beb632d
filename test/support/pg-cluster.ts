import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A throwaway PostgreSQL cluster of this test's own, which it may stop and start at will. */
export interface PgCluster {
  readonly url: string;
  /** `pg_ctl stop`: `fast` ends sessions with 57P01 and checkpoints; `immediate` (the default) is a crash. */
  stop(mode?: 'fast' | 'immediate'): void;
  start(): void;
  /** SIGSTOP to this cluster's postmaster and every process it forked: the server is there but answers nothing. */
  freeze(): void;
  /** SIGCONT to the processes {@link freeze} stopped. */
  thaw(): void;
  destroy(): void;
}

function binDir(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const version = readdirSync(root).sort().at(-1);
  return version ? join(root, version, 'bin') : undefined;
}

/** Whether PostgreSQL's server binaries are installed (scripts/services.sh installs them). */
export const hasPostgresBinaries = (): boolean => existsSync(join(binDir() ?? '/nonexistent', 'initdb'));

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  await new Promise((r) => server.close(r));
  return port;
}

/** Creates and starts a cluster in a temporary directory, as the postgres user when running as root. */
export async function createPgCluster(): Promise<PgCluster> {
  const bin = binDir() as string;
  const dir = mkdtempSync(join(tmpdir(), 'leadroute-pg-'));
  chmodSync(dir, 0o777);
  const data = join(dir, 'data');
  const port = await freePort();
  const asPostgres = (cmd: string, args: string[]) => {
    const root = process.getuid?.() === 0;
    execFileSync(root ? 'runuser' : join(bin, cmd), root ? ['-u', 'postgres', '--', join(bin, cmd), ...args] : args, {
      stdio: 'ignore',
      cwd: dir,
    });
  };
  asPostgres('initdb', ['-D', data, '-A', 'trust', '-U', 'leadroute', '--no-sync']);
  const start = () =>
    asPostgres('pg_ctl', [
      '-D',
      data,
      '-l',
      join(dir, 'log'),
      '-w',
      '-o',
      `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`,
      'start',
    ]);
  start();
  // This cluster's processes only: the postmaster named in its own data directory, and its children.
  const processes = (): number[] => {
    const postmaster = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
    let children: number[] = [];
    try {
      children = execFileSync('pgrep', ['-P', String(postmaster)], { encoding: 'utf8' })
        .split('\n')
        .filter(Boolean)
        .map(Number);
    } catch {
      // pgrep exits 1 when there are none
    }
    return [postmaster, ...children];
  };
  let frozen: number[] = [];
  return {
    url: `postgres://leadroute@127.0.0.1:${port}/postgres`,
    stop: (mode = 'immediate') => asPostgres('pg_ctl', ['-D', data, '-w', '-m', mode, 'stop']),
    start,
    freeze: () => {
      // The postmaster first, so it forks no child the list would miss.
      frozen = processes();
      for (const pid of frozen) process.kill(pid, 'SIGSTOP');
      const late = processes().filter((pid) => !frozen.includes(pid));
      for (const pid of late) process.kill(pid, 'SIGSTOP');
      frozen.push(...late);
    },
    thaw: () => {
      for (const pid of frozen) {
        try {
          process.kill(pid, 'SIGCONT');
        } catch {
          // gone meanwhile
        }
      }
      frozen = [];
    },
    destroy: () => {
      for (const pid of frozen) process.kill(pid, 'SIGCONT');
      try {
        asPostgres('pg_ctl', ['-D', data, '-w', '-m', 'immediate', 'stop']);
      } catch {
        // already stopped
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
