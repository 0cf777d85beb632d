import type { Result } from 'neverthrow';
import type { Issue } from '../errors';
import type { Entity } from '../ports/entities';
import { type Check, checks, validateFields } from '../validation';

/** The fields a caller may write on an entity; every other property is read-only and ignored. */
export type EntityInput = Pick<
  Entity,
  | 'name'
  | 'description'
  | 'deprecated'
  | 'see'
  | 'field_suffix'
  | 'flow_ids'
  | 'connected_account_id'
  | 'logo_url'
  | 'module_ids'
  | 'source'
  | 'recipient'
  | 'time_zone'
  | 'consent_certified_vendor'
  | 'website'
>;

/** `platform-<integration>.<direction>.<name>`, e.g. `platform-custom.outbound.json`. */
export const MODULE_ID_PATTERN =
  /^platform-[A-Za-z0-9]+(?:[-_][A-Za-z0-9]+)*\.(?:inbound|outbound)\.[A-Za-z0-9]+(?:[-_][A-Za-z0-9]+)*$/;

const SOURCE_CLASSES = ['seller', 'form', 'other', null] as const;
const RECIPIENT_CLASSES = ['buyer', 'crm', 'analytics', 'enhancement', 'esp', 'other', null] as const;

const ENTITY_FIELDS: { readonly [K in keyof EntityInput]-?: Check } = {
  name: checks.text(200, { required: true }),
  description: checks.text(5000),
  deprecated: checks.boolean(),
  see: checks.nullable(checks.id()),
  // Refused unless null (#19.12): the spec says only "suffix required for all custom fields", not how it joins a field
  // name nor what happens to a field without it, and a stored suffix that nothing applies would promise a check that never runs.
  field_suffix: (v) =>
    v === null
      ? undefined
      : 'is not supported: the spec does not say how a suffix joins a custom field name; leave it null',
  // Derived from the account's flows (#19.12): accepted for the spec's body shape, never stored.
  flow_ids: checks.arrayOf(checks.id(), { unique: true }),
  // The account a custom entity stands for (#19.12); not looked up, so it tells nothing of which accounts exist.
  connected_account_id: checks.nullable(checks.id()),
  logo_url: checks.nullable(checks.url()),
  module_ids: checks.arrayOf(
    checks.pattern(MODULE_ID_PATTERN, 'of the form platform-<integration>.<inbound|outbound>.<name>'),
    {
      max: 100,
      unique: true,
    },
  ),
  source: checks.oneOf(SOURCE_CLASSES),
  recipient: checks.oneOf(RECIPIENT_CLASSES),
  time_zone: checks.nullable(checks.timeZone()),
  consent_certified_vendor: checks.boolean(),
  website: checks.nullable(checks.url()),
};

const REQUIRED_ON_CREATE = ['name', 'module_ids', 'source', 'recipient'] as const;

/** Validates a create body: name, module_ids, source and recipient are required (source and recipient may be null). */
export function validateEntityCreate(body: unknown): Result<Partial<EntityInput>, Issue[]> {
  return validateFields<EntityInput>(body, ENTITY_FIELDS, REQUIRED_ON_CREATE);
}

/** Validates an update body: any writable field may be given; absent fields keep their value. */
export function validateEntityUpdate(body: unknown): Result<Partial<EntityInput>, Issue[]> {
  return validateFields<EntityInput>(body, ENTITY_FIELDS);
}
