import type { Id } from '../ids';

/** A user of an account: who requested an export, who acknowledged an alert. */
export interface User {
  readonly id: Id;
  readonly first_name: string;
  readonly last_name: string;
  readonly email: string;
  readonly sso_id: string;
}
