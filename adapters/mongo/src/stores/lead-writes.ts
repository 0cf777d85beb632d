import type { LeadWrites } from '@leadroute/core';
import type { ClientSession, Collection, MongoClient } from 'mongodb';
import type { MongoCollections } from '../collections';
import { attempt } from '../errors';
import { rollupCell, rollupIncrement, searchEntry, sequenceById, sequenceIncrement } from '../queries';
import { type FieldRollupDoc, fieldRollupCell } from '../queries/field-rollups';
import { eventDocument, leadDocument } from '../records';
import { searchDocument } from '../search-document';

const SEQUENCE = 'search';

/**
 * A lead's records in one multi-document transaction (`session.withTransaction`,
 * which retries a transient conflict): its events, the `$inc` upserts of its rollup
 * and field rollup cells, its search document and the lead are committed together or
 * not at all.
 * Transactions need a replica set or a sharded cluster; a standalone server refuses
 * them, so {@link mongoStorage} only offers this when asked (`transactions: true`).
 */
export function leadWrites(
  client: Pick<MongoClient, 'startSession'>,
  c: Pick<MongoCollections, 'events' | 'leads' | 'rollups' | 'search' | 'sequences'>,
  fieldCells: Pick<Collection<FieldRollupDoc>, 'bulkWrite'>,
): LeadWrites {
  const write = async (session: ClientSession, bundle: Parameters<LeadWrites['commit']>[0]) => {
    if (bundle.events.length > 0)
      await c.events.insertMany(bundle.events.map(eventDocument), { session, ordered: true });
    if (bundle.rollups.length > 0) {
      const writes = bundle.rollups.map((row) => ({
        updateOne: { filter: rollupCell(row), update: rollupIncrement(row), upsert: true },
      }));
      await c.rollups.bulkWrite(writes, { session, ordered: true });
    }
    if (bundle.fieldRollups && bundle.fieldRollups.length > 0) {
      const writes = bundle.fieldRollups.map((row) => ({
        updateOne: { filter: fieldRollupCell(row), update: rollupIncrement(row), upsert: true },
      }));
      await fieldCells.bulkWrite(writes, { session, ordered: true });
    }
    if (bundle.search) {
      const doc = bundle.search;
      const sequence = await c.sequences.findOneAndUpdate(sequenceById(SEQUENCE), sequenceIncrement(), {
        upsert: true,
        returnDocument: 'after',
        session,
      });
      if (sequence === null) throw new Error('the search sequence came back empty');
      await c.search.replaceOne(searchEntry(doc.account_id, doc.lead_id), searchDocument(doc, sequence.value), {
        upsert: true,
        session,
      });
    }
    if (bundle.lead) await c.leads.insertOne(leadDocument(bundle.lead), { session });
  };
  return {
    commit: (bundle) =>
      attempt('commit lead', async () => {
        const session = client.startSession();
        try {
          await session.withTransaction(() => write(session, bundle));
        } finally {
          await session.endSession();
        }
      }),
  };
}
