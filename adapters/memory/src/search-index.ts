import {
  fieldTerms,
  normalizeText,
  SEARCH_FIELDS,
  type SearchDocument,
  type SearchIndex,
  type SearchIndexQuery,
  type SearchSortField,
} from '@leadroute/core';
import SearchableMap from 'minisearch/SearchableMap';
import { okAsync } from 'neverthrow';
import { countMembers, intersect, NO_POSTINGS, type Postings, union } from './search/postings';
import { addPhrases, holdsPhrase, type PhraseStore, phraseIds, phraseStore } from './search/phrases';
import { buildOrder, firstInOrder, type SortKey, type SortOrder } from './search/sort-order';

/**
 * Prefixes up to this length keep their own posting lists, so a one- or
 * two-letter term (which would expand to thousands of terms) is one lookup.
 * Longer prefixes expand through the radix tree, where they match few terms.
 */
const SHORT = 3;
/** New leads wait in a small unsorted tail until there are this many; then each sort order is rebuilt. */
const TAIL = 2048;

interface Entry {
  readonly doc: SearchDocument;
  /** The lead's distinct terms. */
  readonly terms: readonly string[];
  readonly sortKeys: Readonly<Record<SearchSortField, string>>;
}

/** One account's index. Documents are numbered in the order indexed (newest highest); lists hold numbers ascending. */
interface AccountIndex {
  readonly entries: (Entry | undefined)[];
  readonly byLead: Map<string, number>;
  /** Whole term → documents. */
  readonly terms: Map<string, number[]>;
  /** The same lists in MiniSearch's radix tree, for prefix ranges without scanning every term. */
  readonly dictionary: SearchableMap<number[]>;
  /** Prefix of up to {@link SHORT} characters → documents with a term starting so. */
  readonly short: Map<string, number[]>;
  readonly all: number[];
  /** Each document's words as phrases match them. */
  readonly phrases: PhraseStore;
  readonly orders: Map<SearchSortField, SortOrder>;
  dead: number;
}

/** The memory search index's backing map: one index per account, so no query can reach another account's leads. */
export type SearchTable = Map<string, AccountIndex>;

function emptyIndex(): AccountIndex {
  return { entries: [], byLead: new Map(), terms: new Map(), dictionary: new SearchableMap(), short: new Map(), all: [], phrases: phraseStore(), orders: new Map(), dead: 0 };
}

function entryOf(doc: SearchDocument): Entry {
  const terms = new Set<string>([doc.lead_id.toLowerCase()]);
  for (const field of SEARCH_FIELDS) for (const t of fieldTerms(field, doc.fields[field])) terms.add(t);
  const sortKeys = { lead_id: doc.lead_id, submission_timestamp: doc.submission_timestamp } as Record<SearchSortField, string>;
  for (const field of SEARCH_FIELDS) sortKeys[field] = normalizeText(doc.fields[field]).trim();
  return { doc, terms: [...terms], sortKeys };
}

/** Appends `n` to the list, once: a document's postings are added together, so a repeat is the list's last number. */
function post(list: number[], n: number): void {
  if (list[list.length - 1] !== n) list.push(n);
}

function add(ix: AccountIndex, entry: Entry): void {
  const prior = ix.byLead.get(entry.doc.lead_id);
  if (prior !== undefined) {
    ix.entries[prior] = undefined;
    ix.dead++;
  }
  const n = ix.entries.length;
  ix.entries.push(entry);
  ix.byLead.set(entry.doc.lead_id, n);
  ix.all.push(n);
  addPhrases(ix.phrases, entry.doc);
  for (const term of entry.terms) {
    let list = ix.terms.get(term);
    if (!list) {
      list = [];
      ix.terms.set(term, list);
      ix.dictionary.set(term, list);
    }
    post(list, n);
    for (let i = 1; i <= Math.min(SHORT, term.length); i++) {
      const prefix = term.slice(0, i);
      let short = ix.short.get(prefix);
      if (!short) ix.short.set(prefix, (short = []));
      post(short, n);
    }
  }
}

/** Rebuilds without the forgotten documents once they are a quarter of the lists. */
function compact(ix: AccountIndex): AccountIndex {
  if (ix.dead * 4 < ix.entries.length) return ix;
  const fresh = emptyIndex();
  for (const e of ix.entries) if (e) add(fresh, e);
  return fresh;
}

/** Documents with a term starting with `prefix`, ascending. */
function prefixList(ix: AccountIndex, prefix: string): Postings {
  if (prefix.length <= SHORT) return ix.short.get(prefix) ?? NO_POSTINGS;
  const lists: number[][] = [];
  for (const [, list] of ix.dictionary.atPrefix(prefix)) lists.push(list);
  return union(lists);
}

/** The live documents matching every term and phrase, ascending. */
function matches(ix: AccountIndex, q: SearchIndexQuery): Postings {
  const lists: Postings[] = q.terms.map((t) => prefixList(ix, t));
  for (const p of q.phrases) for (const t of p.tokens) lists.push(ix.terms.get(t) ?? NO_POSTINGS);
  if (lists.length === 0) lists.push(ix.all);
  lists.sort((a, b) => a.length - b.length);
  let found = lists[0] as Postings;
  for (let i = 1; i < lists.length && found.length > 0; i++) found = intersect(found, lists[i] as Postings);
  // Nothing forgotten and no phrase: the intersection is the answer (a one-term query is one list, however short the term).
  if (q.phrases.length === 0 && ix.dead === 0) return found;
  // Phrases are checked last, on the smallest candidate set (each token is already a term of every candidate).
  const phrases: Uint32Array[] = [];
  for (const p of q.phrases) {
    const ids = phraseIds(ix.phrases, p);
    if (!ids) return NO_POSTINGS;
    phrases.push(ids);
  }
  const out: number[] = [];
  for (let i = 0; i < found.length; i++) {
    const n = found[i] as number;
    if (ix.entries[n] === undefined) continue;
    let holds = true;
    for (let j = 0; j < phrases.length && holds; j++) holds = holdsPhrase(ix.phrases, n, phrases[j] as Uint32Array);
    if (holds) out.push(n);
  }
  return out;
}

/**
 * Relevance: how many terms match a whole term of the lead (a prefix match scores
 * less), then newest first. Each term's whole-term list is merged with the
 * matches to count; scores are small integers, so the page is read off per-score
 * passes from the newest match down, stopping once it is full: no sort.
 */
function byRelevance(ix: AccountIndex, q: SearchIndexQuery, found: Postings, k: number): number[] {
  const score = new Uint16Array(found.length);
  const perScore = new Uint32Array(q.terms.length + 1);
  for (const term of q.terms) {
    const exact = ix.terms.get(term);
    if (exact) countMembers(found, exact, score);
  }
  for (let i = 0; i < score.length; i++) perScore[score[i] as number] = (perScore[score[i] as number] as number) + 1;
  const out: number[] = [];
  for (let s = q.terms.length; s >= 0 && out.length < k; s--) {
    if (perScore[s] === 0) continue;
    for (let i = found.length - 1; i >= 0 && out.length < k; i--) if (score[i] === s) out.push(found[i] as number);
  }
  return out;
}

const docCopy = (d: SearchDocument): SearchDocument => ({ ...d, fields: { ...d.fields } });

/** The field's order over every document, rebuilt once {@link TAIL} documents came after it. */
function orderOf(ix: AccountIndex, field: SearchSortField, key: SortKey): SortOrder {
  const prior = ix.orders.get(field);
  if (prior && ix.entries.length - prior.built < TAIL) return prior;
  const order = buildOrder(ix.entries.length, key);
  ix.orders.set(field, order);
  return order;
}

function bySort(ix: AccountIndex, found: Postings, k: number, field: SearchSortField, dir: 'asc' | 'desc'): number[] {
  const key: SortKey = (n) => ix.entries[n]?.sortKeys[field] ?? '';
  return firstInOrder(orderOf(ix, field, key), found, k, dir, key);
}

/**
 * Lead search in memory on MiniSearch's radix tree (`minisearch/SearchableMap`)
 * rather than the MiniSearch engine itself: the engine expands every prefix to
 * all its terms and scores every match, ~0.7 s at p99 over 100k leads. Here
 * prefixes of up to three characters have their own posting lists, longer ones
 * expand to the few terms they match, terms intersect smallest first, phrases
 * are checked on the word ids kept per lead, and only the page is ranked or
 * read off a prebuilt sort order.
 */
export function memorySearchIndex(table: SearchTable = new Map()): SearchIndex {
  return {
    index(document) {
      let ix = table.get(document.account_id);
      if (!ix) table.set(document.account_id, (ix = emptyIndex()));
      add(ix, entryOf(docCopy(document)));
      table.set(document.account_id, compact(ix));
      return okAsync(undefined);
    },
    search(q) {
      const ix = table.get(q.account_id);
      if (!ix) return okAsync({ total: 0, documents: [] });
      const found = matches(ix, q);
      const k = q.from + q.limit;
      const page = q.sort ? bySort(ix, found, k, q.sort.field, q.sort.dir) : byRelevance(ix, q, found, k);
      return okAsync({ total: found.length, documents: page.slice(q.from, k).map((n) => docCopy((ix.entries[n] as Entry).doc)) });
    },
    purgeExpired(before) {
      let purged = 0;
      for (const [account, ix] of table) {
        for (const [lead, n] of ix.byLead) {
          const e = ix.entries[n];
          if (e && e.doc.expires_at < before) {
            ix.entries[n] = undefined;
            ix.byLead.delete(lead);
            ix.dead++;
            purged++;
          }
        }
        // Sort orders hold numbers of forgotten leads: rebuild them on next use.
        ix.orders.clear();
        table.set(account, compact(ix));
      }
      return okAsync(purged);
    },
  };
}
