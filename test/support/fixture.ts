import { createLeadService, type LeadService, type LeadServiceOptions } from '@leadroute/core';
import { memoryStorage } from '@leadroute/memory';

/** A service on memory storage with the four kinds of caller every HTTP test needs. */
export interface Fixture {
  readonly service: LeadService;
  readonly keys: { readonly demo: string; readonly other: string; readonly free: string; readonly staff: string };
}

export async function createFixture(options: Omit<LeadServiceOptions, 'storage'> = {}): Promise<Fixture> {
  const service = createLeadService({ storage: memoryStorage(), ...options });
  const make = async (name: string, extra: { plan?: 'free' | 'paid'; staff?: boolean } = {}) =>
    (await service.accounts.create({ name, time_zone: 'America/New_York', ...extra }))._unsafeUnwrap().api_key;
  return {
    service,
    keys: {
      demo: await make('Demo'),
      other: await make('Other'),
      free: await make('Free', { plan: 'free' }),
      staff: await make('Operator', { staff: true }),
    },
  };
}

/** Basic `API:<key>` credentials. */
export const basic = (key: string): string => `Basic ${Buffer.from(`API:${key}`).toString('base64')}`;
