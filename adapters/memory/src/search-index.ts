import {
  documentTokens,
  errors,
  SEARCH_MAX_REACHABLE,
  type SearchDocument,
  type SearchIndex,
  type SearchIndexQuery,
  type SearchSortField,
  type StoreError,
  searchSortKey,
  timeSlices,
} from '@leadroute/core';
import { okAsync, ResultAsync } from 'neverthrow';
import {
  type Bits,
  bitsOf,
  countMembers,
  keepCommon,
  keepMarked,
  NO_POSTINGS,
  type Postings,
  union,
  withBit,
} from './search/postings';
import { addPhrases, holdsPhrase, type PhraseStore, phraseIds, phraseStore } from './search/phrases';
import {
  buildOrderInSlices,
  extendOrder,
  firstInOrder,
  renumberedOrder,
  type SortKey,
  type SortOrder,
} from './search/sort-order';
import { DONE } from './done';
import { bound, type SortedIds, sortedIds } from './sorted-ids';

/**
 * Prefixes up to this length keep their own posting lists, so a one- or
 * two-letter term (which would expand to thousands of terms) is one lookup.
 * Longer prefixes expand through the radix tree, where they match few terms.
 */
const SHORT = 3;
/** New leads wait in a small unsorted tail until there are this many; then each sort order is rebuilt. */
const TAIL = 2048;
/** A short prefix's list gets a bitset once it holds this many documents and at least one in {@link DENSE_SHARE}. */
const DENSE_MIN = 512;
const DENSE_SHARE = 16;

/**
 * A short prefix's documents. A dense one (`a`, `co`, `555`) also keeps a bitset:
 * intersecting with it is then one bit read per candidate instead of a merge
 * through tens of thousands of numbers.
 */
interface ShortList {
  readonly docs: number[];
  bits: Bits | undefined;
}

/**
 * A whole term's documents, and the lists of its prefixes of one, two and three characters (up to {@link SHORT}), found
 * once: fields rather than an array, which took 100 bytes more for each new term (a lead brings one or two).
 */
interface TermLists {
  readonly docs: number[];
  readonly one: ShortList | undefined;
  readonly two: ShortList | undefined;
  readonly three: ShortList | undefined;
}

/** One account's index. Documents are numbered in the order indexed (newest highest); lists hold numbers ascending. */
interface AccountIndex {
  /** Each document by number; a forgotten one's place is empty. Its terms are not kept: they are read again when needed. */
  readonly entries: (SearchDocument | undefined)[];
  readonly byLead: Map<string, number>;
  /** Whole term → its documents and its prefixes' lists. */
  readonly terms: Map<string, TermLists>;
  /**
   * Every whole term in order, for prefixes longer than {@link SHORT}: the terms a prefix begins are one range of it.
   * (MiniSearch's radix tree held them before, a Map per node: 0.53 KB of every stored lead's heap, #22.)
   */
  readonly vocabulary: SortedIds;
  /** Prefix of up to {@link SHORT} characters → documents with a term starting so. */
  readonly short: Map<string, ShortList>;
  readonly all: number[];
  /** Each document's words as phrases match them. */
  readonly phrases: PhraseStore;
  readonly orders: Map<SearchSortField, SortOrder>;
  /**
   * Each sorted field's keys by document number, made when a search first sorts by the field: most fields are never
   * sorted by, and a lead's twelve keys made when it was indexed were 3 µs of its intake and a few hundred bytes of
   * heap it kept (#22).
   */
  readonly keys: Map<SearchSortField, string[]>;
  /** A field's first order while it is built, a slice of the event loop at a time: searches sorted by it wait for it. */
  readonly building: Map<SearchSortField, Promise<void>>;
  dead: number;
  /**
   * While a fresh copy of this index is being built ({@link compactLater}): the documents forgotten here meanwhile, to
   * forget in the copy too before it takes this index's place.
   */
  compacting: SearchDocument[] | undefined;
  /** Reused by every query: candidates are intersected in place here, and scored here. */
  found: Uint32Array;
  score: Uint16Array;
}

/** The memory search index's backing map: one index per account, so no query can reach another account's leads. */
export type SearchTable = Map<string, AccountIndex>;

function emptyIndex(): AccountIndex {
  return {
    entries: [],
    byLead: new Map(),
    terms: new Map(),
    vocabulary: sortedIds(),
    short: new Map(),
    all: [],
    phrases: phraseStore(),
    orders: new Map(),
    keys: new Map(),
    building: new Map(),
    dead: 0,
    compacting: undefined,
    found: new Uint32Array(0),
    score: new Uint16Array(0),
  };
}

/** Appends `n` to the list, once: a document's postings are added together, so a repeat is the list's last number. */
function post(list: number[], n: number): void {
  if (list[list.length - 1] !== n) list.push(n);
}

function postShort(list: ShortList, n: number): void {
  const { docs } = list;
  if (docs[docs.length - 1] === n) return;
  docs.push(n);
  if (list.bits) list.bits = withBit(list.bits, n);
  else if (docs.length >= DENSE_MIN && docs.length * DENSE_SHARE > n) list.bits = bitsOf(docs);
}

/**
 * A new term's lists, made for its first document `n`: its own, and its prefixes' (found or made here, once for every
 * document that has the term). The term's list starts as `[n]`, one slot: most new terms (a last name, an email) stay
 * with one document, and a list made empty and pushed to holds seventeen (136 bytes more of every such term, #22).
 */
function termLists(ix: AccountIndex, term: string, n: number): TermLists {
  const short = (length: number): ShortList | undefined => {
    if (term.length < length) return undefined;
    const prefix = term.slice(0, length);
    let list = ix.short.get(prefix);
    if (!list) ix.short.set(prefix, (list = { docs: [], bits: undefined }));
    return list;
  };
  const lists: TermLists = { docs: [n], one: short(1), two: short(2), three: short(3) };
  ix.terms.set(term, lists);
  ix.vocabulary.add(term);
  return lists;
}

/**
 * Adds the document under its terms and their prefixes. A term's prefix lists are found when the term is first seen:
 * most of a lead's terms (a first name, a domain, a state) are seen before, and their prefixes were sliced and looked
 * up again for every lead (#22).
 */
function add(ix: AccountIndex, doc: SearchDocument): void {
  const { terms, words } = documentTokens(doc);
  const prior = ix.byLead.get(doc.lead_id);
  if (prior !== undefined) forget(ix, prior);
  const n = ix.entries.length;
  ix.entries.push(doc);
  ix.byLead.set(doc.lead_id, n);
  ix.all.push(n);
  addPhrases(ix.phrases, words);
  for (const term of terms) {
    const lists = ix.terms.get(term) ?? termLists(ix, term, n);
    post(lists.docs, n);
    if (lists.one) postShort(lists.one, n);
    if (lists.two) postShort(lists.two, n);
    if (lists.three) postShort(lists.three, n);
  }
}

/** Leaves document `n` out of every answer from now on; its postings stay until the index is compacted. */
function forget(ix: AccountIndex, n: number): void {
  const doc = ix.entries[n];
  if (doc === undefined) return;
  ix.entries[n] = undefined;
  ix.dead++;
  ix.compacting?.push(doc);
}

/** Forgets lead `lead`'s document `n` and the lead with it: expired, it is in no answer nor indexed again. */
function forgetLead(ix: AccountIndex, lead: string, n: number): void {
  forget(ix, n);
  ix.byLead.delete(lead);
}

/**
 * The sort orders and keys `ix` has, numbered as its compacted copy `fresh` numbers the documents (`moved`): a copy
 * without them made every sorted field's next search sort every lead again.
 */
function carryOrders(ix: AccountIndex, fresh: AccountIndex, moved: readonly number[]): void {
  for (const [field, order] of ix.orders) fresh.orders.set(field, renumberedOrder(order, moved));
  for (const [field, column] of ix.keys) {
    const keys: string[] = [];
    for (let n = 0; n < column.length; n++) if ((moved[n] as number) >= 0) keys.push(column[n] as string);
    fresh.keys.set(field, keys);
  }
}

/**
 * Once the forgotten documents are a quarter of the lists, builds a copy without them, a slice of the event loop at a
 * time, and puts it in the account's place. The index answers as before meanwhile: forgotten documents are left out
 * of every answer, and documents indexed or forgotten while the copy is built are taken into it. Rebuilt in one go, a
 * copy of 150,000 leads held the process for 2.4 s (the hourly retention purge of 50,000 of 200,000 leads, #22).
 */
function compactLater(table: SearchTable, account: string, ix: AccountIndex): void {
  if (ix.compacting || ix.dead * 4 < ix.entries.length) return;
  const forgotten: SearchDocument[] = [];
  ix.compacting = forgotten;
  const build = async (): Promise<void> => {
    const fresh = emptyIndex();
    const slices = timeSlices();
    /** Each document's number in the copy, -1 for one forgotten. */
    const moved: number[] = [];
    // Documents indexed meanwhile are appended to `ix.entries`: the loop reads them too.
    for (let n = 0; n < ix.entries.length; n++) {
      const doc = ix.entries[n];
      moved.push(doc ? fresh.entries.length : -1);
      if (doc) add(fresh, doc);
      if (slices.due()) await slices.pause();
    }
    carryOrders(ix, fresh, moved);
    for (const doc of forgotten) {
      const m = fresh.byLead.get(doc.lead_id);
      // A lead indexed again meanwhile is its newer document in the copy: only the one forgotten goes.
      if (m === undefined || fresh.entries[m] !== doc) continue;
      forgetLead(fresh, doc.lead_id, m);
    }
    if (table.get(account) === ix) table.set(account, fresh);
  };
  // Whatever happens, the index stays as it is, and a later write may try again.
  void build()
    .catch(() => undefined)
    .finally(() => {
      ix.compacting = undefined;
    });
}

/** One list a query intersects: a term's, a prefix's, or a phrase token's. */
interface QueryList {
  readonly docs: Postings;
  readonly bits: Bits | undefined;
}

/** Documents with a term starting with `prefix`, ascending. */
function prefixList(ix: AccountIndex, prefix: string): QueryList {
  if (prefix.length <= SHORT) return ix.short.get(prefix) ?? { docs: NO_POSTINGS, bits: undefined };
  const lists: number[][] = [];
  const vocabulary = ix.vocabulary.ascending();
  for (let i = bound(vocabulary, prefix, true); i < vocabulary.length; i++) {
    const term = vocabulary[i] as string;
    if (!term.startsWith(prefix)) break;
    lists.push((ix.terms.get(term) as TermLists).docs);
  }
  return { docs: union(lists), bits: undefined };
}

/**
 * The live documents matching every term and phrase, ascending; a view of `ix.found` when anything was intersected or
 * filtered.
 */
function matches(ix: AccountIndex, q: SearchIndexQuery): Postings {
  const lists: QueryList[] = q.terms.map((t) => prefixList(ix, t));
  for (const p of q.phrases)
    for (const t of p.tokens) lists.push({ docs: ix.terms.get(t)?.docs ?? NO_POSTINGS, bits: undefined });
  if (lists.length === 0) lists.push({ docs: ix.all, bits: undefined });
  lists.sort((a, b) => a.docs.length - b.docs.length);
  const smallest = (lists[0] as QueryList).docs;
  // One list, nothing forgotten and no phrase: the list is the answer (a one-term query, however short the term).
  if (lists.length === 1 && q.phrases.length === 0 && ix.dead === 0) return smallest;
  if (ix.found.length < ix.entries.length) ix.found = new Uint32Array(ix.entries.length * 2);
  const buf = ix.found;
  let size = smallest.length;
  for (let i = 0; i < size; i++) buf[i] = smallest[i] as number;
  for (let i = 1; i < lists.length && size > 0; i++) {
    const { docs, bits } = lists[i] as QueryList;
    size = bits ? keepMarked(buf, size, bits) : keepCommon(buf, size, docs);
  }
  if (q.phrases.length === 0 && ix.dead === 0) return buf.subarray(0, size);
  // Phrases are checked last, on the smallest candidate set (each token is already a term of every candidate).
  const phrases: Uint32Array[] = [];
  for (const p of q.phrases) {
    const ids = phraseIds(ix.phrases, p);
    if (!ids) return NO_POSTINGS;
    phrases.push(ids);
  }
  let kept = 0;
  for (let i = 0; i < size; i++) {
    const n = buf[i] as number;
    if (ix.entries[n] === undefined) continue;
    let holds = true;
    for (let j = 0; j < phrases.length && holds; j++) holds = holdsPhrase(ix.phrases, n, phrases[j] as Uint32Array);
    if (holds) buf[kept++] = n;
  }
  return buf.subarray(0, kept);
}

/**
 * Relevance: how many terms match a whole term of the lead (a prefix match scores
 * less), then newest first. Each term's whole-term list is merged with the
 * matches to count; scores are small integers, so the page is read off per-score
 * passes from the newest match down, stopping once it is full: no sort.
 */
function byRelevance(ix: AccountIndex, q: SearchIndexQuery, found: Postings, k: number): number[] {
  if (ix.score.length < found.length) ix.score = new Uint16Array(ix.entries.length * 2);
  const score = ix.score;
  score.fill(0, 0, found.length);
  const perScore = new Uint32Array(q.terms.length + 1);
  for (const term of q.terms) {
    const exact = ix.terms.get(term);
    if (exact) countMembers(found, exact.docs, score);
  }
  for (let i = 0; i < found.length; i++) perScore[score[i] as number] = (perScore[score[i] as number] as number) + 1;
  const out: number[] = [];
  for (let s = q.terms.length; s >= 0 && out.length < k; s--) {
    if (perScore[s] === 0) continue;
    for (let i = found.length - 1; i >= 0 && out.length < k; i--) if (score[i] === s) out.push(found[i] as number);
  }
  return out;
}

const docCopy = (d: SearchDocument): SearchDocument => ({ ...d, fields: { ...d.fields } });

/** The field's keys by document number, as far as they were read ({@link sortKeys}). */
function keyColumn(ix: AccountIndex, field: SearchSortField): string[] {
  let column = ix.keys.get(field);
  if (!column) ix.keys.set(field, (column = []));
  return column;
}

/** Document `n`'s key on `field` as {@link keyColumn} keeps it: '' for none, or forgotten. */
function readKey(ix: AccountIndex, n: number, field: SearchSortField): string {
  const doc = ix.entries[n];
  return doc === undefined ? '' : searchSortKey(doc, field);
}

/**
 * What each document sorts by on `field` ('' for none, or a forgotten document): the field's keys, made when a search
 * first sorts by it and for each newer document when one next does; read through an array, never a lookup per key.
 */
function sortKeys(ix: AccountIndex, field: SearchSortField): SortKey {
  const keys = keyColumn(ix, field);
  // Filled in document order, so the column never has holes (a sparse array would turn into a dictionary).
  for (let m = keys.length; m < ix.entries.length; m++) keys.push(readKey(ix, m, field));
  return (n) => (ix.entries[n] === undefined ? '' : (keys[n] as string));
}

/**
 * Makes the field's first order, its keys read and its documents sorted a slice of the event loop at a time (see
 * {@link buildOrderInSlices}); searches sorted by the field meanwhile wait for this one build.
 */
function firstOrder(ix: AccountIndex, field: SearchSortField): Promise<void> {
  let building = ix.building.get(field);
  if (building === undefined) {
    const build = async (): Promise<void> => {
      const slices = timeSlices();
      const column = keyColumn(ix, field);
      for (let m = column.length; m < ix.entries.length; m++) {
        column.push(readKey(ix, m, field));
        if ((m & 1023) === 1023 && slices.due()) await slices.pause();
      }
      const key = sortKeys(ix, field);
      ix.orders.set(field, await buildOrderInSlices(ix.entries.length, key, slices));
    };
    building = build().finally(() => ix.building.delete(field));
    ix.building.set(field, building);
  }
  return building;
}

/** The field's order over every document ({@link firstOrder} built it), extended once {@link TAIL} documents came after it. */
function orderOf(ix: AccountIndex, field: SearchSortField, key: SortKey): SortOrder {
  const prior = ix.orders.get(field) as SortOrder;
  if (ix.entries.length - prior.built < TAIL) return prior;
  const order = extendOrder(prior, ix.entries.length, key);
  ix.orders.set(field, order);
  return order;
}

function bySort(ix: AccountIndex, found: Postings, k: number, field: SearchSortField, dir: 'asc' | 'desc'): number[] {
  const key = sortKeys(ix, field);
  return firstInOrder(orderOf(ix, field, key), found, k, dir, key);
}

/**
 * Lead search in memory on posting lists of its own rather than the MiniSearch
 * engine: the engine expands every prefix to all its terms and scores every
 * match, ~0.7 s at p99 over 100k leads. Here
 * prefixes of up to three characters have their own posting lists, longer ones
 * expand to the few terms they match (a range of the sorted vocabulary), terms intersect smallest first, phrases
 * are checked on the word ids kept per lead, and only the page is ranked or
 * read off a prebuilt sort order.
 */
export function memorySearchIndex(table: SearchTable = new Map()): SearchIndex {
  const search = (q: SearchIndexQuery): ReturnType<SearchIndex['search']> => {
    const ix = table.get(q.account_id);
    if (!ix) return okAsync({ total: 0, documents: [] });
    // The field's first order is built a slice at a time, then the search runs again: the index it was built on may
    // have been replaced by a compacted copy meanwhile.
    if (q.sort && !ix.orders.has(q.sort.field))
      return ResultAsync.fromPromise(
        firstOrder(ix, q.sort.field),
        (e) => errors.storageFailure('Sorting the search index failed.', e) as StoreError,
      ).andThen(() => search(q));
    const found = matches(ix, q);
    const k = q.from + q.limit;
    const page = q.sort ? bySort(ix, found, k, q.sort.field, q.sort.dir) : byRelevance(ix, q, found, k);
    return okAsync({
      total: Math.min(found.length, SEARCH_MAX_REACHABLE),
      documents: page.slice(q.from, k).map((n) => docCopy(ix.entries[n] as SearchDocument)),
    });
  };
  return {
    index(document) {
      let ix = table.get(document.account_id);
      if (!ix) table.set(document.account_id, (ix = emptyIndex()));
      add(ix, docCopy(document));
      compactLater(table, document.account_id, ix);
      return DONE;
    },
    search(q) {
      return search(q);
    },
    purgeExpired(before) {
      let purged = 0;
      for (const [account, ix] of table) {
        // One turn per account, not purgeInSlices: a compacted copy taking this index's place during a pause would
        // miss what was forgotten here after it (63 ms for 100,000 leads; the compaction is the long part).
        for (const [lead, n] of ix.byLead) {
          const doc = ix.entries[n];
          if (doc && doc.expires_at < before) {
            forgetLead(ix, lead, n);
            purged++;
          }
        }
        // Sort orders still hold the forgotten leads: queries never match them, and an order extended leaves them out.
        compactLater(table, account, ix);
      }
      return okAsync(purged);
    },
  };
}
