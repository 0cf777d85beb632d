import type pg from 'pg';

/** What {@link countCommits} has seen on a pool's connections. */
export interface CommitCount {
  /** Commits that wrote: a `COMMIT` after `BEGIN`, or a statement other than a plain `SELECT` outside one. */
  readonly commits: number;
  /**
   * Those of them that wait for their WAL to reach disk: all but the ones whose transaction turned
   * `synchronous_commit` off (`set_config('synchronous_commit', 'off', true)` in one of its statements).
   */
  readonly flushes: number;
  /** Every statement sent, transaction control included. */
  readonly statements: number;
  /** The write commits' statements, in order (for `COMMIT`, the transaction's first statement after `BEGIN`). */
  readonly log: readonly string[];
}

/** How a statement turns off waiting for the WAL flush for its transaction (stores/counters.ts). */
const ASYNCHRONOUS = "set_config('synchronous_commit', 'off', true)";

/** Where pg keeps a client's query method; replaced per client, so the prototype stays untouched. */
type Querying = { query: (...args: unknown[]) => unknown };

const textOf = (arg: unknown): string =>
  typeof arg === 'string'
    ? arg
    : typeof arg === 'object' && arg !== null && typeof (arg as { text?: unknown }).text === 'string'
      ? (arg as { text: string }).text
      : '';

/**
 * Counts the commits made through `pool` from now on, by watching every statement its
 * connections send (tests and benchmarks: how many times a lead waits for a commit).
 * A statement outside a transaction block commits by itself; a read-only `SELECT` is
 * not counted, since it writes nothing to flush. `flushes` leaves out the commits
 * made with `synchronous_commit` off. `counts()` reads the totals;
 * `reset()` starts again from zero.
 */
export function countCommits(pool: pg.Pool): { counts(): CommitCount; reset(): void } {
  let commits = 0;
  let flushes = 0;
  let statements = 0;
  let log: string[] = [];
  const watched = new WeakSet<object>();
  const watch = (client: pg.PoolClient) => {
    if (watched.has(client)) return;
    watched.add(client);
    const target = client as unknown as Querying;
    const original = target.query.bind(client);
    let inTransaction = false;
    let first = '';
    let asynchronous = false;
    target.query = (...args: unknown[]) => {
      const text = textOf(args[0]);
      // The first word only: statements can be long, and this runs on every one of them.
      const head = /^\s*(\w*)/.exec(text.slice(0, 40))?.[1]?.toUpperCase() ?? '';
      statements++;
      const async = text.includes(ASYNCHRONOUS);
      if (head === 'BEGIN') {
        inTransaction = true;
        first = '';
        asynchronous = false;
      } else if (head === 'COMMIT') {
        inTransaction = false;
        commits++;
        if (!asynchronous) flushes++;
        log.push(`COMMIT of ${first}`);
      } else if (head === 'ROLLBACK') {
        inTransaction = false;
      } else if (inTransaction) {
        first ||= text.slice(0, 200).replace(/\s+/g, ' ').trim().slice(0, 120);
        asynchronous ||= async;
      } else if (head !== 'SELECT') {
        commits++;
        if (!async) flushes++;
        log.push(text.slice(0, 200).replace(/\s+/g, ' ').trim().slice(0, 120));
      }
      return original(...args);
    };
  };
  pool.on('connect', watch);
  pool.on('acquire', watch);
  return {
    counts: () => ({ commits, flushes, statements, log: [...log] }),
    reset: () => {
      commits = 0;
      flushes = 0;
      statements = 0;
      log = [];
    },
  };
}
