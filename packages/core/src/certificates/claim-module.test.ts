import { errAsync, okAsync } from 'neverthrow';
import { describe, expect, it } from 'vitest';
import { errors } from '../errors';
import type { ClaimResult } from './service';
import { CERTIFICATE_CLAIM_MODULE_ID, certificateClaimModule } from './claim-module';

const request = (lead: Record<string, unknown>) => ({
  lead,
  config: {},
  lead_id: 'l1',
  event_id: 'e1',
  signal: new AbortController().signal,
});

describe(CERTIFICATE_CLAIM_MODULE_ID, () => {
  it('maps claim results to step outcomes', async () => {
    const results: Record<string, ClaimResult> = {
      none: { status: 'missing', reason: 'missing certificate' },
      bad: { status: 'malformed', reason: 'malformed certificate URL' },
      gone: { status: 'expired', reason: 'expired certificate' },
      who: { status: 'unknown', reason: 'unknown certificate' },
    };
    const seen: unknown[] = [];
    const module = certificateClaimModule({
      claim: (url, by) => {
        seen.push([url, by]);
        return okAsync(results[String(url)] ?? results.none!);
      },
    });
    expect(await module.deliver(request({ trustedform_cert_url: 'none' }))).toEqual({
      outcome: 'skip',
      reason: 'missing certificate',
    });
    expect(await module.deliver(request({ trustedform_cert_url: 'bad' }))).toEqual({
      outcome: 'failure',
      reason: 'malformed certificate URL',
    });
    expect(await module.deliver(request({ trustedform_cert_url: 'gone' }))).toEqual({
      outcome: 'failure',
      reason: 'expired certificate',
    });
    expect(await module.deliver(request({ trustedform_cert_url: 'who' }))).toEqual({
      outcome: 'failure',
      reason: 'unknown certificate',
    });
    expect(seen[0]).toEqual(['none', { event_id: 'e1', lead_id: 'l1' }]);
  });

  it('answers error when the store fails, so a store outage is not counted as a bad certificate', async () => {
    const module = certificateClaimModule({ claim: () => errAsync(errors.storageFailure('down')) });
    expect(await module.deliver(request({ trustedform_cert_url: 'x' }))).toMatchObject({ outcome: 'error' });
  });
});
