import type { DeliveryRequest, DeliveryResult, OutboundModule } from '../ports/integrations';
import type { Logger } from '../ports/logger';

/** A module that ignores its aborted signal is given this long to report before its answer is dropped. */
const TIMEOUT_GRACE_MS = 100;

/**
 * Calls an outbound module with a timeout enforced here, so a module that ignores its signal
 * still ends: what a recipient step and a forwarded feedback both deliver through. A module
 * that throws reports `error`.
 */
export async function deliverWithin(
  module: OutboundModule | undefined,
  moduleId: string,
  request: Omit<DeliveryRequest, 'signal'>,
  timeoutMs: number,
  log: { readonly logger: Logger; readonly context: Readonly<Record<string, unknown>> },
): Promise<DeliveryResult> {
  if (!module) return { outcome: 'error', reason: `No outbound module ${moduleId} is installed.` };
  const controller = new AbortController();
  const timedOut: DeliveryResult = { outcome: 'error', reason: `The recipient did not answer within ${timeoutMs} ms.` };
  let timer: NodeJS.Timeout | undefined;
  const delivery = Promise.resolve()
    .then(() => module.deliver({ ...request, signal: controller.signal }))
    .catch((e: unknown): DeliveryResult => {
      log.logger.warn({ ...log.context, module: module.id, err: e }, 'outbound module threw');
      return { outcome: 'error', reason: `The integration failed: ${(e as Error).message}` };
    });
  const expired = new Promise<DeliveryResult>((resolve) => {
    timer = setTimeout(() => {
      controller.abort();
      // A module that honours the signal reports its transaction at once; one that ignores it is not waited for.
      const grace = new Promise<DeliveryResult>((r) => setTimeout(() => r(timedOut), TIMEOUT_GRACE_MS));
      resolve(Promise.race([delivery.then((result) => ({ ...result, ...timedOut })), grace]));
    }, timeoutMs);
  });
  try {
    return await Promise.race([delivery, expired]);
  } finally {
    clearTimeout(timer);
  }
}

/** Whether a delivery failed before any answer came: a refused, reset or timed-out connection, worth retrying. */
export const noAnswer = (result: DeliveryResult): boolean =>
  result.outcome === 'error' && (result.transactions ?? []).every((t) => t.response === null);
