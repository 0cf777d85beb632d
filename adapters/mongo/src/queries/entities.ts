import type { Filter } from 'mongodb';
import type { EntityDoc } from '../documents';
import type { FindQuery } from './types';

/** The entity with this ID (the primary index). */
export const entityById = (id: string): Filter<EntityDoc> => ({ _id: id });

/** Every entity `ownerAccountId` owns, oldest first; the ID breaks ties in creation time. */
export const entitiesByOwner = (ownerAccountId: string): FindQuery<EntityDoc> => ({
  filter: { owner_account_id: ownerAccountId },
  sort: { created_at: 1, _id: 1 },
});
