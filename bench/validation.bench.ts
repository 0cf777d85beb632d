import { EntityCreateBody, isTimeZone, validator } from '@leadroute/core';
import { z } from 'zod';
import type { BenchRow } from './harness';
import { compare, measureInterleaved } from './harness';

// Issue #20's choice of schema library, measured: the entity create body through the
// compiled TypeBox validator Leadroute uses, and through the same schema in zod 4, on a
// valid body and on one with three bad fields. zod is not asked for distinct module_ids, which
// TypeBox checks; on valid bodies (the hot path) TypeBox is as fast or faster.

const MODULE_ID =
  /^platform-[A-Za-z0-9]+(?:[-_][A-Za-z0-9]+)*\.(?:inbound|outbound)\.[A-Za-z0-9]+(?:[-_][A-Za-z0-9]+)*$/;
const id = z.string().regex(/^[0-9a-fA-F]{24}$/);
const url = z.url({ protocol: /^https?$/ }).max(2048);
const zodEntity = z.object({
  name: z.string().max(200).regex(/\S/),
  description: z.string().max(5000).optional(),
  deprecated: z.boolean().optional(),
  see: id.nullable().optional(),
  field_suffix: z.null().optional(),
  flow_ids: z.array(id).max(1000).optional(),
  connected_account_id: id.nullable().optional(),
  logo_url: url.nullable().optional(),
  module_ids: z.array(z.string().regex(MODULE_ID)).max(100),
  source: z.enum(['seller', 'form', 'other']).nullable(),
  recipient: z.enum(['buyer', 'crm', 'analytics', 'enhancement', 'esp', 'other']).nullable(),
  time_zone: z.string().refine(isTimeZone).nullable().optional(),
  consent_certified_vendor: z.boolean().optional(),
  website: url.nullable().optional(),
});

const VALID = {
  name: 'Acme Insurance',
  description: 'Buys auto insurance leads in Texas.',
  module_ids: ['platform-custom.outbound.json'],
  source: null,
  recipient: 'buyer',
  website: 'https://acme.example.com',
  time_zone: 'America/Chicago',
  consent_certified_vendor: true,
};
const INVALID = { ...VALID, name: '   ', recipient: 'seller', logo_url: 'not a url' };

export default async function bench(): Promise<BenchRow[]> {
  const typebox = validator(EntityCreateBody);
  if (typebox(VALID).isErr() || !zodEntity.safeParse(VALID).success) throw new Error('VALID must pass both');
  if (typebox(INVALID).isOk() || zodEntity.safeParse(INVALID).success) throw new Error('INVALID must fail both');
  const r = await measureInterleaved({
    typeboxValid: { fn: () => typebox(VALID), batch: 500 },
    zodValid: { fn: () => zodEntity.safeParse(VALID), batch: 500 },
    typeboxInvalid: { fn: () => typebox(INVALID), batch: 200 },
    zodInvalid: { fn: () => zodEntity.safeParse(INVALID), batch: 200 },
  });
  return [
    compare('validation: entity body, valid (TypeBox compiled)', r.typeboxValid, {
      name: 'zod 4',
      value: r.zodValid,
      minRatio: 1,
    }),
    // Refused bodies are not the hot path: TypeBox walks its errors more slowly than zod, reported without a target.
    compare('validation: entity body, 3 bad fields (TypeBox compiled)', r.typeboxInvalid, {
      name: 'zod 4',
      value: r.zodInvalid,
    }),
  ];
}
