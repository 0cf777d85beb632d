import { type Static, Type } from '@sinclair/typebox';
import { optionalAll, S } from './define';

/** `platform-<integration>.<direction>.<name>`, e.g. `platform-custom.outbound.json`. */
export const MODULE_ID_PATTERN =
  /^platform-[A-Za-z0-9]+(?:[-_][A-Za-z0-9]+)*\.(?:inbound|outbound)\.[A-Za-z0-9]+(?:[-_][A-Za-z0-9]+)*$/;

export const SOURCE_CLASSES = ['seller', 'form', 'other', null] as const;
export const RECIPIENT_CLASSES = ['buyer', 'crm', 'analytics', 'enhancement', 'esp', 'other', null] as const;
export const CONNECTIONS = ['seller', 'buyer', 'both', null] as const;

/** The fields a caller may write on an entity; every other property is read-only and ignored. */
const writable = {
  name: S.text(200, { required: true }),
  description: S.text(5000),
  deprecated: S.boolean(),
  see: S.nullable(S.id(), 'must be null or a 24-character hexadecimal ID'),
  // Refused unless null (#19.12): the spec says only "suffix required for all custom fields", not how it joins a field
  // name nor what happens to a field without it, and a stored suffix that nothing applies would promise a check that
  // never runs.
  field_suffix: Type.Null({
    description: 'Accepted only as null: the spec does not say how a suffix joins a custom field name.',
    'x-message': 'is not supported: the spec does not say how a suffix joins a custom field name; leave it null',
  }),
  // Derived from the account's flows (#19.12): accepted for the spec's body shape, never stored.
  flow_ids: S.arrayOf(S.id(), 'must be an array of at most 1000 distinct 24-character hexadecimal IDs', {
    unique: true,
  }),
  // The account a custom entity stands for (#19.12); not looked up, so it tells nothing of which accounts exist.
  connected_account_id: S.nullable(S.id(), 'must be null or a 24-character hexadecimal ID'),
  logo_url: S.nullable(S.url(), 'must be null or an http or https URL'),
  module_ids: S.arrayOf(
    Type.String({ pattern: MODULE_ID_PATTERN.source }),
    'must be an array of at most 100 distinct IDs of the form platform-<integration>.<inbound|outbound>.<name>',
    { max: 100, unique: true },
  ),
  source: S.oneOf(SOURCE_CLASSES),
  recipient: S.oneOf(RECIPIENT_CLASSES),
  time_zone: S.nullable(S.timeZone(), 'must be null or an IANA time zone such as America/New_York'),
  consent_certified_vendor: S.boolean(),
  website: S.nullable(S.url(), 'must be null or an http or https URL'),
};

/** POST /entities: name, module_ids, source and recipient are required (source and recipient may be null). */
export const EntityCreateBody = Type.Object(
  {
    ...optionalAll(writable).properties,
    name: writable.name,
    module_ids: writable.module_ids,
    source: writable.source,
    recipient: writable.recipient,
  },
  {
    title: 'EntityCreateBody',
    examples: [
      {
        name: 'Lone Star Leads',
        module_ids: ['platform-custom.outbound.json'],
        source: null,
        recipient: 'buyer',
        website: 'https://lonestarleads.example',
      },
    ],
  },
);
export type EntityCreateBody = Static<typeof EntityCreateBody>;

/** PUT /entities/{id}: any writable field; absent fields keep their value. */
export const EntityUpdateBody = Type.Partial(Type.Object(writable), {
  title: 'EntityUpdateBody',
  examples: [{ description: 'Auto and home leads, Texas only.', time_zone: 'America/Chicago' }],
});
export type EntityUpdateBody = Static<typeof EntityUpdateBody>;

/** The fields a caller may write on an entity, each of them. */
export const EntityInputSchema = Type.Object(writable, { title: 'EntityInput' });
export type EntityInput = Static<typeof EntityInputSchema>;

/** An entity as the API shows it (spec "Entity"). */
export const EntitySchema = Type.Object(
  {
    id: S.id(),
    name: Type.String(),
    description: Type.String(),
    standard: Type.Boolean(),
    account: Type.Union([Type.Boolean(), Type.Null()]),
    pending: Type.Boolean(),
    connected: S.oneOf(CONNECTIONS),
    connected_account_id: S.nullable(S.id()),
    deprecated: Type.Boolean(),
    see: S.nullable(S.id()),
    field_suffix: Type.Union([Type.String(), Type.Null()]),
    invitation_id: S.nullable(S.id()),
    invitation_expires_at: Type.Union([S.dateTime(), Type.Null()]),
    expired: Type.Boolean(),
    flow_ids: Type.Array(S.id()),
    logo_url: Type.Union([Type.String(), Type.Null()]),
    module_ids: Type.Array(Type.String()),
    source: S.oneOf(SOURCE_CLASSES),
    recipient: S.oneOf(RECIPIENT_CLASSES),
    time_zone: Type.Union([Type.String(), Type.Null()]),
    consent_certified_vendor: Type.Boolean(),
    website: Type.Union([Type.String(), Type.Null()]),
    created_at: S.dateTime(),
    updated_at: S.dateTime(),
  },
  {
    title: 'Entity',
    examples: [
      {
        id: '5fd4e3b7c1a2b3c4d5e6f701',
        name: 'Lone Star Leads',
        description: '',
        standard: false,
        account: false,
        pending: false,
        connected: null,
        connected_account_id: null,
        deprecated: false,
        see: null,
        field_suffix: null,
        invitation_id: null,
        invitation_expires_at: null,
        expired: false,
        flow_ids: ['5fd4e3b7c1a2b3c4d5e6f702'],
        logo_url: null,
        module_ids: ['platform-custom.outbound.json'],
        source: null,
        recipient: 'buyer',
        time_zone: 'America/Chicago',
        consent_certified_vendor: false,
        website: 'https://lonestarleads.example',
        created_at: '2026-03-01T15:04:05.000Z',
        updated_at: '2026-03-01T15:04:05.000Z',
      },
    ],
  },
);

const aliasWritable = { entity_id: S.id(), entity_alias: S.text(200, { required: true }) };

/** POST /entities/aliases: both fields required. */
export const EntityAliasCreateBody = Type.Object(aliasWritable, {
  title: 'EntityAliasCreateBody',
  examples: [{ entity_id: '5fd4e3b7c1a2b3c4d5e6f701', entity_alias: 'LSL (Texas)' }],
});
export type EntityAliasCreateBody = Static<typeof EntityAliasCreateBody>;

/** PUT /entities/aliases/{id}: either field or both. */
export const EntityAliasUpdateBody = Type.Partial(Type.Object(aliasWritable), {
  title: 'EntityAliasUpdateBody',
  examples: [{ entity_alias: 'Lone Star (TX only)' }],
});
export type EntityAliasUpdateBody = Static<typeof EntityAliasUpdateBody>;

/** A per-account display name for an entity (spec "Entity alias"). */
export const EntityAliasSchema = Type.Object(
  {
    id: S.id(),
    entity_id: S.id(),
    entity_alias: Type.String(),
    account_id: S.id(),
    created_at: S.dateTime(),
    updated_at: S.dateTime(),
  },
  {
    title: 'EntityAlias',
    examples: [
      {
        id: '5fd4e3b7c1a2b3c4d5e6f703',
        entity_id: '5fd4e3b7c1a2b3c4d5e6f701',
        entity_alias: 'LSL (Texas)',
        account_id: '5fd4e3b7c1a2b3c4d5e6f704',
        created_at: '2026-03-01T15:04:05.000Z',
        updated_at: '2026-03-01T15:04:05.000Z',
      },
    ],
  },
);
