import type { LeadWriteBundle, LeadWrites, RollupRow } from '@leadroute/core';
import { oneStatement, type Plan, type Statement, type WriteKind, type Writer } from '../batch/writer';
import { qualified } from '../sql';
import { insertEvents } from './events';
import { addFieldRollupDays, addFieldRollups } from './field-rollups';
import { insertLeads } from './leads';
import { addRollups, ROLLUP_CELL } from './rollups';
import { indexDocuments } from './search';

/** A cell's key: its columns, each with its length before it (so no two cells share one); a field's null apart from ''. */
function keyOf(row: RollupRow & { readonly field?: string; readonly value?: string | null }): string {
  let key =
    row.field === undefined
      ? ''
      : `${row.field.length}:${row.field}${row.value === null ? '-' : `${row.value?.length}:${row.value}`}`;
  for (const column of ROLLUP_CELL) {
    const value = row[column];
    key += `${value.length}:${value}`;
  }
  return key;
}

/**
 * A batch's rows with the rows of each cell summed into one. The statement would sum them as well, but the leads of a
 * batch mostly add to the same few cells (16 leads through one flow: 64 rollup rows, 4 cells), and every row left out
 * is a row less to encode, send and unnest.
 */
export function summed<R extends RollupRow>(rows: readonly R[]): R[] {
  const cells = new Map<string, { row: R; count: number; cost: number; revenue: number; purchase_price: number }>();
  for (const row of rows) {
    const key = keyOf(row);
    const sum = cells.get(key);
    if (sum === undefined) cells.set(key, { row, ...pick(row) });
    else {
      sum.count += row.count;
      sum.cost += row.cost;
      sum.revenue += row.revenue;
      sum.purchase_price += row.purchase_price;
    }
  }
  const out: R[] = [];
  for (const { row, ...sums } of cells.values())
    out.push(
      sums.count === row.count &&
        sums.cost === row.cost &&
        sums.revenue === row.revenue &&
        sums.purchase_price === row.purchase_price
        ? row
        : { ...row, ...sums },
    );
  return out;
}

const pick = (row: RollupRow) => ({
  count: row.count,
  cost: row.cost,
  revenue: row.revenue,
  purchase_price: row.purchase_price,
});

/**
 * Committing leads' bundles: every bundle in the batch shares one write per kind of
 * record (rollups and field rollups, each cell's rows summed into one row first;
 * search documents, events, leads), and these are
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
      const rows = summed(bundles.flatMap((b) => b.rollups));
      const fieldRows = summed(bundles.flatMap((b) => b.fieldRollups ?? []));
      const docs = bundles.flatMap((b) => (b.search ? [b.search] : []));
      const stored = bundles.flatMap((b) => b.events);
      const records = bundles.flatMap((b) => (b.lead ? [b.lead] : []));
      const on = (table: string, statements: readonly Statement[]) => statements.map((st) => ({ ...st, table }));
      // Rollups first, in cell order as every batch takes them, so concurrent batches lock cells in one order.
      const parts = [
        ...(rows.length > 0 ? on(tables.rollups, rollups.plan([rows]).statements) : []),
        ...(fieldRows.length > 0 ? on(tables.fieldRollups, fieldRollups.plan([fieldRows]).statements) : []),
        // The same rows by UTC day, always beside the hourly ones (#22.6).
        ...(fieldRows.length > 0 ? on(tables.fieldRollupDays, fieldRollupDays.plan([fieldRows]).statements) : []),
        ...(docs.length > 0 ? on(tables.search, search.plan(docs).statements) : []),
        ...(stored.length > 0 ? on(tables.events, events.plan(stored).statements) : []),
        ...(records.length > 0 ? on(tables.leads, leads.plan(records).statements) : []),
      ];
      const one = oneStatement(parts);
      const statements: Statement[] = one ? [one] : parts.map(({ table: _, ...statement }) => statement);
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
