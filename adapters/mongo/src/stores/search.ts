import type { SearchIndex } from '@leadroute/core';
import type { MongoCollections } from '../collections';
import { toDate } from '../documents';
import { attempt } from '../errors';
import { pageSize } from '../queries/types';
import { searchEntry, searchExpiredBefore, searchPipeline, sequenceById, sequenceIncrement } from '../queries';
import type { SearchDoc } from '../records-work';
import { searchDocument, toSearchDocument } from '../search-document';

const SEQUENCE = 'search';

/** What the search pipeline's `$facet` answers. */
interface SearchFacets {
  total: { n: number }[];
  page: Pick<SearchDoc, 'document'>[];
}

/**
 * The lead search index: one document per (account, lead) holding core's normalized
 * terms in an array with a multikey index, so each query term is an anchored prefix
 * regex the server answers from index bounds. Phrase tokens must be whole terms, and
 * phrases are then checked on the normalized `phrase_text`. Each (re)indexing takes
 * the next number of a sequence, the "newest first" order of the other adapters.
 */
export function searchIndex(c: Pick<MongoCollections, 'search' | 'sequences'>): SearchIndex {
  return {
    index: (doc) =>
      attempt('index lead for search', async () => {
        const sequence = await c.sequences.findOneAndUpdate(sequenceById(SEQUENCE), sequenceIncrement(), {
          upsert: true,
          returnDocument: 'after',
        });
        if (sequence === null) throw new Error('the search sequence came back empty');
        await c.search.replaceOne(searchEntry(doc.account_id, doc.lead_id), searchDocument(doc, sequence.value), {
          upsert: true,
        });
      }),
    search: (q) =>
      attempt('search leads', async () => {
        const [facets] = await c.search.aggregate<SearchFacets>(searchPipeline(q), { allowDiskUse: true }).toArray();
        return {
          total: facets?.total[0]?.n ?? 0,
          documents: (facets?.page ?? []).slice(0, pageSize(q.limit)).map((d) => toSearchDocument(d as SearchDoc)),
        };
      }),
    purgeExpired: (before) =>
      attempt('purge expired search documents', () => c.search.deleteMany(searchExpiredBefore(toDate(before)))).map(
        ({ deletedCount }) => deletedCount,
      ),
  };
}
