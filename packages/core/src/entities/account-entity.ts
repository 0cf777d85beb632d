import type { Account } from '../ports/accounts';
import type { EntityRecord } from '../ports/entities';
import { newId } from '../ids';
import { isoTime } from '../time';
import { ENTITY_DEFAULTS } from './defaults';

/** The one entity that represents `account` platform-wide, created with the account. */
export function accountEntity(account: Account, now: number): EntityRecord {
  const at = isoTime(now);
  return {
    ...ENTITY_DEFAULTS,
    id: newId(now),
    owner_account_id: account.id,
    name: account.name,
    account: true,
    connected_account_id: account.id,
    time_zone: account.time_zone,
    created_at: at,
    updated_at: at,
  };
}
