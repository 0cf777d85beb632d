import type { LeadWriteBundle, LeadWrites } from '@leadroute/core';
import { oneStatement, type Plan, type Statement, type WriteKind, type Writer } from '../batch/writer';
import { qualified } from '../sql';
import { insertEvents } from './events';
import { addFieldRollupDays, addFieldRollups } from './field-rollups';
import { insertLeads } from './leads';
import { addRollups } from './rollups';
import { indexDocuments } from './search';

/**
 * Committing leads' bundles: every bundle in the batch shares one write per kind of
 * record (rollups, field rollups, search documents, events, leads), and these are
 * one statement (see {@link oneStatement}): one round trip and one commit for the
 * whole batch, atomic as a transaction is. (Should a kind need two statements, as
 * search documents do when the batch indexes one lead twice, they go one after the
 * other in one transaction instead.) A bundle is one write to the group commit: when
 * a batch is refused, each bundle is made again alone, so a refused row fails its
 * own lead whole and no other.
 */
export const commitLeadBundles = (schema: string): WriteKind<LeadWriteBundle, undefined> => {
  const tables = {
    rollups: qualified(schema, 'rollups'),
    fieldRollups: qualified(schema, 'field_rollups'),
    fieldRollupDays: qualified(schema, 'field_rollup_days'),
    search: qualified(schema, 'search_documents'),
    events: qualified(schema, 'events'),
    leads: qualified(schema, 'leads'),
  };
  const rollups = addRollups(tables.rollups);
  const fieldRollups = addFieldRollups(tables.fieldRollups);
  const fieldRollupDays = addFieldRollupDays(tables.fieldRollupDays);
  const search = indexDocuments(tables.search);
  const events = insertEvents(tables.events);
  const leads = insertLeads(tables.leads);
  return {
    what: 'commit lead',
    plan: (bundles): Plan<undefined> => {
      const rows = bundles.flatMap((b) => (b.rollups.length > 0 ? [b.rollups] : []));
      const fieldRows = bundles.flatMap((b) => (b.fieldRollups && b.fieldRollups.length > 0 ? [b.fieldRollups] : []));
      const docs = bundles.flatMap((b) => (b.search ? [b.search] : []));
      const stored = bundles.flatMap((b) => b.events);
      const records = bundles.flatMap((b) => (b.lead ? [b.lead] : []));
      const on = (table: string, statements: readonly Statement[]) => statements.map((st) => ({ ...st, table }));
      // Rollups first, in cell order as every batch takes them, so concurrent batches lock cells in one order.
      const parts = [
        ...(rows.length > 0 ? on(tables.rollups, rollups.plan(rows).statements) : []),
        ...(fieldRows.length > 0 ? on(tables.fieldRollups, fieldRollups.plan(fieldRows).statements) : []),
        // The same rows by UTC day, always beside the hourly ones (#22.6).
        ...(fieldRows.length > 0 ? on(tables.fieldRollupDays, fieldRollupDays.plan(fieldRows).statements) : []),
        ...(docs.length > 0 ? on(tables.search, search.plan(docs).statements) : []),
        ...(stored.length > 0 ? on(tables.events, events.plan(stored).statements) : []),
        ...(records.length > 0 ? on(tables.leads, leads.plan(records).statements) : []),
      ];
      const one = oneStatement(parts);
      const statements: Statement[] = one ? [one] : parts.map(({ text, values }) => ({ text, values }));
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
