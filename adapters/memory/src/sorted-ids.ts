/** The first index in the ascending `ids` whose ID is greater than `id` (or >= when `inclusive`). */
export function bound(ids: readonly string[], id: string, inclusive: boolean): number {
  let lo = 0;
  let hi = ids.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const at = ids[mid] as string;
    if (at < id || (!inclusive && at === id)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * IDs taken out of order before they are sorted into the rest (see {@link sortedIds}). Each settling merges them into
 * every sorted ID from the first place one belongs, which is some of the current second's (20,000 events a second at
 * full speed): at 1,024 that merge came once every 50 ms and cost a lead 5.6 µs, 2.2 at 16,384 (#22).
 */
const SETTLE_AT = 16_384;

/** A set of distinct IDs (or any strings: the search index keeps its vocabulary in one) read in ascending order: see {@link sortedIds}. */
export interface SortedIds {
  /** Adds an ID the set does not hold. */
  add(id: string): void;
  /** Removes every ID of `ids` held, in one pass over the set (removed one at a time, each moved the IDs after it). */
  removeAll(ids: ReadonlySet<string>): void;
  /** Every ID, ascending: read it before the next `add` or `removeAll`. */
  ascending(): readonly string[];
}

/**
 * IDs in ascending order for range reads, each new one taken at constant cost. IDs of one
 * second are in no order (core's `newId`: seconds, then random bits), so a new event's ID
 * lands anywhere among the second's others, and inserting it in place moved a few
 * thousand entries of a large array each time: 7.5 µs an event, 9 % of memory intake (#22).
 * An ID above every sorted one is appended; any other waits with the others like it until
 * a read or `settleAt` of them, when they are sorted and merged into the sorted
 * entries from the first place one of them belongs, which is near the end.
 */
export function sortedIds(settleAt = SETTLE_AT): SortedIds {
  const sorted: string[] = [];
  let waiting: string[] = [];
  const settle = (): void => {
    if (waiting.length === 0) return;
    const news = waiting.sort();
    waiting = [];
    const from = bound(sorted, news[0] as string, true);
    const olds = sorted.splice(from);
    let i = 0;
    let j = 0;
    while (i < olds.length && j < news.length)
      sorted.push((olds[i] as string) < (news[j] as string) ? (olds[i++] as string) : (news[j++] as string));
    while (i < olds.length) sorted.push(olds[i++] as string);
    while (j < news.length) sorted.push(news[j++] as string);
  };
  return {
    add(id) {
      const last = sorted[sorted.length - 1];
      if (waiting.length === 0 && (last === undefined || id > last)) sorted.push(id);
      else {
        waiting.push(id);
        if (waiting.length >= settleAt) settle();
      }
    },
    removeAll(ids) {
      settle();
      let kept = 0;
      for (const id of sorted) if (!ids.has(id)) sorted[kept++] = id;
      sorted.length = kept;
    },
    ascending() {
      settle();
      return sorted;
    },
  };
}
