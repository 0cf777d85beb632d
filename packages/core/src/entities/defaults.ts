import type { Entity } from '../ports/entities';

/** What an entity is before anything is said about it: the fields every kind of entity starts from. */
export const ENTITY_DEFAULTS = {
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
  flow_ids: [],
  logo_url: null,
  module_ids: [],
  source: null,
  recipient: null,
  time_zone: null,
  consent_certified_vendor: false,
  website: null,
} as const satisfies Omit<Entity, 'id' | 'name' | 'created_at' | 'updated_at'>;
