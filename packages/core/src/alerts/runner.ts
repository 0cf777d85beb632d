import type { ResultAsync } from 'neverthrow';
import type { LeadrouteError } from '../errors';
import type { Clock } from '../ports/clock';
import type { Logger } from '../ports/logger';
import type { DetectReport } from './detect';

/** Options of {@link startRunner}. */
export interface RunnerOptions {
  /** Time between the end of one pass and the start of the next. @default 60000 */
  readonly intervalMs?: number;
  /** Called after each pass with its report (or error). */
  readonly onPass?: (result: { report?: DetectReport; error?: LeadrouteError }) => void;
}

/** A running detector loop. */
export interface AlertRunner {
  /** Stops the loop; resolves once a pass in progress has finished. */
  stop(): Promise<void>;
}

/**
 * Runs a detector pass now and then every `intervalMs` after the previous one
 * ends, so passes never overlap within a process (leases keep processes apart).
 */
export function startRunner(
  deps: { clock: Clock; logger: Logger; detect: (now: number) => ResultAsync<DetectReport, LeadrouteError> },
  options: RunnerOptions = {},
): AlertRunner {
  const interval = options.intervalMs ?? 60_000;
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let current: Promise<void> = Promise.resolve();
  const pass = (): void => {
    current = (async () => {
      const result = await deps.detect(deps.clock.now());
      if (result.isErr()) deps.logger.error({ err: result.error }, 'alert detector pass failed');
      options.onPass?.(result.isOk() ? { report: result.value } : { error: result.error });
    })().catch((e: unknown) => {
      // A pass that throws (a storage adapter's bug, a throwing onPass) must not escape as an unhandled rejection,
      // which ends a Node process: it is logged, and the next pass runs as planned.
      deps.logger.error({ err: e }, 'alert detector pass threw');
    });
    void current.finally(() => {
      if (stopped) return;
      timer = setTimeout(pass, interval);
      // A detector timer is no reason for the process to stay up; the host's server is.
      timer.unref?.();
    });
  };
  pass();
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await current;
    },
  };
}
