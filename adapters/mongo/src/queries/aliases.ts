import type { Filter } from 'mongodb';
import type { AliasDoc } from '../documents';
import type { FindQuery } from './types';

/** The alias with this ID (the primary index). */
export const aliasById = (id: string): Filter<AliasDoc> => ({ _id: id });

/** The account's aliases, oldest first; the ID breaks ties in creation time. */
export const aliasesByAccount = (accountId: string): FindQuery<AliasDoc> => ({
  filter: { account_id: accountId },
  sort: { created_at: 1, _id: 1 },
});
