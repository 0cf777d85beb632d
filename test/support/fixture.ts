import { createLeadService, hashApiKey, type LeadService, type LeadServiceOptions } from '@leadroute/core';
import { memoryStorage } from '@leadroute/memory';

/** A service on memory storage with the four kinds of caller every HTTP test needs. */
export interface Fixture {
  readonly service: LeadService;
  /**
   * `staff` is an account with the deprecated staff flag (it grants nothing now); `operator` is an operator staff
   * member's key (#19.6).
   */
  readonly keys: {
    readonly demo: string;
    readonly other: string;
    readonly free: string;
    readonly staff: string;
    readonly operator: string;
  };
}

/** On memory unless `storage` is given (a PostgreSQL schema of the test's own, say). */
export async function createFixture(
  options: Omit<LeadServiceOptions, 'storage'> & { storage?: LeadServiceOptions['storage'] } = {},
): Promise<Fixture> {
  const operator = 'operator-staff-key-0123456789abcdef';
  const service = createLeadService({
    operatorStaff: [{ id: 'staff-1', name: 'Ops Person', api_key_sha256: hashApiKey(operator) }],
    ...options,
    storage: options.storage ?? memoryStorage(),
  });
  const make = async (name: string, extra: { plan?: 'free' | 'paid'; staff?: boolean } = {}) =>
    (await service.accounts.create({ name, time_zone: 'America/New_York', ...extra }))._unsafeUnwrap().api_key;
  return {
    service,
    keys: {
      demo: await make('Demo'),
      other: await make('Other'),
      free: await make('Free', { plan: 'free' }),
      staff: await make('Operator', { staff: true }),
      operator,
    },
  };
}

/** Basic `API:<key>` credentials. */
export const basic = (key: string): string => `Basic ${Buffer.from(`API:${key}`).toString('base64')}`;
