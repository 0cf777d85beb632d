import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import type { DeliveryRequest } from '../ports/integrations';
import { httpModule, RETRY_PAUSE_CAP_MS, RETRY_PAUSE_MS, recordedUrl, retryPause } from './custom-http';

// Retry pauses: doubling, capped, and never outliving the step's timeout; recorded URLs without secrets.
describe('custom HTTP deliveries', () => {
  let closed: Server;
  let refusedUrl: string;
  beforeAll(async () => {
    // A port that refuses: listened on, then closed.
    closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    refusedUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/leads`;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
  });

  it('doubles the pause between retries up to a cap', () => {
    expect([0, 1, 2, 3, 4, 10].map(retryPause)).toEqual([
      RETRY_PAUSE_MS,
      RETRY_PAUSE_MS * 2,
      RETRY_PAUSE_MS * 4,
      RETRY_PAUSE_MS * 8,
      RETRY_PAUSE_CAP_MS,
      RETRY_PAUSE_CAP_MS,
    ]);
    expect(RETRY_PAUSE_MS * 16).toBeGreaterThan(RETRY_PAUSE_CAP_MS);
  });

  it('stops retrying when the step times out during a pause', async () => {
    const request: DeliveryRequest = {
      lead: { n: 1 },
      lead_id: 'l1',
      event_id: 'e1',
      config: { url: refusedUrl, retries: 5 },
      signal: AbortSignal.timeout(300),
    };
    let abortedAt = Number.POSITIVE_INFINITY;
    request.signal.addEventListener('abort', () => {
      abortedAt = Date.now();
    });
    const result = await httpModule('json').deliver(request);
    // No try starts after the step's time is up: a pause ends at the timeout, not after it.
    expect(abortedAt).toBeLessThan(Number.POSITIVE_INFINITY);
    expect((result.transactions ?? []).map((t) => t.request.timestamp < abortedAt)).not.toContain(false);
    expect(result).toMatchObject({ outcome: 'error', reason: 'The recipient did not answer in time.' });
    expect(result.transactions?.length).toBeLessThan(6);
    expect((result.transactions ?? []).every((t) => t.response === null)).toBe(true);
  });

  it('records a URL without its password or secret query values', () => {
    const recorded = recordedUrl('https://acme:s3cret@buyer.example/post?token=t-1&campaign=9&x-api-key=k');
    expect(recorded).not.toContain('s3cret');
    expect(recorded).not.toContain('t-1');
    const url = new URL(recorded);
    expect([url.username, url.searchParams.get('campaign'), url.searchParams.get('x-api-key')]).toEqual([
      'acme',
      '9',
      '[redacted]',
    ]);
    expect(recordedUrl('https://buyer.example/post?campaign=9')).toBe('https://buyer.example/post?campaign=9');
  });
});
