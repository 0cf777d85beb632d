import type { Account } from '../ports/accounts';
import type { EntityRecord } from '../ports/entities';
import { newId } from '../ids';
import { isoTime } from '../time';

/** The one entity that represents `account` platform-wide, created with the account. */
export function accountEntity(account: Account, now: number): EntityRecord {
  const at = isoTime(now);
  return {
    id: newId(now),
    owner_account_id: account.id,
    name: account.name,
    description: '',
    standard: false,
    account: true,
    pending: false,
    connected: null,
    connected_account_id: account.id,
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
    time_zone: account.time_zone,
    consent_certified_vendor: false,
    website: null,
    created_at: at,
    updated_at: at,
  };
}
