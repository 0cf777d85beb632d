export { accountById, accountsByEmail, apiKeyByHash, apiKeysOfAccount } from './accounts';
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
export type { PageQuery, Pipeline } from './types';
export {
  accountsWithActivePipeline,
  activeAlerts,
  activityPage,
  alertByKey,
  leaseTakeUpdate,
  ownedLease,
  settingsByScope,
  takeableLease,
} from './alerts';
export { certificateById, certificateByPingToken, claimCertificateUpdate } from './certificates';
export {
  counterAboveZero,
  counterBelow,
  counterById,
  counterClaimable,
  counterClaimUpdate,
  decrementUpdate,
  incrementUpdate,
} from './counters';
export { credentialById, credentialsByAccount } from './credentials';
export { eventById, eventPage, eventsByReference, eventsExpiredBefore } from './events';
export { downloadPush, exportById, exportPage, progressUpdate } from './exports';
export {
  flowAtVersion,
  flowById,
  flowsByAccount,
  latestEventUpdate,
  leadById,
  leadsExpiredBefore,
  returnedUpdate,
  unreturnedLead,
} from './flows';
export { claimableJobs, claimUpdate, completeUpdate, extendUpdate, failUpdate, heldJob, jobById } from './jobs';
export { activeAccountsPipeline, ROLLUP_CELL, rollupCell, rollupIncrement, rollupPipeline } from './rollups';
export {
  searchEntry,
  searchExpiredBefore,
  searchFilter,
  searchPipeline,
  sequenceById,
  sequenceIncrement,
} from './search';
export {
  answerIdempotencyUpdate,
  claimIdempotencyUpdate,
  expiredIdempotencyKey,
  type IdempotencyDoc,
  idempotencyExpiredBefore,
  idempotencyKeyById,
  toIdempotencyRecord,
  unansweredIdempotencyKey,
} from './idempotency';
