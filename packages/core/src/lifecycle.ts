import type { ResultAsync } from 'neverthrow';
import type { AlertRunner } from './alerts/runner';
import type { FirehoseRunnerOptions } from './firehose/service';
import type { Clock } from './ports/clock';
import type { Logger } from './ports/logger';
import { isoTime } from './time';

/** One more purge run with the retention purge, e.g. `purgeCounters` of `@leadroute/postgres`. */
export interface RetentionTask {
  /** Names the task in logs. @example 'counters' */
  readonly name: string;
  /** Deletes what expired before `before` (ISO 8601); answers how many records went. */
  run(before: string): ResultAsync<number, { readonly message: string }>;
}

/** Options of the retention purge job. */
export interface RetentionJobOptions {
  /**
   * Pause between purges (the first runs at start). It also sets the lease: the purge runs
   * once per interval across every process sharing the storage, by whichever holds the
   * `retention` lease (two intervals long, renewed by each pass), and a holder that stops
   * is replaced within two intervals.
   * @default 3600000 (an hour)
   */
  readonly intervalMs?: number;
  /** Purges of stores outside the storage ports, run after events, leads and search entries. @default [] */
  readonly also?: readonly RetentionTask[];
}

/**
 * Options of `service.start()`. Every job runs unless set to `false`; their timers
 * never keep the process alive (the host's server does).
 */
export interface ServiceStartOptions {
  /**
   * The export worker (it polls every `exports.worker.pollMs` of `createLeadService`).
   * @default true, or false when the service was created with `exports: { worker: false }`
   */
  readonly exports?: boolean;
  /** The alert detector: a pass at start, then one `intervalMs` after each ends. @default { intervalMs: 60000 } */
  readonly alerts?: false | { readonly intervalMs?: number };
  /**
   * The 90-day retention purge of events, leads and search entries, and expired idempotency keys. @default {
   * intervalMs: 3600000 }
   */
  readonly retention?: false | RetentionJobOptions;
  /** Retries of spooled firehose deliveries and the purge of delivered spool items. @default { intervalMs: 5000 } */
  readonly firehose?: false | FirehoseRunnerOptions;
}

/** A background job as the lifecycle sees it: stopping resolves when its work under way has ended. */
export interface StoppableJob {
  readonly name: string;
  stop(): Promise<void>;
}

/**
 * Runs `pass` now and then `intervalMs` after each pass ends, so passes never overlap;
 * a pass that throws is logged and the loop goes on.
 */
export function startPeriodic(
  name: string,
  intervalMs: number,
  logger: Logger,
  pass: () => Promise<void>,
): StoppableJob {
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let current: Promise<void> = Promise.resolve();
  const run = (): void => {
    current = pass().catch((e: unknown) => logger.error({ err: e, job: name }, 'background job pass threw'));
    void current.finally(() => {
      if (stopped) return;
      timer = setTimeout(run, intervalMs);
      timer.unref?.();
    });
  };
  run();
  return {
    name,
    async stop() {
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
      await current;
    },
  };
}

/** The named lease the retention purge runs under (in the store's lease table, beside the alert detector's). */
export const RETENTION_LEASE = 'retention';

/**
 * The retention purge: expired events, leads and search entries, then the extra tasks.
 * Several processes on one storage purge once per interval between them: a pass runs
 * only while its process holds the `retention` lease (taken for two intervals and
 * renewed when the pass ends, so the holder keeps it while it lives); the others skip
 * their pass. A holder that crashes stops renewing, and the first pass after its lease
 * ran out takes over. Every purge deletes only what expired, so a pass that overlaps
 * another (a pass longer than the interval) deletes nothing twice.
 */
export function startRetention(
  deps: {
    clock: Clock;
    logger: Logger;
    purgeExpired: () => ResultAsync<
      { events: number; leads: number; searchEntries: number },
      { readonly message: string }
    >;
    /** Takes or renews the named lease for this process until `until` (ms); false while another holds it. */
    tryLease?: (name: string, now: number, until: number) => ResultAsync<boolean, { readonly message: string }>;
  },
  options: RetentionJobOptions,
): StoppableJob {
  const { clock, logger } = deps;
  const intervalMs = options.intervalMs ?? 3_600_000;
  const lease = (): Promise<boolean> => {
    if (!deps.tryLease) return Promise.resolve(true);
    const now = clock.now();
    // Two intervals: the holder's next pass (one interval after this one ends) finds the lease still its own.
    return deps.tryLease(RETENTION_LEASE, now, now + 2 * intervalMs).match(
      (taken) => taken,
      (e) => {
        // Storage down: the purge would fail too; the next pass tries again.
        logger.warn({ err: e.message }, 'retention purge skipped: its lease could not be taken');
        return false;
      },
    );
  };
  return startPeriodic('retention', intervalMs, logger, async () => {
    if (!(await lease())) {
      logger.debug({ lease: RETENTION_LEASE }, 'retention purge skipped: another process holds its lease');
      return;
    }
    const purged = await deps.purgeExpired();
    if (purged.isErr()) logger.error({ err: purged.error.message }, 'retention purge failed');
    else if (purged.value.events + purged.value.leads + purged.value.searchEntries > 0)
      logger.info(purged.value, 'retention purge');
    for (const task of options.also ?? []) {
      const done = await task.run(isoTime(clock.now()));
      if (done.isErr()) logger.error({ err: done.error.message, task: task.name }, 'retention purge failed');
      else if (done.value > 0) logger.info({ task: task.name, purged: done.value }, 'retention purge');
    }
    // Renewed from the end of the pass: the holder's next pass (one interval from now) finds it its own.
    await lease();
  });
}

/** Adapts the alert runner to the lifecycle. */
export const alertJob = (runner: AlertRunner): StoppableJob => ({ name: 'alerts', stop: () => runner.stop() });
