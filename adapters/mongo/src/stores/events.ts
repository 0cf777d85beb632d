import type { EventStore } from '@leadroute/core';
import type { MongoCollections } from '../collections';
import { toDate } from '../documents';
import { attempt } from '../errors';
import { eventById, eventPage, eventsByReference, eventsExpiredBefore } from '../queries';
import { eventDocument, toEvent } from '../records';

/**
 * Event records, append-only. The TTL index `events_expires_ttl` deletes an event
 * once its `expires_at` has passed (the 90-day retention), and every read also
 * requires `expires_at` after the caller's instant, so an event the TTL monitor has
 * not reached yet is never answered.
 */
export function eventStore(c: Pick<MongoCollections, 'events'>): EventStore {
  return {
    insert: (event) => attempt('insert event', () => c.events.insertOne(eventDocument(event))).map(() => undefined),
    get: (id) =>
      attempt('get event', async () => {
        const doc = await c.events.findOne(eventById(id));
        return doc ? toEvent(doc) : undefined;
      }),
    query: (q) =>
      attempt('query events', async () => {
        const { filter, sort, limit } = eventPage(q, toDate(q.live_at));
        if (limit === 0) return [];
        return (await c.events.find(filter).sort(sort).limit(limit).toArray()).map(toEvent);
      }),
    findByReference: (q) =>
      attempt('find events by reference', async () => {
        const { filter, sort } = eventsByReference(q.reference, toDate(q.live_at));
        // The recipient is inside the body: `events_key_id` narrows to the few deliveries with this reference first.
        return (await c.events.find(filter).sort(sort).toArray())
          .map(toEvent)
          .filter((e) => q.recipient_id === undefined || e.recipient_id === q.recipient_id);
      }),
    purgeExpired: (before) =>
      attempt('purge expired events', () => c.events.deleteMany(eventsExpiredBefore(toDate(before)))).map(
        ({ deletedCount }) => deletedCount,
      ),
  };
}
