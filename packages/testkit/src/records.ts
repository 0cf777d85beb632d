import {
  type CertificateRecord,
  newCertificateId,
  newPingToken,
  SEARCH_FIELDS,
  type SearchDocument,
  type SearchField,
  type StoredAlert,
  type StoredExport,
} from '@leadroute/core';
import { freshId } from './fixtures';

// Record builders the suites use, kept out of the suite files so the main entry of
// the testkit never loads vitest (suites live behind `@leadroute/testkit/suites`).

/** An active alert of `accountId`; the key is unique unless given. */
export function anAlert(accountId: string, overrides: Partial<StoredAlert> = {}): StoredAlert {
  const entity = freshId();
  return {
    key: `recipient-failure:${accountId}:${entity}`,
    type: 'recipient-failure',
    kind: null,
    severity: 'serious',
    message: 'Buyer is failing leads',
    detail: '60% of 40 leads failed in the last 60 minutes (baseline 2%).',
    flow_id: freshId(),
    flow_name: 'Auto',
    entity_id: entity,
    entity_name: 'Buyer',
    recipient_id: entity,
    outcome: null,
    time_zone: 'America/New_York',
    first_seen_at: '2026-01-15T15:00:00.000Z',
    last_seen_at: '2026-01-15T15:00:00.000Z',
    data: { rate: 0.6, baseline_rate: 0.02, total: 40 },
    account_id: accountId,
    status: 'active',
    resolved_at: null,
    affected_today: 24,
    affected_day: '2026-01-15',
    notified_severity: null,
    ...overrides,
  };
}

/** A consent certificate with every ping data field set. */
export function aCertificate(overrides: Partial<CertificateRecord> = {}): CertificateRecord {
  return {
    id: newCertificateId(),
    ping_token: newPingToken(),
    created_at: '2026-01-15T15:00:00.000Z',
    expires_at: '2026-01-18T15:00:00.000Z',
    client: {
      ip: '203.0.113.7',
      user_agent: 'Mozilla/5.0 Test',
      dimensions: { screen: { width: 1920, height: 1080 }, window: { width: 1280, height: 720 } },
      geo: { city: 'Austin', country: 'US', postal_code: '78701', subdivisions: ['TX'] },
    },
    location: { framed: false, parent_url: '', url: 'https://form.example.com/' },
    time_on_page: 42.5,
    type: 'web',
    claims: [],
    ...overrides,
  };
}

const USER = {
  id: 'a'.repeat(24),
  first_name: 'Ada',
  last_name: 'Lovelace',
  email: 'ada@example.com',
  sso_id: 'sso-1',
};

/** A stored export of `accountId`; IDs from `freshId()` sort by creation. */
export function anExport(accountId: string, overrides: Partial<StoredExport> = {}): StoredExport {
  return {
    id: freshId(),
    account_id: accountId,
    created_at: '2026-03-01T10:00:00.000Z',
    status: 'created',
    start: '2026-02-01T00:00:00.000Z',
    end: '2026-03-01T00:00:00.000Z',
    filter_rules: [{ id: 'abc123', lhv: 'lead.state', op: 'is equal to', rhv: 'TX' }],
    email_to: ['ops@example.com'],
    fields: ['id', 'vars.lead.email'],
    date_format: 'legacy',
    user: USER,
    expires_at: '2026-03-08T10:00:00.000Z',
    exported_docs: 0,
    downloads: [],
    ...overrides,
  };
}

/** A search document for `accountId`; fields not given are ''. */
export function aSearchDocument(
  accountId: string,
  fields: Partial<Record<SearchField, string>>,
  overrides: Partial<SearchDocument> = {},
): SearchDocument {
  const all = Object.fromEntries(SEARCH_FIELDS.map((f) => [f, fields[f] ?? ''])) as Record<SearchField, string>;
  return {
    lead_id: freshId(),
    account_id: accountId,
    flow_id: 'f'.repeat(24),
    flow_name: 'Auto',
    source_id: 'a'.repeat(24),
    source_name: 'Vendor',
    submission_timestamp: '2026-03-08T12:00:00.000Z',
    fields: all,
    event_id: freshId(),
    expires_at: '2026-06-06T12:00:00.000Z',
    ...overrides,
  };
}
