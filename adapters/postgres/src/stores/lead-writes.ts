import type { LeadWriteBundle, LeadWrites } from '@leadroute/core';
import type { Plan, Statement, WriteKind, Writer } from '../batch/writer';
import { qualified } from '../sql';
import { insertEvents } from './events';
import { insertLeads } from './leads';
import { addRollups } from './rollups';
import { indexDocuments } from './search';

/**
 * Committing leads' bundles: every bundle in the batch shares one statement per
 * kind of record (rollups, search documents, events, leads), all in the batch's one
 * transaction, so a lead costs no more round trips than its writes did one by one.
 * A bundle is one write to the group commit: when a batch is refused, each bundle
 * is made again alone, in a transaction of its own, so a refused row fails its own
 * lead whole and no other.
 */
export const commitLeadBundles = (schema: string): WriteKind<LeadWriteBundle, undefined> => {
  const rollups = addRollups(qualified(schema, 'rollups'));
  const search = indexDocuments(qualified(schema, 'search_documents'));
  const events = insertEvents(qualified(schema, 'events'));
  const leads = insertLeads(qualified(schema, 'leads'));
  return {
    what: 'commit lead',
    plan: (bundles): Plan<undefined> => {
      const rows = bundles.flatMap((b) => (b.rollups.length > 0 ? [b.rollups] : []));
      const docs = bundles.flatMap((b) => (b.search ? [b.search] : []));
      const stored = bundles.flatMap((b) => b.events);
      const records = bundles.flatMap((b) => (b.lead ? [b.lead] : []));
      // Rollups first, in cell order as every batch takes them, so concurrent batches lock cells in one order.
      const statements: Statement[] = [
        ...(rows.length > 0 ? rollups.plan(rows).statements : []),
        ...(docs.length > 0 ? search.plan(docs).statements : []),
        ...(stored.length > 0 ? events.plan(stored).statements : []),
        ...(records.length > 0 ? leads.plan(records).statements : []),
      ];
      return { statements, answers: () => bundles.map(() => undefined) };
    },
  };
};

/**
 * A lead's records as one unit (see {@link commitLeadBundles}). `writer` must send a
 * write's statements in one transaction, as the group commit does: one transaction
 * per lead, or per batch of leads.
 */
export function leadWrites(schema: string, writer: Writer): LeadWrites {
  const commit = commitLeadBundles(schema);
  return { commit: (bundle) => writer.write(commit, bundle) };
}
