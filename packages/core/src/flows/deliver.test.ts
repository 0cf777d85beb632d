import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DeliveryRequest, DeliveryResult, OutboundModule } from '../ports/integrations';
import { silentLogger } from '../ports/logger';
import { deliverWithin } from './deliver';

const request = { lead: { first_name: 'Ada' }, config: {}, lead_id: 'L', event_id: 'E', price: 3 };
const log = { logger: silentLogger, context: {} };
const moduleOf = (deliver: (r: DeliveryRequest) => Promise<DeliveryResult> | DeliveryResult): OutboundModule =>
  ({ id: 'platform-test.outbound.t', deliver }) as unknown as OutboundModule;

describe('deliverWithin', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('hands the module the request with a signal, and answers what the module answers', async () => {
    let seen: DeliveryRequest | undefined;
    const result = await deliverWithin(
      moduleOf((r) => {
        seen = { ...r };
        return { outcome: 'success', price: 4 };
      }),
      'm',
      request,
      1000,
      log,
    );
    expect(result).toEqual({ outcome: 'success', price: 4 });
    // Spread like any other property: the signal is part of what a module copies.
    expect(seen).toMatchObject({ ...request, signal: expect.any(AbortSignal) });
    expect(seen?.signal.aborted).toBe(false);
  });

  it('answers a copy of what the module answered, which the module cannot change afterwards (#22)', async () => {
    const answer = { outcome: 'success' as const, appended: { score: { value: 7 } } };
    const result = await deliverWithin(
      moduleOf(() => answer),
      'm',
      request,
      1000,
      log,
    );
    answer.appended.score.value = 0;
    expect(result).toEqual({ outcome: 'success', appended: { score: { value: 7 } } });
  });

  it('reports error for an answer that is not plain data, and does not hang', async () => {
    class Odd {
      readonly f = () => 1;
    }
    const result = await deliverWithin(
      moduleOf(() => ({ outcome: 'success', appended: { odd: new Odd() } }) as unknown as DeliveryResult),
      'm',
      request,
      1000,
      log,
    );
    expect(result.outcome).toBe('error');
  });

  it('makes no AbortController for a module that never reads its signal (#22: 3 KB per delivery)', async () => {
    let made = 0;
    vi.stubGlobal(
      'AbortController',
      class extends AbortController {
        constructor() {
          super();
          made++;
        }
      },
    );
    await deliverWithin(
      moduleOf(() => ({ outcome: 'success' })),
      'm',
      request,
      1000,
      log,
    );
    expect(made).toBe(0);
    await deliverWithin(
      moduleOf((r) => ({ outcome: r.signal.aborted ? 'error' : 'success' })),
      'm',
      request,
      1000,
      log,
    );
    expect(made).toBe(1);
  });

  it('aborts the signal at the timeout, and what a module that honours it reports stands', async () => {
    const result = await deliverWithin(
      moduleOf(
        (r) =>
          new Promise((resolve) =>
            r.signal.addEventListener('abort', () =>
              resolve({ outcome: 'failure', reason: 'aborted', transactions: [{ note: 'sent' }] as never }),
            ),
          ),
      ),
      'm',
      request,
      20,
      log,
    );
    expect(result).toEqual({ outcome: 'failure', reason: 'aborted', transactions: [{ note: 'sent' }] });
  });

  it('hands a module that reads its signal only after the timeout an aborted one, and takes its answer within the grace', async () => {
    let late: AbortSignal | undefined;
    const result = await deliverWithin(
      moduleOf(
        (r) =>
          new Promise((resolve) =>
            setTimeout(() => {
              late = r.signal;
              resolve({ outcome: 'success' });
            }, 40),
          ),
      ),
      'm',
      request,
      20,
      log,
    );
    expect(late?.aborted).toBe(true);
    expect(result).toEqual({ outcome: 'success' });
  });

  it('does not wait for a module that ignores its signal beyond a short grace', async () => {
    const started = performance.now();
    const result = await deliverWithin(
      moduleOf(() => new Promise(() => undefined)),
      'm',
      request,
      20,
      log,
    );
    expect(result).toEqual({ outcome: 'error', reason: 'The recipient did not answer within 20 ms.' });
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('reports a module that throws, at once or later, as an error', async () => {
    const warned: unknown[] = [];
    const logging = { logger: { ...silentLogger, warn: (o: unknown) => void warned.push(o) }, context: { step: 'S' } };
    for (const deliver of [
      () => {
        throw new Error('boom');
      },
      async () => {
        throw new Error('boom');
      },
    ])
      expect(await deliverWithin(moduleOf(deliver), 'm', request, 1000, logging)).toEqual({
        outcome: 'error',
        reason: 'The integration failed: boom',
      });
    expect(warned).toHaveLength(2);
    expect(warned[0]).toMatchObject({ step: 'S', module: 'platform-test.outbound.t' });
  });

  it('reports a module that rejects with no error, or with something else than an Error, as an error at once', async () => {
    // `reject()` with no reason, a thrown string or null: a reason with no message must not throw in the handler,
    // which left the delivery (and the source's request) waiting until its timeout, and the rejection unhandled.
    for (const reason of [undefined, null, 'refused', { code: 42 }, Object.create(null)]) {
      const started = performance.now();
      const result = await deliverWithin(
        moduleOf(() => Promise.reject(reason)),
        'm',
        request,
        5_000,
        log,
      );
      expect(result.outcome).toBe('error');
      expect(result.reason).toMatch(/^The integration failed/);
      expect(performance.now() - started).toBeLessThan(1_000);
    }
  });

  it('answers an error naming a module that is not installed', async () => {
    expect(await deliverWithin(undefined, 'platform-x.outbound.y', request, 1000, log)).toEqual({
      outcome: 'error',
      reason: 'No outbound module platform-x.outbound.y is installed.',
    });
  });
});
