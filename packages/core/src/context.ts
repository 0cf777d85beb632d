import type { Account, User } from './ports/accounts';

/** Who is calling: the account the API key belongs to and the key's user. */
export interface Principal {
  readonly account: Account;
  readonly user: User;
}
