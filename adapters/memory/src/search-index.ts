import {
  fieldTerms,
  holdsPhrase,
  normalizeText,
  SEARCH_FIELDS,
  type SearchDocument,
  type SearchIndex,
  type SearchIndexQuery,
  type SearchSortField,
} from '@leadroute/core';
import SearchableMap from 'minisearch/SearchableMap';
import { okAsync } from 'neverthrow';
import { copy } from './tables';

/**
 * Prefixes up to this length keep their own posting lists, so a one- or
 * two-letter term (which would expand to thousands of terms) is one lookup.
 * Longer prefixes expand through the radix tree, where they match few terms.
 */
const SHORT = 2;
const EMPTY: readonly number[] = [];

interface Entry {
  readonly doc: SearchDocument;
  readonly terms: ReadonlySet<string>;
  readonly sortKeys: Readonly<Record<SearchSortField, string>>;
}

/** One account's index. Documents are numbered in the order indexed (newest highest); lists hold numbers ascending. */
interface AccountIndex {
  readonly entries: (Entry | undefined)[];
  readonly byLead: Map<string, number>;
  /** Whole term → documents (MiniSearch's radix tree: prefix ranges without scanning). */
  readonly terms: SearchableMap<number[]>;
  /** Prefix of up to {@link SHORT} characters → documents with a term starting so. */
  readonly short: Map<string, number[]>;
  readonly all: number[];
  dead: number;
}

/** The memory search index's backing map: one index per account, so no query can reach another account's leads. */
export type SearchTable = Map<string, AccountIndex>;

function emptyIndex(): AccountIndex {
  return { entries: [], byLead: new Map(), terms: new SearchableMap(), short: new Map(), all: [], dead: 0 };
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
  return { doc, terms, sortKeys };
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
    push(ix.terms, term, n);
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
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const v = sorted[mid] as number;
    if (v === n) return true;
    if (v < n) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}

/** Documents with a term starting with `prefix`, ascending. */
function prefixList(ix: AccountIndex, prefix: string): readonly number[] {
  if (prefix.length <= SHORT) return ix.short.get(prefix) ?? EMPTY;
  const lists: number[][] = [];
  for (const [, list] of ix.terms.atPrefix(prefix)) lists.push(list);
  if (lists.length <= 1) return lists[0] ?? EMPTY;
  const merged = Int32Array.from(lists.flat()).sort();
  const out: number[] = [];
  for (let i = 0; i < merged.length; i++) if (i === 0 || merged[i] !== merged[i - 1]) out.push(merged[i] as number);
  return out;
}

/** The `k` best of `items` by `cmp` (best first), without sorting them all. */
function topK(items: readonly number[], k: number, cmp: (a: number, b: number) => number): number[] {
  if (items.length <= k * 4) return [...items].sort(cmp).slice(0, k);
  // A max-heap on cmp holding the k best so far; its root is the worst of them.
  const heap: number[] = [];
  const up = (i: number) => {
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (cmp(heap[i] as number, heap[p] as number) <= 0) return;
      [heap[i], heap[p]] = [heap[p] as number, heap[i] as number];
      i = p;
    }
  };
  const down = (i: number) => {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < heap.length && cmp(heap[l] as number, heap[m] as number) > 0) m = l;
      if (r < heap.length && cmp(heap[r] as number, heap[m] as number) > 0) m = r;
      if (m === i) return;
      [heap[i], heap[m]] = [heap[m] as number, heap[i] as number];
      i = m;
    }
  };
  for (const item of items) {
    if (heap.length < k) {
      heap.push(item);
      up(heap.length - 1);
    } else if (cmp(item, heap[0] as number) < 0) {
      heap[0] = item;
      down(0);
    }
  }
  return heap.sort(cmp);
}

function matches(ix: AccountIndex, q: SearchIndexQuery): number[] {
  const lists = [...q.terms.map((t) => prefixList(ix, t)), ...q.phrases.flatMap((p) => p.tokens.map((t) => ix.terms.get(t) ?? EMPTY))];
  if (lists.length === 0) return ix.all.filter((n) => ix.entries[n] !== undefined);
  lists.sort((a, b) => a.length - b.length);
  const [smallest, ...others] = lists;
  const out: number[] = [];
  for (const n of smallest ?? EMPTY) {
    const entry = ix.entries[n];
    if (!entry || !others.every((l) => has(l, n))) continue;
    if (q.phrases.every((p) => SEARCH_FIELDS.some((f) => holdsPhrase(f, entry.doc.fields[f], p)))) out.push(n);
  }
  return out;
}

/** Relevance: how many terms match a whole term of the lead (a prefix match scores less), then newest first. */
function byRelevance(ix: AccountIndex, q: SearchIndexQuery, found: readonly number[], k: number): number[] {
  const score = new Map<number, number>();
  for (const term of q.terms) {
    const exact = ix.terms.get(term) ?? EMPTY;
    if (exact.length < found.length) {
      for (const n of exact) if (has(found, n)) score.set(n, (score.get(n) ?? 0) + 1);
    } else {
      for (const n of found) if (ix.entries[n]?.terms.has(term)) score.set(n, (score.get(n) ?? 0) + 1);
    }
  }
  const scored = [...score.keys()].sort((a, b) => (score.get(b) ?? 0) - (score.get(a) ?? 0) || b - a).slice(0, k);
  for (let i = found.length - 1; i >= 0 && scored.length < k; i--) {
    const n = found[i] as number;
    if (!score.has(n)) scored.push(n);
  }
  return scored;
}

/**
 * Lead search in memory on MiniSearch's radix tree (`minisearch/SearchableMap`)
 * rather than the MiniSearch engine itself: the engine expands every prefix to
 * all its terms and scores every match, ~0.7 s at p99 over 100k leads. Here short
 * prefixes are one posting list, longer ones expand to the few terms they
 * match, terms intersect smallest first, and only the page is ranked.
 */
export function memorySearchIndex(table: SearchTable = new Map()): SearchIndex {
  return {
    index(document) {
      let ix = table.get(document.account_id);
      if (!ix) table.set(document.account_id, (ix = emptyIndex()));
      add(ix, entryOf(copy(document)));
      table.set(document.account_id, compact(ix));
      return okAsync(undefined);
    },
    search(q) {
      const ix = table.get(q.account_id);
      if (!ix) return okAsync({ total: 0, documents: [] });
      const found = matches(ix, q);
      const k = q.from + q.limit;
      const { sort } = q;
      const entry = (n: number) => ix.entries[n] as Entry;
      const page = sort
        ? topK(found, k, (a, b) => {
            const x = entry(a).sortKeys[sort.field];
            const y = entry(b).sortKeys[sort.field];
            // Leads without the field come last either way.
            if (x === '' || y === '') return x === y ? b - a : x === '' ? 1 : -1;
            const c = x < y ? -1 : x > y ? 1 : b - a;
            return sort.dir === 'desc' && x !== y ? -c : c;
          })
        : byRelevance(ix, q, found, k);
      return okAsync({ total: found.length, documents: page.slice(q.from, k).map((n) => copy(entry(n).doc)) });
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
        table.set(account, compact(ix));
      }
      return okAsync(purged);
    },
  };
}
