import type { ResultAsync } from 'neverthrow';
import type { Id } from '../ids';
import type { StoreError } from './store-error';

/** A recipient credential as stored; `password` never leaves the service in a response or an event. */
export interface CredentialRecord {
  readonly id: Id;
  readonly account_id: Id;
  readonly name: string;
  readonly type: string;
  readonly package: string | null;
  readonly username: string | null;
  readonly password: string | null;
  readonly created_at: string;
  readonly updated_at: string;
}

/** Storage of credentials referenced by steps' `credential_id`. */
export interface CredentialStore {
  insert(credential: CredentialRecord): ResultAsync<void, StoreError>;
  get(id: Id): ResultAsync<CredentialRecord | undefined, StoreError>;
  listByAccount(accountId: Id): ResultAsync<CredentialRecord[], StoreError>;
}
