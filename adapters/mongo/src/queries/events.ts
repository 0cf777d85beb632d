import type { EventStoreQuery } from '@leadroute/core';
import type { Filter } from 'mongodb';
import type { EventDoc } from '../records';
import { type FindQuery, type PageQuery, pageSize } from './types';

/** The event with this ID (the primary index). */
export const eventById = (id: string): Filter<EventDoc> => ({ _id: id });

/**
 * One page of the account's live events in ID order. IDs are 24-hex strings of one
 * case, so string order is ID order; `events_account_id` (or `events_account_lead_id`
 * for one lead) serves the equality and the range together.
 */
export function eventPage(q: EventStoreQuery, liveAt: Date): PageQuery<EventDoc> {
  const id = {
    ...(q.after_id === undefined ? {} : { $gt: q.after_id }),
    ...(q.before_id === undefined ? {} : { $lt: q.before_id }),
  };
  const start = { ...(q.start === undefined ? {} : { $gte: q.start }), ...(q.end === undefined ? {} : { $lt: q.end }) };
  return {
    filter: {
      account_id: q.account_id,
      expires_at: { $gt: liveAt },
      ...(Object.keys(id).length > 0 ? { _id: id } : {}),
      ...(Object.keys(start).length > 0 ? { start_timestamp: start } : {}),
      ...(q.types === undefined ? {} : { type: { $in: [...q.types] } }),
      ...(q.lead_id === undefined ? {} : { lead_id: q.lead_id }),
      ...(q.flow_id === undefined ? {} : { flow_id: q.flow_id }),
    },
    sort: { _id: q.sort === 'asc' ? 1 : -1 },
    limit: pageSize(q.limit),
  };
}

/** Live events carrying this recipient reference, across accounts, newest first (`events_key_id`). */
export const eventsByReference = (reference: string, liveAt: Date): FindQuery<EventDoc> => ({
  filter: { key: reference, expires_at: { $gt: liveAt } },
  sort: { _id: -1 },
});

/** Events that expired before `before` (the TTL index deletes them too, within a minute or so of expiry). */
export const eventsExpiredBefore = (before: Date): Filter<EventDoc> => ({ expires_at: { $lt: before } });
