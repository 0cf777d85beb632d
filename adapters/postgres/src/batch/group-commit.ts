import type { StoreError } from '@leadroute/core';
import { err, ok, type Result, ResultAsync } from 'neverthrow';
import pg, { type Pool, type PoolClient, type QueryConfig, type QueryResult } from 'pg';
import { isUnavailable, toStoreError } from '../query';
import { type Plan, type Statement, WRITE_ALONE, type WriteKind, type Writer } from './writer';

/**
 * The next turn of the event loop, taken when this module loads: a host's fake timers
 * (installed later, in its tests) must not hold back writes and reads to a real database.
 */
const nextTurn = setImmediate;

/** Options of {@link groupCommit}. */
export interface GroupCommitOptions {
  /**
   * The most writes sent in one batch; the rest wait for the next.
   * @default 500
   */
  readonly maxBatch?: number;
}

interface Pending {
  readonly kind: WriteKind<unknown, unknown>;
  readonly input: unknown;
  readonly settle: (result: Result<unknown, StoreError>) => void;
}

type Outcome = { ok: true; results: QueryResult[] } | { ok: false; error: unknown; retryable: boolean };

/**
 * SQLSTATE classes after which the connection, and so whether a commit landed, is in
 * doubt: connection exceptions, operator intervention (shutdown, crash), system and
 * internal errors. Any other server error means the statement, and its transaction,
 * was refused whole.
 */
const IN_DOUBT = new Set(['08', '57', '58', 'XX']);

const refusedWhole = (error: unknown): boolean =>
  error instanceof pg.DatabaseError && !IN_DOUBT.has((error.code ?? 'XX').slice(0, 2));

/** The name each prepared statement text goes by on every connection (see {@link Statement.prepared}). */
const names = new Map<string, string>();

/**
 * A statement as `pg` sends it: a {@link Statement.prepared} one by name, so a connection parses and plans its text
 * once and afterwards sends only the parameters (pg keeps, per connection, which names it has prepared).
 */
function send(client: PoolClient, statement: Statement): Promise<QueryResult> {
  const values = statement.values as unknown[];
  if (!statement.prepared) return client.query(statement.text, values);
  let name = names.get(statement.text);
  if (name === undefined) names.set(statement.text, (name = `leadroute_${names.size + 1}`));
  return client.query({ name, text: statement.text, values } satisfies QueryConfig);
}

/**
 * Sends statements on one connection: alone when there is one (it commits by itself),
 * else in one transaction. `retryable` is false only when the commit may have landed
 * although no answer came back, where writing again could write twice.
 */
async function execute(pool: Pool, statements: readonly Statement[]): Promise<Outcome> {
  let client: PoolClient;
  try {
    client = await pool.connect();
  } catch (error) {
    return { ok: false, error, retryable: true };
  }
  const transaction = statements.length > 1;
  let committing = false;
  try {
    if (transaction) await client.query('BEGIN');
    const results: QueryResult[] = [];
    for (const statement of statements) {
      committing = !transaction;
      results.push(await send(client, statement));
    }
    committing = true;
    if (transaction) await client.query('COMMIT');
    client.release();
    return { ok: true, results };
  } catch (error) {
    const refused = refusedWhole(error);
    if (!refused) client.release(error instanceof Error ? error : true);
    else if (transaction && !committing)
      await client.query('ROLLBACK').then(
        () => client.release(),
        (e: Error) => client.release(e),
      );
    else client.release();
    return { ok: false, error, retryable: refused || !committing };
  }
}

/**
 * Group commit: a writer that sends the writes of one kind arriving while a batch of
 * that kind is being committed together, as the next batch. A batch is the kind's
 * statement for all its writes (a multi-row INSERT, an upsert over unnested arrays)
 * and one commit, so concurrent callers share round trips and the WAL flush instead
 * of paying one each. Each kind has its own queue: a cap's claim, which a lead waits
 * for before its delivery, never waits behind a batch of committing leads, and a
 * batch of one statement needs no BEGIN and COMMIT of its own (a statement alone
 * commits by itself). Every caller's result comes when its batch has committed. When a batch
 * is refused (a duplicate key, a bad value in one row), its writes are made again
 * one by one, so a bad write fails only its own caller; when a connection breaks
 * while committing, each caller gets the error, as it would have alone.
 */
export function groupCommit(pool: Pool, options: GroupCommitOptions = {}): Writer {
  const maxBatch = Math.max(1, options.maxBatch ?? 500);

  const fail = (items: readonly Pending[], error: unknown) => {
    for (const item of items) item.settle(err(toStoreError(item.kind.what, error)));
  };

  async function run(batch: readonly Pending[]): Promise<void> {
    // One plan per kind (a lane's batch holds one kind; kinds in name order should several ever share a batch).
    const byKind = new Map<string, Pending[]>();
    for (const item of batch) {
      const items = byKind.get(item.kind.what);
      if (items) items.push(item);
      else byKind.set(item.kind.what, [item]);
    }
    const groups = [...byKind.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, items]) => items);
    let plans: { items: Pending[]; plan: Plan<unknown> }[];
    try {
      plans = groups.map((items) => ({
        items,
        plan: (items[0] as Pending).kind.plan(items.map((item) => item.input)),
      }));
    } catch (error) {
      // A write that cannot even be turned into SQL (a value JSON refuses): find whose, one by one.
      if (batch.length === 1) return fail(batch, error);
      for (const item of batch) await run([item]);
      return;
    }
    const outcome = await execute(
      pool,
      plans.flatMap(({ plan }) => plan.statements),
    );
    if (outcome.ok) {
      let at = 0;
      const alone: Pending[] = [];
      for (const { items, plan } of plans) {
        const results = outcome.results.slice(at, (at += plan.statements.length));
        const answers = plan.answers(results);
        items.forEach((item, i) => {
          const answer = answers[i];
          if (answer !== WRITE_ALONE) item.settle(ok(answer));
          else if (batch.length > 1) alone.push(item);
          else fail([item], new Error('[leadroute] [postgres] a plan of one write left it unwritten.'));
        });
      }
      for (const item of alone) await run([item]);
    } else if (batch.length === 1 || !outcome.retryable || isUnavailable(outcome.error)) {
      // A database that is down or frozen fails each write alone too, one timeout after another: answer all now.
      fail(batch, outcome.error);
    } else {
      for (const item of batch) await run([item]);
    }
  }

  /** One queue per kind of write, each with at most one batch in flight. */
  const lanes = new Map<string, { queue: Pending[]; busy: boolean }>();
  const next = (lane: { queue: Pending[]; busy: boolean }) => {
    if (lane.busy || lane.queue.length === 0) return;
    lane.busy = true;
    // After this turn's callbacks, so the writes of callers resumed together go out together.
    nextTurn(() => {
      const batch = lane.queue.splice(0, maxBatch);
      run(batch)
        .catch((error: unknown) => fail(batch, error))
        .finally(() => {
          lane.busy = false;
          next(lane);
        });
    });
  };

  return {
    write: <In, Out>(kind: WriteKind<In, Out>, input: In) =>
      new ResultAsync<Out, StoreError>(
        new Promise((settle) => {
          let lane = lanes.get(kind.what);
          if (!lane) lanes.set(kind.what, (lane = { queue: [], busy: false }));
          lane.queue.push({ kind: kind as WriteKind<unknown, unknown>, input, settle: settle as Pending['settle'] });
          next(lane);
        }),
      ),
  };
}
