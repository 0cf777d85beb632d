import type { DeliveryRequest, DeliveryResult, OutboundModule } from '../ports/integrations';

/** The module ID of {@link scriptedRecipient} unless given another. */
export const SCRIPTED_RECIPIENT_ID = 'platform-test.outbound.scripted';

/**
 * A recipient for unit tests: answers what the test scripts and remembers what it was sent.
 * Its `id` keeps its literal type, so a typed flow's step can name it (`module_id: buyer.id`).
 */
export interface ScriptedRecipient<Id extends string = string> extends OutboundModule {
  readonly id: Id;
  /** Every delivery request, in order. */
  readonly received: DeliveryRequest[];
  /** Answer every later delivery with this result (or by calling this function). */
  respondWith(result: DeliveryResult | ((request: DeliveryRequest) => DeliveryResult | Promise<DeliveryResult>)): void;
  /** Answer the next deliveries with these results, in order, before falling back to `respondWith`. */
  queue(...results: DeliveryResult[]): void;
}

/**
 * An in-memory outbound module for tests of flows.
 * @param id the module ID steps name in `module_id`. @default 'platform-test.outbound.scripted'
 * @example
 * const buyer = scriptedRecipient();
 * buyer.respondWith({ outcome: 'success', price: 12, reference: 'B-1' });
 */
export function scriptedRecipient<const Id extends string = typeof SCRIPTED_RECIPIENT_ID>(
  id: Id = SCRIPTED_RECIPIENT_ID as Id,
): ScriptedRecipient<Id> {
  const received: DeliveryRequest[] = [];
  const queued: DeliveryResult[] = [];
  let fallback: DeliveryResult | ((request: DeliveryRequest) => DeliveryResult | Promise<DeliveryResult>) = {
    outcome: 'success',
  };
  return {
    id,
    package_version: '1.0.0',
    received,
    respondWith(result) {
      fallback = result;
    },
    queue(...results) {
      queued.push(...results);
    },
    async deliver(request) {
      received.push(request);
      const next = queued.shift();
      if (next) return next;
      return typeof fallback === 'function' ? fallback(request) : fallback;
    },
  };
}
