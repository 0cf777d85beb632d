import {
  errors,
  type EventStore,
  type FieldRollupStore,
  type LeadStore,
  type LeadWrites,
  type RollupStore,
  type SearchIndex,
  type StoreError,
} from '@leadroute/core';
import { errAsync } from 'neverthrow';
import { DONE } from './done';
import { type MemoryTables, sharingCopies } from './tables';

/**
 * A lead's records as one unit: every check (no ID taken, none twice in the bundle)
 * is made before anything is written, and nothing between the first write and the
 * last yields to the event loop, so no reader ever sees part of a lead and a
 * refused bundle leaves nothing behind. (Values are copied as they are stored; a
 * value the copy refuses, a class instance holding a function, is a programmer error.)
 */
export function memoryLeadWrites(
  t: MemoryTables,
  stores: {
    events: EventStore;
    leads: LeadStore;
    rollups: RollupStore;
    fieldRollups: FieldRollupStore;
    search: SearchIndex;
  },
): LeadWrites {
  const conflict = (message: string) => errAsync(errors.conflict(message) as StoreError);
  return {
    commit(bundle) {
      const ids = new Set<string>();
      for (const event of bundle.events) {
        if (t.events.has(event.id) || ids.has(event.id)) return conflict('event exists');
        ids.add(event.id);
      }
      if (bundle.lead && t.leads.has(bundle.lead.id)) return conflict('lead exists');
      // The stores write (and copy) when called and answer with settled results, so these writes run back to back.
      // One copy of each object the lead's records share (its fields, source, flow).
      sharingCopies(() => {
        for (const event of bundle.events) void stores.events.insert(event);
        if (bundle.lead) void stores.leads.insert(bundle.lead);
      });
      if (bundle.rollups.length > 0) void stores.rollups.add(bundle.rollups);
      if (bundle.fieldRollups && bundle.fieldRollups.length > 0) void stores.fieldRollups.add(bundle.fieldRollups);
      if (bundle.search) void stores.search.index(bundle.search);
      return DONE;
    },
  };
}
