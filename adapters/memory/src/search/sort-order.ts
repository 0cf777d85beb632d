import type { TimeSlices } from '@leadroute/core';
import type { Postings } from './postings';

/** The rank of a document that has no value for the field (or is forgotten). */
const NONE = 0xffffffff;

/**
 * One field's order over the documents numbered below `built`: ascending by the
 * field's key, then in the order indexed; descending is the exact reverse.
 */
export interface SortOrder {
  /** The documents with a value, in order. */
  readonly sorted: Uint32Array;
  /** Each document's position in `sorted`, or {@link NONE}: comparing two documents is comparing two integers. */
  readonly rank: Uint32Array;
  /** Documents numbered from here on came after the order was built. */
  readonly built: number;
  /** One mark per document for walking the order; all zero between queries. */
  readonly marks: Uint8Array;
}

/** A document's sort key: '' when it has no value for the field or is forgotten. */
export type SortKey = (n: number) => string;

/** Documents compared by key, then in the order indexed: what every order here is. */
const byKey =
  (key: SortKey) =>
  (a: number, b: number): number => {
    const x = key(a);
    const y = key(b);
    return x < y ? -1 : x > y ? 1 : a - b;
  };

/** The order of documents `0..count-1` whose values are `sorted`, with each document's rank. */
function withRanks(sorted: Uint32Array, count: number): SortOrder {
  const rank = new Uint32Array(count).fill(NONE);
  for (let i = 0; i < sorted.length; i++) rank[sorted[i] as number] = i;
  return { sorted, rank, built: count, marks: new Uint8Array(count) };
}

/** How many documents {@link buildOrderInSlices} sorts in one go before it merges the sorted runs. */
const RUN = 4096;

/**
 * Sorts documents `0..count-1` by key once (queries then read ranks, never strings), letting the event loop turn
 * whenever `slices` says so: the keys read, then runs of {@link RUN} documents sorted one at a time, then merged
 * pairwise, a pass at a time. Sorted in one go, the first search sorted by a field held the process for the whole
 * sort: 120-400 ms over 200,000 leads (#22).
 */
export async function buildOrderInSlices(count: number, key: SortKey, slices: TimeSlices): Promise<SortOrder> {
  const keys: string[] = [];
  const valued: number[] = [];
  for (let n = 0; n < count; n++) {
    const k = key(n);
    keys.push(k);
    if (k !== '') valued.push(n);
    if ((n & 1023) === 1023 && slices.due()) await slices.pause();
  }
  const compare = byKey((n) => keys[n] as string);
  let from = Uint32Array.from(valued);
  const size = from.length;
  for (let at = 0; at < size; at += RUN) {
    from.subarray(at, at + RUN).sort(compare);
    if (slices.due()) await slices.pause();
  }
  let to = new Uint32Array(size);
  for (let width = RUN; width < size; width *= 2) {
    for (let lo = 0; lo < size; lo += 2 * width) {
      const mid = Math.min(lo + width, size);
      const hi = Math.min(lo + 2 * width, size);
      let i = lo;
      let j = mid;
      for (let out = lo; out < hi; out++) {
        to[out] = (
          j >= hi || (i < mid && compare(from[i] as number, from[j] as number) < 0) ? from[i++] : from[j++]
        ) as number;
        if ((out & 1023) === 1023 && slices.due()) await slices.pause();
      }
    }
    [from, to] = [to, from];
  }
  return withRanks(from, count);
}

/**
 * `order` for an index whose documents were numbered again, `moved[n]` being document n's new number (-1 for one left
 * out): the numbering keeps the documents' order, so the order is still sorted, and is read off it rather than sorted
 * again. Documents newly numbered below its `built` are those it held.
 */
export function renumberedOrder(order: SortOrder, moved: readonly number[]): SortOrder {
  const sorted = new Uint32Array(order.sorted.length);
  let size = 0;
  for (const n of order.sorted) {
    const m = moved[n] as number;
    if (m >= 0) sorted[size++] = m;
  }
  let built = 0;
  for (let n = order.built - 1; n >= 0 && built === 0; n--)
    if ((moved[n] as number) >= 0) built = (moved[n] as number) + 1;
  return withRanks(sorted.slice(0, size), built);
}

/**
 * `prior` extended to documents `0..count-1`: the ones indexed since it was built are sorted among themselves and
 * merged in, each placed by binary search, and those forgotten since are left out. A full sort of them all sorted
 * every document again each time 2,048 more were indexed: 18-123 ms at 100,000 leads, in one turn of the
 * event loop of whichever search asked next (#22).
 */
export function extendOrder(prior: SortOrder, count: number, key: SortKey): SortOrder {
  const added: number[] = [];
  for (let n = prior.built; n < count; n++) if (key(n) !== '') added.push(n);
  const compare = byKey(key);
  added.sort(compare);
  // The prior order without the documents forgotten since: what is left is still in order, for binary search.
  const old = new Uint32Array(prior.sorted.length);
  let live = 0;
  for (const n of prior.sorted) if (key(n) !== '') old[live++] = n;
  const sorted = new Uint32Array(live + added.length);
  let size = 0;
  let from = 0;
  for (const n of added) {
    // The first of the prior order that comes after n (every document of it is numbered below n).
    let lo = from;
    let hi = live;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const m = old[mid] as number;
      if (compare(m, n) < 0) lo = mid + 1;
      else hi = mid;
    }
    sorted.set(old.subarray(from, lo), size);
    size += lo - from;
    from = lo;
    sorted[size++] = n;
  }
  sorted.set(old.subarray(from, live), size);
  return withRanks(sorted, count);
}

/**
 * The first `k` of `found[0..split)` (all numbered below `built`) that have a
 * value, in order. A large match set is found by walking the order and stopping
 * after `k`; a small one by sorting its ranks, whichever reads fewer entries.
 */
function fromOrder(order: SortOrder, found: Postings, split: number, k: number, dir: 'asc' | 'desc'): number[] {
  const out: number[] = [];
  if (split === 0 || k <= 0) return out;
  const { sorted, rank, marks } = order;
  // A walk meets about split / built matches per step, so reaches k after k * built / split steps.
  if (split * Math.log2(split + 1) <= (k * order.built) / split) {
    const ranks = new Uint32Array(split);
    let m = 0;
    for (let i = 0; i < split; i++) {
      const r = rank[found[i] as number] as number;
      if (r !== NONE) ranks[m++] = r;
    }
    const valued = ranks.subarray(0, m).sort();
    const take = Math.min(k, m);
    for (let i = 0; i < take; i++) out.push(sorted[valued[dir === 'asc' ? i : m - 1 - i] as number] as number);
    return out;
  }
  for (let i = 0; i < split; i++) marks[found[i] as number] = 1;
  if (dir === 'asc') {
    for (let i = 0; i < sorted.length && out.length < k; i++)
      if (marks[sorted[i] as number] === 1) out.push(sorted[i] as number);
  } else {
    for (let i = sorted.length - 1; i >= 0 && out.length < k; i--)
      if (marks[sorted[i] as number] === 1) out.push(sorted[i] as number);
  }
  for (let i = 0; i < split; i++) marks[found[i] as number] = 0;
  return out;
}

/**
 * The first `k` of the ascending match list `found` in the field's order, those
 * without a value last (in the order indexed; reversed for desc). Documents
 * indexed after the order was built are few (the caller rebuilds it after a
 * while) and are sorted by key and merged in.
 */
export function firstInOrder(
  order: SortOrder,
  found: Postings,
  k: number,
  dir: 'asc' | 'desc',
  key: SortKey,
): number[] {
  const cmp = byKey(key);
  const directed = dir === 'asc' ? cmp : (a: number, b: number) => cmp(b, a);
  let split = found.length;
  while (split > 0 && (found[split - 1] as number) >= order.built) split--;
  const base = fromOrder(order, found, split, k, dir);
  const tail: number[] = [];
  for (let i = split; i < found.length; i++) if (key(found[i] as number) !== '') tail.push(found[i] as number);
  tail.sort(directed);
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (out.length < k && (i < base.length || j < tail.length)) {
    if (j === tail.length || (i < base.length && directed(base[i] as number, tail[j] as number) < 0))
      out.push(base[i++] as number);
    else out.push(tail[j++] as number);
  }
  if (dir === 'asc') {
    for (let x = 0; x < found.length && out.length < k; x++)
      if (key(found[x] as number) === '') out.push(found[x] as number);
  } else {
    for (let x = found.length - 1; x >= 0 && out.length < k; x--)
      if (key(found[x] as number) === '') out.push(found[x] as number);
  }
  return out;
}
