import type { Filter } from 'mongodb';
import type { CredentialDoc } from '../records';
import type { FindQuery } from './types';

/** The credential with this ID (the primary index). */
export const credentialById = (id: string): Filter<CredentialDoc> => ({ _id: id });

/** The account's credentials in ID (creation) order. */
export const credentialsByAccount = (accountId: string): FindQuery<CredentialDoc> => ({
  filter: { account_id: accountId },
  sort: { _id: 1 },
});
