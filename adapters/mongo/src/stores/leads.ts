import type { LeadStore } from '@leadroute/core';
import type { MongoCollections } from '../collections';
import { toDate } from '../documents';
import { attempt } from '../errors';
import { latestEventUpdate, leadById, leadsExpiredBefore, returnedUpdate, unreturnedLead } from '../queries';
import { leadDocument, toLead } from '../records';

/**
 * Leads by `_id`. `markReturned` is one conditional update on `returned_at: null`:
 * the server applies it to the document once, so of any number of concurrent
 * returns exactly one matches.
 */
export function leadStore(c: Pick<MongoCollections, 'leads'>): LeadStore {
  return {
    insert: (lead) => attempt('insert lead', () => c.leads.insertOne(leadDocument(lead))).map(() => undefined),
    get: (id) =>
      attempt('get lead', async () => {
        const doc = await c.leads.findOne(leadById(id));
        return doc ? toLead(doc) : undefined;
      }),
    setLatestEvent: (id, eventId) =>
      attempt('set latest event', () => c.leads.updateOne(leadById(id), latestEventUpdate(eventId))).map(
        () => undefined,
      ),
    markReturned: (id, at) =>
      attempt('mark lead returned', () => c.leads.updateOne(unreturnedLead(id), returnedUpdate(toDate(at)))).map(
        ({ matchedCount }) => matchedCount > 0,
      ),
    purgeExpired: (before) =>
      attempt('purge expired leads', () => c.leads.deleteMany(leadsExpiredBefore(toDate(before)))).map(
        ({ deletedCount }) => deletedCount,
      ),
  };
}
