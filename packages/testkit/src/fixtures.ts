import { type Account, type ApiKeyRecord, type EntityAlias, type EntityRecord, newId } from '@leadroute/core';

let tick = Date.UTC(2026, 0, 1);
/** A fresh ID whose time part grows with every call, so insertion order is creation order. */
export const freshId = (): string => newId((tick += 1000));
const at = (): string => new Date(tick).toISOString();

export function anAccount(overrides: Partial<Account> = {}): Account {
  return { id: freshId(), name: 'Acme Leads', plan: 'paid', time_zone: 'America/New_York', staff: false, created_at: at(), ...overrides };
}

export function anApiKey(accountId: string, overrides: Partial<ApiKeyRecord> = {}): ApiKeyRecord {
  return {
    hash: freshId().padEnd(64, '0'),
    account_id: accountId,
    user: { id: freshId(), first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', sso_id: 'sso-1' },
    created_at: at(),
    ...overrides,
  };
}

export function anEntity(ownerAccountId: string, overrides: Partial<EntityRecord> = {}): EntityRecord {
  return {
    id: freshId(),
    owner_account_id: ownerAccountId,
    name: 'Buyer One',
    description: 'A buyer',
    standard: false,
    account: false,
    pending: false,
    connected: null,
    connected_account_id: null,
    deprecated: false,
    see: null,
    field_suffix: 'b1',
    invitation_id: null,
    invitation_expires_at: null,
    expired: false,
    flow_ids: [freshId()],
    logo_url: 'https://example.com/logo.png',
    module_ids: ['platform-custom.outbound.json'],
    source: null,
    recipient: 'buyer',
    time_zone: 'America/Chicago',
    consent_certified_vendor: false,
    website: 'https://buyer.example.com',
    created_at: at(),
    updated_at: at(),
    ...overrides,
  };
}

export function anAlias(accountId: string, entityId: string, overrides: Partial<EntityAlias> = {}): EntityAlias {
  return { id: freshId(), entity_id: entityId, entity_alias: 'Our buyer', account_id: accountId, created_at: at(), updated_at: at(), ...overrides };
}
