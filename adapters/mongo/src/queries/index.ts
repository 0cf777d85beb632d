export { accountById, apiKeyByHash } from './accounts';
export { aliasById, aliasesByAccount } from './aliases';
export { entitiesByOwner, entityById } from './entities';
export { INDEXES, type IndexSpec } from './indexes';
export {
  deliveredBefore,
  deliveredUpdate,
  dueSpoolItems,
  escapeRegex,
  leasedSpoolItem,
  leaseUpdate,
  pendingSpoolItem,
  rescheduleUpdate,
  spoolCount,
} from './spool';
export type { FindQuery, SortSpec } from './types';
