import type { DeliveryRequest, DeliveryResult, OutboundModule } from '../ports/integrations';
import type { Logger } from '../ports/logger';
import { copyData } from '../data-copy';
import { reasonText } from '../errors';

/** A module that ignores its aborted signal is given this long to report before its answer is dropped. */
const TIMEOUT_GRACE_MS = 100;

/**
 * Calls an outbound module with a timeout enforced here, so a module that ignores its signal
 * still ends: what a recipient step and a forwarded feedback both deliver through. A module
 * that throws reports `error`.
 *
 * The request's `signal` is made when the module first reads it (an in-process module that
 * answers at once never does), and one read after the timeout is already aborted. One timer
 * and one promise per delivery: an AbortController, a timer and four promises raced for every
 * delivery were 3 KB allocated per delivery, a lead's largest share after its events (#22).
 */
export function deliverWithin(
  module: OutboundModule | undefined,
  moduleId: string,
  request: Omit<DeliveryRequest, 'signal'>,
  timeoutMs: number,
  log: { readonly logger: Logger; readonly context: Readonly<Record<string, unknown>> },
): Promise<DeliveryResult> {
  if (!module) return Promise.resolve({ outcome: 'error', reason: `No outbound module ${moduleId} is installed.` });
  let controller: AbortController | undefined;
  let expired = false;
  const signal = (): AbortSignal => {
    if (!controller) {
      controller = new AbortController();
      if (expired) controller.abort();
    }
    return controller.signal;
  };
  const call = Object.defineProperty({ ...request } as DeliveryRequest, 'signal', { get: signal, enumerable: true });
  // A promise settles once: whichever of the module's answer and the grace's end comes first is the answer.
  return new Promise<DeliveryResult>((resolve) => {
    let grace: NodeJS.Timeout | undefined;
    const timer = setTimeout(() => {
      expired = true;
      controller?.abort();
      // A module that honours the signal reports its transaction at once, and its answer stands; one that ignores it
      // is not waited for.
      grace = setTimeout(
        () => resolve({ outcome: 'error', reason: `The recipient did not answer within ${timeoutMs} ms.` }),
        TIMEOUT_GRACE_MS,
      );
    }, timeoutMs);
    const settle = (result: DeliveryResult) => {
      clearTimeout(timer);
      clearTimeout(grace);
      resolve(result);
    };
    const failed = (e: unknown) => {
      log.logger.warn({ ...log.context, module: module.id, err: e }, 'outbound module threw');
      settle({ outcome: 'error', reason: `The integration failed: ${reasonText(e)}` });
    };
    Promise.resolve()
      .then(() => module.deliver(call))
      .then((result) => {
        // The answer is recorded: a copy, which the module cannot change afterwards (see LeadWrites).
        let own: DeliveryResult;
        try {
          own = copyData(result);
        } catch (e) {
          return failed(e);
        }
        settle(own);
      }, failed);
  });
}

/** Whether a delivery failed before any answer came: a refused, reset or timed-out connection, worth retrying. */
export const noAnswer = (result: DeliveryResult): boolean =>
  result.outcome === 'error' && (result.transactions ?? []).every((t) => t.response === null);
