import {
  parseSearchText,
  type RollupRow,
  type SearchDocument,
  type SearchIndexQuery,
  type SearchSortField,
} from '@leadroute/core';
import { memoryStorage } from '@leadroute/memory';
import { aRollupRow, aSearchDocument, freshId } from '@leadroute/testkit';
import { describe, expect, it } from 'vitest';
import { aggregate, deleteMany, find, findOneAndUpdate, replaceOne, upsertOne } from '../mingo.test-helper';
import {
  activeAccountsPipeline,
  rollupCell,
  rollupIncrement,
  rollupPipeline,
  searchEntry,
  searchExpiredBefore,
  searchFilter,
  searchPipeline,
  sequenceById,
  sequenceIncrement,
} from '../queries';
import { type RollupDoc, type SearchDoc, type SequenceDoc, toRollupRow } from '../records-work';
import { searchDocument, toSearchDocument } from '../search-document';
import type { Checks } from './checks';

const row = (over: Partial<RollupRow>): RollupRow => aRollupRow('a'.repeat(24), { source_id: 's'.repeat(24), ...over });

/** What the store's `add` sends: one `$inc` upsert per row. */
const add = (docs: RollupDoc[], rows: readonly RollupRow[]) => {
  for (const r of rows) upsertOne(docs, rollupCell(r), rollupIncrement(r));
};

/** A search index of documents made by the adapter, indexed as the store does (the sequence, then the upsert). */
function mingoSearch() {
  const docs: SearchDoc[] = [];
  const sequences: SequenceDoc[] = [];
  return {
    docs,
    index(doc: SearchDocument) {
      upsertOne(sequences, sequenceById('search'), sequenceIncrement());
      const seq = find(sequences, sequenceById('search'))[0]!.value;
      replaceOne(docs, searchEntry(doc.account_id, doc.lead_id), searchDocument(doc, seq), true);
    },
    search(q: SearchIndexQuery) {
      const [facets] = aggregate<{ total: { n: number }[]; page: { document: SearchDoc['document'] }[] }>(
        docs,
        searchPipeline(q),
      );
      return {
        total: facets?.total[0]?.n ?? 0,
        documents: (facets?.page ?? []).slice(0, Math.max(0, q.limit)).map((d) => toSearchDocument(d as SearchDoc)),
      };
    },
  };
}

/** Rollups and search: their pipelines run by mingo's Aggregator. */
export function statsChecks(checks: Checks): void {
  describe('rollup queries', () => {
    it('rollupCell and rollupIncrement sum rows into one document per cell, creating cells as needed', () => {
      checks('rollupCell', 'rollupIncrement');
      const docs: RollupDoc[] = [];
      add(docs, [row({ count: 2, cost: 1.5 }), row({ revenue: 10, purchase_price: 3 }), row({ outcome: 'failure' })]);
      add(docs, [row({ count: 1, cost: 0.25 })]);
      expect(docs).toHaveLength(2);
      expect(toRollupRow(docs[0]!)).toEqual(row({ count: 4, cost: 1.75, revenue: 10, purchase_price: 3 }));
      // Written with an offset, the same hour is the same cell.
      add(docs, [row({ hour: '2026-03-08T08:00:00.000+01:00' })]);
      expect(docs).toHaveLength(2);
    });

    it('rollupPipeline answers one account’s cells in [from, to) by hour then cell, optionally of some kinds or one flow', () => {
      checks('rollupPipeline');
      const docs: RollupDoc[] = [];
      const other = 'b'.repeat(24);
      add(docs, [
        row({ hour: '2026-03-08T09:00:00.000Z', kind: 'recipient', recipient_id: 'r2' }),
        row({ hour: '2026-03-08T09:00:00.000Z', kind: 'recipient', recipient_id: 'r1' }),
        row({ hour: '2026-03-08T08:00:00.000Z' }),
        row({ hour: '2026-03-08T07:00:00.000Z', flow_id: 'e'.repeat(24) }),
        row({ hour: '2026-03-08T10:00:00.000Z' }),
        row({ account_id: other, hour: '2026-03-08T08:00:00.000Z' }),
      ]);
      const q = { account_id: 'a'.repeat(24), from: '2026-03-08T07:00:00.000Z', to: '2026-03-08T10:00:00.000Z' };
      const rows = aggregate<RollupDoc>(docs, rollupPipeline(q)).map(toRollupRow);
      expect(rows.map((r) => [r.hour.slice(11, 13), r.flow_id[0], r.recipient_id])).toEqual([
        ['07', 'e', ''],
        ['08', 'f', ''],
        ['09', 'f', 'r1'],
        ['09', 'f', 'r2'],
      ]);
      expect(aggregate(docs, rollupPipeline(q))[0]).not.toHaveProperty('_id');
      expect(
        aggregate<RollupDoc>(docs, rollupPipeline({ ...q, kinds: ['recipient'] })).map((r) => r.recipient_id),
      ).toEqual(['r1', 'r2']);
      expect(aggregate<RollupDoc>(docs, rollupPipeline({ ...q, kinds: [] }))).toEqual([]);
      expect(aggregate<RollupDoc>(docs, rollupPipeline({ ...q, flow_id: 'e'.repeat(24) }))).toHaveLength(1);
    });

    it('activeAccountsPipeline names each account with a cell in [from, to) once, in order', () => {
      checks('activeAccountsPipeline');
      const docs: RollupDoc[] = [];
      add(docs, [
        row({ account_id: 'c'.repeat(24) }),
        row({ account_id: 'a'.repeat(24) }),
        row({ account_id: 'a'.repeat(24), kind: 'ping' }),
        row({ account_id: 'b'.repeat(24), hour: '2026-03-08T08:00:00.000Z' }),
      ]);
      expect(aggregate(docs, activeAccountsPipeline('2026-03-08T07:00:00.000Z', '2026-03-08T08:00:00.000Z'))).toEqual([
        { account_id: 'a'.repeat(24) },
        { account_id: 'c'.repeat(24) },
      ]);
    });
  });

  describe('search queries', () => {
    const account = freshId();
    const corpus: SearchDocument[] = [
      aSearchDocument(account, {
        first_name: 'John',
        last_name: 'Smith',
        city: 'Austin',
        email: 'jsmith@example.com',
        phone_1: '(555) 123-4567',
      }),
      aSearchDocument(account, { first_name: 'Jane', last_name: 'Smithers', city: 'Boston', state: 'MA' }),
      aSearchDocument(account, { first_name: 'Bob', last_name: 'Jones', city: 'Austin', address_1: '12 New York Ave' }),
      aSearchDocument(account, { first_name: 'Zoë', last_name: 'Smith', city: 'New York', postal_code: '10001' }),
      aSearchDocument(account, { first_name: 'Ann', last_name: 'Yorke', city: 'Newark', reference: 'REF-9' }),
      aSearchDocument(account, { first_name: 'smith', city: 'Austin' }),
      aSearchDocument(freshId(), { first_name: 'John', last_name: 'Smith' }),
    ];
    const texts = [
      '',
      'smith',
      'sm',
      'john smith',
      'aus',
      '"new york"',
      '"york"',
      'new',
      '555 123',
      '5551234567',
      'zoe',
      'nope',
      'ref 9',
      '"smith" aus',
      'j s',
    ];
    const sorts: (SearchIndexQuery['sort'] | undefined)[] = [
      undefined,
      { field: 'last_name', dir: 'asc' },
      { field: 'last_name', dir: 'desc' },
      { field: 'city', dir: 'asc' },
      { field: 'lead_id' as SearchSortField, dir: 'desc' },
    ];

    it('searchPipeline and searchFilter answer as the memory index does: matches, order, total and pages', async () => {
      checks('searchPipeline', 'searchFilter', 'searchEntry', 'sequenceById', 'sequenceIncrement');
      const mongo = mingoSearch();
      const memory = memoryStorage().search;
      // One lead indexed twice: the second indexing replaces it and makes it the newest.
      for (const doc of [...corpus, corpus[0]!]) {
        mongo.index(doc);
        (await memory.index(doc))._unsafeUnwrap();
      }
      expect(mongo.docs).toHaveLength(corpus.length);
      let compared = 0;
      for (const text of texts) {
        for (const sort of sorts) {
          for (const [from, limit] of [
            [0, 100],
            [1, 2],
            [0, 0],
            [10, 5],
          ] as const) {
            const parsed = parseSearchText(text);
            const q: SearchIndexQuery = {
              account_id: account,
              terms: parsed.terms,
              phrases: parsed.phrases,
              from,
              limit,
              ...(sort ? { sort } : {}),
            };
            const expected = (await memory.search(q))._unsafeUnwrap();
            const got = mongo.search(q);
            expect({ text, sort, from, limit, total: got.total, ids: got.documents.map((d) => d.lead_id) }).toEqual({
              text,
              sort,
              from,
              limit,
              total: expected.total,
              ids: expected.documents.map((d) => d.lead_id),
            });
            compared += got.total;
          }
        }
      }
      // The comparison found something to compare.
      expect(compared).toBeGreaterThan(100);
      expect(
        find(mongo.docs, searchFilter({ account_id: account, terms: ['smi'], phrases: [], from: 0, limit: 10 })).length,
      ).toBe(4);
      expect(mongo.search({ account_id: account, terms: ['john'], phrases: [], from: 0, limit: 10 }).documents).toEqual(
        [corpus[0]],
      );
    });

    it('searchExpiredBefore forgets only leads expired before the instant', () => {
      checks('searchExpiredBefore');
      const mongo = mingoSearch();
      mongo.index(aSearchDocument(account, { first_name: 'Old' }, { expires_at: '2026-01-01T00:00:00.000Z' }));
      mongo.index(aSearchDocument(account, { first_name: 'New' }, { expires_at: '2026-09-01T00:00:00.000Z' }));
      expect(deleteMany(mongo.docs, searchExpiredBefore(new Date('2026-06-01T00:00:00.000Z')))).toEqual({
        deletedCount: 1,
      });
      expect(mongo.docs.map((d) => d.document.fields.first_name)).toEqual(['New']);
      expect(
        findOneAndUpdate(mongo.docs, searchEntry(account, mongo.docs[0]!.document.lead_id), { $set: { seq: 0 } })?.seq,
      ).toBe(0);
    });
  });
}
