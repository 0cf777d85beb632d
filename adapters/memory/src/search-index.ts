import {
  fieldTerms,
  normalizeText,
  phraseText,
  SEARCH_FIELDS,
  type SearchDocument,
  type SearchIndex,
  type SearchIndexQuery,
  type SearchSortField,
} from '@leadroute/core';
import SearchableMap from 'minisearch/SearchableMap';
import { okAsync } from 'neverthrow';

/**
 * Prefixes up to this length keep their own posting lists, so a one- or
 * two-letter term (which would expand to thousands of terms) is one lookup.
 * Longer prefixes expand through the radix tree, where they match few terms.
 */
const SHORT = 3;
/** New leads wait in a small unsorted tail until there are this many; then each sort order is rebuilt. */
const TAIL = 2048;
const EMPTY: readonly number[] = [];

interface Entry {
  readonly doc: SearchDocument;
  readonly terms: ReadonlySet<string>;
  readonly sortKeys: Readonly<Record<SearchSortField, string>>;
  /** Each field's text as phrases match it. */
  readonly phrases: readonly string[];
}

/** One field's order: the documents with a value, sorted when built, and those indexed since. */
interface SortOrder {
  readonly sorted: Int32Array;
  readonly built: number;
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
  readonly orders: Map<SearchSortField, SortOrder>;
  dead: number;
}

/** The memory search index's backing map: one index per account, so no query can reach another account's leads. */
export type SearchTable = Map<string, AccountIndex>;

function emptyIndex(): AccountIndex {
  return { entries: [], byLead: new Map(), terms: new Map(), dictionary: new SearchableMap(), short: new Map(), all: [], orders: new Map(), dead: 0 };
}

function push<K>(map: { get(k: K): number[] | undefined; set(k: K, v: number[]): unknown }, key: K, n: number): void {
  const list = map.get(key);
  if (list) list.push(n);
  else map.set(key, [n]);
}

function entryOf(doc: SearchDocument): Entry {
  const terms = new Set<string>([doc.lead_id.toLowerCase()]);
  for (const field of SEARCH_FIELDS) for (const t of fieldTerms(field, doc.fields[field])) terms.add(t);
  const sortKeys = { lead_id: doc.lead_id, submission_timestamp: doc.submission_timestamp } as Record<SearchSortField, string>;
  for (const field of SEARCH_FIELDS) sortKeys[field] = normalizeText(doc.fields[field]).trim();
  return { doc, terms, sortKeys, phrases: SEARCH_FIELDS.map((f) => phraseText(f, doc.fields[f])) };
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
  const prefixes = new Set<string>();
  for (const term of entry.terms) {
    const list = ix.terms.get(term);
    if (list) list.push(n);
    else {
      const fresh = [n];
      ix.terms.set(term, fresh);
      ix.dictionary.set(term, fresh);
    }
    for (let i = 1; i <= Math.min(SHORT, term.length); i++) prefixes.add(term.slice(0, i));
  }
  for (const p of prefixes) push(ix.short, p, n);
}

/** Rebuilds without the forgotten documents once they are a quarter of the lists. */
function compact(ix: AccountIndex): AccountIndex {
  if (ix.dead * 4 < ix.entries.length) return ix;
  const fresh = emptyIndex();
  for (const e of ix.entries) if (e) add(fresh, e);
  return fresh;
}

function has(sorted: readonly number[], n: number): boolean {
  return indexOf(sorted, n) >= 0;
}

/** Documents with a term starting with `prefix`, ascending. */
function prefixList(ix: AccountIndex, prefix: string): readonly number[] {
  if (prefix.length <= SHORT) return ix.short.get(prefix) ?? EMPTY;
  const lists: number[][] = [];
  let size = 0;
  for (const [, list] of ix.dictionary.atPrefix(prefix)) {
    lists.push(list);
    size += list.length;
  }
  if (lists.length <= 1) return lists[0] ?? EMPTY;
  const merged = new Int32Array(size);
  let at = 0;
  for (const list of lists) for (const n of list) merged[at++] = n;
  merged.sort();
  const out: number[] = [];
  for (let i = 0; i < merged.length; i++) if (i === 0 || merged[i] !== merged[i - 1]) out.push(merged[i] as number);
  return out;
}

/** The documents in both ascending lists: a merge when they are of a size, binary search into a much longer one. */
function intersect(small: readonly number[], large: readonly number[]): number[] {
  const out: number[] = [];
  if (large.length > small.length * 16) {
    for (const n of small) if (indexOf(large, n) >= 0) out.push(n);
    return out;
  }
  let j = 0;
  for (const n of small) {
    while (j < large.length && (large[j] as number) < n) j++;
    if (j === large.length) break;
    if (large[j] === n) out.push(n);
  }
  return out;
}

function matches(ix: AccountIndex, q: SearchIndexQuery): readonly number[] {
  const lists = [...q.terms.map((t) => prefixList(ix, t)), ...q.phrases.flatMap((p) => p.tokens.map((t) => ix.terms.get(t) ?? EMPTY))];
  if (lists.length === 0) lists.push(ix.all);
  lists.sort((a, b) => a.length - b.length);
  let found = lists[0] as readonly number[];
  for (let i = 1; i < lists.length && found.length > 0; i++) found = intersect(found, lists[i] as readonly number[]);
  // Nothing forgotten and no phrase: the intersection is the answer (a one-term query is one list, however short the term).
  if (q.phrases.length === 0 && ix.dead === 0) return found;
  const needles = q.phrases.map((p) => ` ${p.text} `);
  return found.filter((n) => {
    const entry = ix.entries[n];
    return entry !== undefined && needles.every((needle) => entry.phrases.some((text) => text.includes(needle)));
  });
}

/** Position of `n` in the ascending list, or -1. */
function indexOf(sorted: readonly number[], n: number): number {
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const v = sorted[mid] as number;
    if (v === n) return mid;
    if (v < n) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/**
 * Relevance: how many terms match a whole term of the lead (a prefix match scores
 * less), then newest first. Scores are small integers, so the page is read off
 * per-score passes from the newest match down, stopping once it is full: no sort
 * of the matches.
 */
function byRelevance(ix: AccountIndex, q: SearchIndexQuery, found: readonly number[], k: number): number[] {
  const score = new Uint8Array(found.length);
  const perScore = new Uint32Array(q.terms.length + 1);
  for (const term of q.terms) {
    const exact = ix.terms.get(term) ?? EMPTY;
    if (exact.length < found.length) {
      for (const n of exact) {
        const at = indexOf(found, n);
        if (at >= 0) score[at] = (score[at] as number) + 1;
      }
    } else {
      for (let i = 0; i < found.length; i++) if (ix.entries[found[i] as number]?.terms.has(term)) score[i] = (score[i] as number) + 1;
    }
  }
  for (const s of score) perScore[s] = (perScore[s] as number) + 1;
  const out: number[] = [];
  for (let s = q.terms.length; s >= 0 && out.length < k; s--) {
    if (perScore[s] === 0) continue;
    for (let i = found.length - 1; i >= 0 && out.length < k; i--) if (score[i] === s) out.push(found[i] as number);
  }
  return out;
}

const docCopy = (d: SearchDocument): SearchDocument => ({ ...d, fields: { ...d.fields } });

/** Ascending by the field's key, then in the order indexed; desc is the exact reverse. */
const keyOrder = (ix: AccountIndex, field: SearchSortField) => (a: number, b: number): number => {
  const x = (ix.entries[a] as Entry).sortKeys[field];
  const y = (ix.entries[b] as Entry).sortKeys[field];
  return x < y ? -1 : x > y ? 1 : a - b;
};

/** The field's order over every document with a value, rebuilt once {@link TAIL} documents came after it. */
function orderOf(ix: AccountIndex, field: SearchSortField): SortOrder {
  const prior = ix.orders.get(field);
  if (prior && ix.entries.length - prior.built < TAIL) return prior;
  const valued: number[] = [];
  for (let n = 0; n < ix.entries.length; n++) if (ix.entries[n] && (ix.entries[n] as Entry).sortKeys[field] !== '') valued.push(n);
  const order = { sorted: Int32Array.from(valued.sort(keyOrder(ix, field))), built: ix.entries.length };
  ix.orders.set(field, order);
  return order;
}

/**
 * The first `k` matches in a field's order, leads without the field last. A small
 * match set is sorted; a large one is read off the field's prebuilt order (plus
 * the few leads indexed since), stopping after `k`: no full sort per query.
 */
function bySort(ix: AccountIndex, found: readonly number[], k: number, field: SearchSortField, dir: 'asc' | 'desc'): number[] {
  const cmp = keyOrder(ix, field);
  const directed = dir === 'asc' ? cmp : (a: number, b: number) => cmp(b, a);
  const key = (n: number) => (ix.entries[n] as Entry).sortKeys[field];
  const empties = () => found.filter((n) => key(n) === '').sort((a, b) => (dir === 'asc' ? a - b : b - a));
  if (found.length <= 4096) {
    const valued = found.filter((n) => key(n) !== '').sort(directed);
    return [...valued.slice(0, k), ...(valued.length < k ? empties().slice(0, k - valued.length) : [])];
  }
  const order = orderOf(ix, field);
  const member = new Uint8Array(ix.entries.length);
  for (const n of found) member[n] = 1;
  // `found` ascends, so the leads indexed since the order was built are its end.
  let from = found.length;
  while (from > 0 && (found[from - 1] as number) >= order.built) from--;
  const tail = found.slice(from).filter((n) => key(n) !== '').sort(directed);
  const out: number[] = [];
  const step = dir === 'asc' ? 1 : -1;
  let i = dir === 'asc' ? 0 : order.sorted.length - 1;
  let j = 0;
  while (out.length < k) {
    while (i >= 0 && i < order.sorted.length && !member[order.sorted[i] as number]) i += step;
    const base = i >= 0 && i < order.sorted.length ? (order.sorted[i] as number) : undefined;
    const next = tail[j];
    if (base === undefined && next === undefined) break;
    if (next === undefined || (base !== undefined && directed(base, next) < 0)) {
      out.push(base as number);
      i += step;
    } else {
      out.push(next);
      j++;
    }
  }
  return out.length < k ? [...out, ...empties().slice(0, k - out.length)] : out;
}

/**
 * Lead search in memory on MiniSearch's radix tree (`minisearch/SearchableMap`)
 * rather than the MiniSearch engine itself: the engine expands every prefix to
 * all its terms and scores every match, ~0.7 s at p99 over 100k leads. Here
 * prefixes of up to three characters have their own posting lists, longer ones
 * expand to the few terms they match, terms intersect smallest first, phrases
 * are checked on text kept per lead, and only the page is ranked or sorted.
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
