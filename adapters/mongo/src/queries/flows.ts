import type { Filter } from 'mongodb';
import type { FlowDoc, LeadDoc } from '../records';
import type { FindQuery } from './types';

/** The flow with this ID (the primary index). */
export const flowById = (id: string): Filter<FlowDoc> => ({ _id: id });

/** The account's flows, oldest first: IDs grow with creation time. */
export const flowsByAccount = (accountId: string): FindQuery<FlowDoc> => ({
  filter: { account_id: accountId },
  sort: { _id: 1 },
});

/** The flow only while it is at `expectedVersion`: of two updates from one version, one matches. */
export const flowAtVersion = (id: string, expectedVersion: number): Filter<FlowDoc> => ({
  _id: id,
  version: expectedVersion,
});

/** The lead with this ID (the primary index). */
export const leadById = (id: string): Filter<LeadDoc> => ({ _id: id });

/** Points the lead at its newest event. */
export const latestEventUpdate = (eventId: string) => ({ $set: { latest_event_id: eventId } });

/** The lead only while it is not returned: the one update that matches it is the one return that counts. */
export const unreturnedLead = (id: string): Filter<LeadDoc> => ({ _id: id, returned_at: null });

/** Marks the lead returned at `at`. */
export const returnedUpdate = (at: Date) => ({ $set: { returned_at: at } });

/** Leads that expired before `before`. */
export const leadsExpiredBefore = (before: Date): Filter<LeadDoc> => ({ expires_at: { $lt: before } });
