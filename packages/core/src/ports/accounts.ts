import type { ResultAsync } from 'neverthrow';
import type { Id } from '../ids';
import type { StoreError } from './store-error';
import type { User } from '../domain/accounts';

export type { User } from '../domain/accounts';

/** An account holder of the platform. Accounts come from the host application. */
export interface Account {
  readonly id: Id;
  readonly name: string;
  /** Free accounts have no access to leads (401 on every lead-bearing endpoint). */
  readonly plan: 'free' | 'paid';
  /** IANA time zone: alert windows, caps, legacy export dates and default statistics ranges use it. */
  readonly time_zone: string;
  /**
   * @deprecated Grants nothing: operator staff are configured on the service (`operatorStaff`),
   * not accounts (#19.6). Kept so stored accounts read back unchanged.
   */
  readonly staff: boolean;
  /**
   * Where the account's own notices go: alert e-mail of types with `send_email` when the
   * alert settings name no `email_to` (#19.13). Absent when the account has none.
   */
  readonly notification_email?: string;
  readonly created_at: string;
}

/** An API key as stored: only its SHA-256 hash, never the key itself. */
export interface ApiKeyRecord {
  /** Hex SHA-256 of the key. */
  readonly hash: string;
  readonly account_id: Id;
  readonly user: User;
  readonly created_at: string;
}

/** Storage of accounts and their API keys. */
export interface AccountStore {
  insert(account: Account): ResultAsync<void, StoreError>;
  get(id: Id): ResultAsync<Account | undefined, StoreError>;
  /** Accounts whose notification address is exactly `email` (stored lower-cased): whom an invitation by e-mail reaches. */
  findByEmail(email: string): ResultAsync<Account[], StoreError>;
  /** Replaces the stored account with this ID; whether there was one. */
  update(account: Account): ResultAsync<boolean, StoreError>;
  insertKey(key: ApiKeyRecord): ResultAsync<void, StoreError>;
  /** The key whose hash is `hash`, if any. */
  findKey(hash: string): ResultAsync<ApiKeyRecord | undefined, StoreError>;
  /** The account's keys (hashes and users), oldest first. */
  keysOf(accountId: Id): ResultAsync<ApiKeyRecord[], StoreError>;
  /** Deletes the key whose hash is `hash`; whether there was one. */
  removeKey(hash: string): ResultAsync<boolean, StoreError>;
}
