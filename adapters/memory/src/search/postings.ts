/**
 * Posting lists: the numbers of the documents holding a term, ascending. These
 * helpers combine them in place in one buffer, without hashing and without a Set
 * or a per-document lookup, so a query's cost follows the lengths of the lists it
 * reads, and a query leaves almost nothing for the collector.
 */
export type Postings = ArrayLike<number>;

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

/** Every document of any of the lists, ascending and once each (the terms a prefix expands to). */
export function union(lists: readonly Postings[]): Postings {
  if (lists.length <= 1) return lists[0] ?? NO_POSTINGS;
  let size = 0;
  for (const list of lists) size += list.length;
  const merged = new Uint32Array(size);
  let at = 0;
  for (const list of lists) for (let i = 0; i < list.length; i++) merged[at++] = list[i] as number;
  merged.sort();
  let kept = 0;
  for (let i = 0; i < size; i++) if (i === 0 || merged[i] !== merged[i - 1]) merged[kept++] = merged[i] as number;
  return merged.subarray(0, kept);
}

/**
 * Keeps in `buf[0..size)` only the documents `list` holds, in place (each kept
 * number moves down, never up); the new size. Both ascending: a merge when they
 * are of a size, binary search into a much longer list.
 */
export function keepCommon(buf: Uint32Array, size: number, list: Postings): number {
  let kept = 0;
  if (list.length > size * SKEW) {
    let lo = 0;
    for (let i = 0; i < size; i++) {
      const n = buf[i] as number;
      const at = indexOf(list, n, lo);
      if (at >= 0) {
        buf[kept++] = n;
        lo = at + 1;
      }
    }
    return kept;
  }
  let j = 0;
  for (let i = 0; i < size; i++) {
    const n = buf[i] as number;
    while (j < list.length && (list[j] as number) < n) j++;
    if (j === list.length) break;
    if (list[j] === n) buf[kept++] = n;
  }
  return kept;
}

/** A set of document numbers, one bit each: membership is one read, whatever the set's size. */
export type Bits = Uint32Array;

/** Whether `bits` holds `n`. */
export function hasBit(bits: Bits, n: number): boolean {
  const word = n >>> 5;
  return word < bits.length && ((bits[word] as number) & (1 << (n & 31))) !== 0;
}

/** Adds `n`, growing the set when `n` is past its end; the set to keep (a new one when it grew). */
export function withBit(bits: Bits, n: number): Bits {
  const word = n >>> 5;
  let out = bits;
  if (word >= bits.length) {
    out = new Uint32Array(Math.max(word + 1, bits.length * 2));
    out.set(bits);
  }
  out[word] = (out[word] as number) | (1 << (n & 31));
  return out;
}

/** The set of a list's documents. */
export function bitsOf(list: Postings): Bits {
  let bits: Bits = new Uint32Array(Math.max(1, ((list[list.length - 1] ?? 0) >>> 5) + 1) * 2);
  for (let i = 0; i < list.length; i++) bits = withBit(bits, list[i] as number);
  return bits;
}

/** Keeps in `buf[0..size)` only the documents in `bits`, in place; the new size. */
export function keepMarked(buf: Uint32Array, size: number, bits: Bits): number {
  let kept = 0;
  for (let i = 0; i < size; i++) {
    const n = buf[i] as number;
    if (hasBit(bits, n)) buf[kept++] = n;
  }
  return kept;
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
