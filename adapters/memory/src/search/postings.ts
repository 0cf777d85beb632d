/**
 * Posting lists: the numbers of the documents holding a term, ascending. These
 * helpers combine them without hashing and without a Set or a per-document
 * lookup, so a query's cost follows the lengths of the lists it reads.
 */
export type Postings = readonly number[];

export const NO_POSTINGS: Postings = [];

/** A list this many times longer than another is probed by binary search instead of walked. */
const SKEW = 16;

/** Position of `n` in the ascending list at or after `lo`, or -1. */
export function indexOf(sorted: ArrayLike<number>, n: number, lo = 0): number {
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

/** The documents in both ascending lists: a merge when they are of a size, binary search into a much longer one. */
export function intersect(small: Postings, large: Postings): number[] {
  const out: number[] = [];
  if (large.length > small.length * SKEW) {
    for (let i = 0; i < small.length; i++) {
      const n = small[i] as number;
      if (indexOf(large, n) >= 0) out.push(n);
    }
    return out;
  }
  let j = 0;
  for (let i = 0; i < small.length; i++) {
    const n = small[i] as number;
    while (j < large.length && (large[j] as number) < n) j++;
    if (j === large.length) break;
    if (large[j] === n) out.push(n);
  }
  return out;
}

/** Every document of any of the lists, ascending and once each (the terms a prefix expands to). */
export function union(lists: readonly Postings[]): Postings {
  if (lists.length <= 1) return lists[0] ?? NO_POSTINGS;
  let size = 0;
  for (const list of lists) size += list.length;
  const merged = new Uint32Array(size);
  let at = 0;
  for (const list of lists) for (let i = 0; i < list.length; i++) merged[at++] = list[i] as number;
  merged.sort();
  const out: number[] = [];
  for (let i = 0; i < size; i++) if (i === 0 || merged[i] !== merged[i - 1]) out.push(merged[i] as number);
  return out;
}

/**
 * Adds one to `counts[i]` for every `found[i]` that `list` holds, both ascending:
 * a merge when they are of a size, otherwise the shorter is searched in the longer.
 */
export function countMembers(found: Postings, list: Postings, counts: Uint16Array): void {
  if (list.length * SKEW < found.length) {
    let lo = 0;
    for (let i = 0; i < list.length; i++) {
      const at = indexOf(found, list[i] as number, lo);
      if (at >= 0) {
        counts[at] = (counts[at] as number) + 1;
        lo = at + 1;
      }
    }
    return;
  }
  if (found.length * SKEW < list.length) {
    let lo = 0;
    for (let i = 0; i < found.length; i++) {
      const at = indexOf(list, found[i] as number, lo);
      if (at >= 0) {
        counts[i] = (counts[i] as number) + 1;
        lo = at + 1;
      }
    }
    return;
  }
  let j = 0;
  for (let i = 0; i < found.length; i++) {
    const n = found[i] as number;
    while (j < list.length && (list[j] as number) < n) j++;
    if (j === list.length) return;
    if (list[j] === n) counts[i] = (counts[i] as number) + 1;
  }
}
