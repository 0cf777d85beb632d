import { type ExportRunDeps, runExportJob } from './run';
import { EXPORT_JOB } from './settings';

/** Runs export jobs: on demand, and in the background once started. */
export interface ExportWorker {
  /**
   * Claims and runs every export job that is due and free (including ones whose
   * worker stopped and let its lease run out), one after another; answers how many
   * it settled. Calls made while a pass runs wait for it and then run their own.
   */
  runPending(): Promise<number>;
  /** Starts background passes every `pollMs`; the timers never keep the process alive. */
  start(): void;
  /**
   * Stops background passes; resolves when the pass under way (if any) has ended.
   * An export it is running stops at its next page and is released for the next
   * worker (it starts again from the beginning), so stopping takes one page, not a whole export.
   */
  stop(): Promise<void>;
  /** Asks for a pass soon (a new export was queued); does nothing unless started. */
  kick(): void;
  readonly started: boolean;
}

export function createExportWorker(deps: ExportRunDeps, pollMs: number): ExportWorker {
  const { storage, clock, logger, settings } = deps;
  let chain: Promise<unknown> = Promise.resolve();
  let timer: ReturnType<typeof setInterval> | undefined;
  let stopping = false;
  let queued = false;
  let again = false;
  let abort = new AbortController();
  // Immediate passes asked for by start() and kick(): cleared by stop(), so a stopped worker leaves no timer behind.
  const soon = new Set<ReturnType<typeof setTimeout>>();
  const passSoon = () => {
    const t = setTimeout(() => {
      soon.delete(t);
      background();
    }, 0);
    t.unref();
    soon.add(t);
  };

  const pass = async (background: boolean): Promise<number> => {
    // Only background passes belong to start()/stop(); runPending() callers wait for their jobs to end.
    const jobDeps: ExportRunDeps = background ? { ...deps, signal: abort.signal } : deps;
    let settled = 0;
    for (;;) {
      const claimed = await storage.jobs.claim(EXPORT_JOB, clock.now(), settings.leaseMs);
      if (claimed.isErr()) {
        logger.error({ err: claimed.error.message }, 'export worker could not claim jobs');
        return settled;
      }
      if (!claimed.value) return settled;
      try {
        if ((await runExportJob(jobDeps, claimed.value)) === 'settled') settled++;
      } catch (e) {
        // A bug in a job must not stop the worker; the lease runs out and the attempt counts.
        logger.error({ err: e, exportId: claimed.value.id }, 'export job threw');
      }
      if (background && stopping) return settled;
    }
  };

  const enqueuePass = (background: boolean): Promise<number> => {
    const run = () => pass(background);
    const next = chain.then(run, run);
    chain = next.catch(() => undefined);
    return next;
  };
  const runPending = () => enqueuePass(false);

  // One background pass at a time; a request during one runs another right after it,
  // so an export queued as a pass ends is not left for the next poll.
  const background = () => {
    if (stopping) return;
    if (queued) {
      again = true;
      return;
    }
    queued = true;
    void enqueuePass(true)
      // A pass that throws (a storage adapter's bug) must not escape as an unhandled rejection, which ends a Node
      // process: it is logged, and the next poll tries again.
      .catch((e: unknown) => logger.error({ err: e }, 'export worker pass threw'))
      .finally(() => {
        queued = false;
        if (again) {
          again = false;
          background();
        }
      });
  };

  return {
    runPending,
    get started() {
      return timer !== undefined;
    },
    start() {
      if (timer) return;
      stopping = false;
      abort = new AbortController();
      timer = setInterval(background, pollMs);
      timer.unref();
      passSoon();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      for (const t of soon) clearTimeout(t);
      soon.clear();
      stopping = true;
      abort.abort();
      await chain;
    },
    kick() {
      if (!timer) return;
      passSoon();
    },
  };
}
