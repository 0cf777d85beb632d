import { type Account, type ApiKeyRecord, type EntityAlias, type EntityRecord, newId } from '@leadroute/core';

let tick = Date.UTC(2026, 0, 1);
/** A fresh ID whose time part grows with every call, so insertion order is creation order. */
export const freshId = (): string => newId((tick += 1000));
const at = (): string => new Date(tick).toISOString();

export function anAccount(overrides: Partial<Account> = {}): Account {
  return {
    id: freshId(),
    name: 'Acme Leads',
    plan: 'paid',
    time_zone: 'America/New_York',
    staff: false,
    created_at: at(),
    ...overrides,
  };
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
  return {
    id: freshId(),
    entity_id: entityId,
    entity_alias: 'Our buyer',
    account_id: accountId,
    created_at: at(),
    updated_at: at(),
    ...overrides,
  };
}

import type { CredentialRecord, FlowRecord, LeadRecord, RollupRow, StoredEvent } from '@leadroute/core';

export function aFlow(accountId: string, overrides: Partial<FlowRecord> = {}): FlowRecord {
  return {
    id: freshId(),
    account_id: accountId,
    name: 'Auto leads',
    enabled: true,
    fields: [{ id: 'lead.loan_amount', type: 'number' }],
    acceptance_criteria: {
      id: 'Ab12Cd',
      op: 'and',
      rules: [{ id: 'Xy34Zw', lhv: 'lead.state', op: 'is included in', rhv: ['TX', 'CA'] }],
    },
    sources: [
      {
        entity_id: freshId(),
        caps: [{ id: 'Cap001', name: 'Daily', maximum: 100, duration: 1, duration_units: 'days' }],
      },
    ],
    steps: [
      {
        id: freshId(),
        type: 'recipient',
        entity_id: freshId(),
        module_id: 'platform-custom.outbound.json',
        config: { url: 'https://buyer.example.com/leads' },
        pricing: { override: true, prices: [{ id: 'Pr0001', amount: 12.5 }] },
      },
    ],
    version: 1,
    created_at: at(),
    updated_at: at(),
    ...overrides,
  };
}

export function aLead(accountId: string, overrides: Partial<LeadRecord> = {}): LeadRecord {
  return {
    id: freshId(),
    account_id: accountId,
    flow_id: freshId(),
    flow_name: 'Auto leads',
    source_id: freshId(),
    source_name: 'Vendor',
    submission_timestamp: at(),
    fields: { first_name: 'Ada', email: 'ada@example.com', nested: { a: [1, 'two'] } },
    purchase_price: 3.25,
    latest_event_id: freshId(),
    returned_at: null,
    expires_at: new Date(tick + 90 * 86_400_000).toISOString(),
    ...overrides,
  };
}

export function anEvent(accountId: string, overrides: Partial<StoredEvent> = {}): StoredEvent {
  const id = freshId();
  return {
    id,
    account_id: accountId,
    type: 'recipient',
    outcome: 'success',
    reason: '',
    vars: { lead: { first_name: 'Ada', state: 'TX' }, price: 10, purchase_price: 3, event_id: id },
    host: 'test',
    start_timestamp: tick,
    end_timestamp: tick + 5,
    ms: 5,
    wait_ms: 3,
    overhead_ms: 2,
    lag_ms: 0,
    total_ms: 5,
    handler_version: '0.1.0',
    version: '1.0.0',
    cap_reached: false,
    ping_limit_reached: false,
    expires_at: new Date(tick + 90 * 86_400_000).toISOString(),
    lead_id: freshId(),
    flow_id: freshId(),
    source_id: freshId(),
    recipient_id: freshId(),
    step_id: freshId(),
    key: `REF-${id}`,
    revenue: 10,
    transactions: [],
    ...overrides,
  };
}

export function aCredential(accountId: string, overrides: Partial<CredentialRecord> = {}): CredentialRecord {
  return {
    id: freshId(),
    account_id: accountId,
    name: 'Buyer login',
    type: 'user',
    package: null,
    username: 'u',
    password: 'secret',
    created_at: at(),
    updated_at: at(),
    ...overrides,
  };
}

/** A rollup row counting one successful source event; override any cell dimension or sum. */
export function aRollupRow(accountId: string, overrides: Partial<RollupRow> = {}): RollupRow {
  return {
    account_id: accountId,
    hour: '2026-03-08T07:00:00.000Z',
    flow_id: 'f'.repeat(24),
    source_id: 'a'.repeat(24),
    recipient_id: '',
    step_id: '',
    kind: 'source',
    outcome: 'success',
    category: '',
    stage: '',
    count: 1,
    cost: 0,
    revenue: 0,
    purchase_price: 0,
    ...overrides,
  };
}
