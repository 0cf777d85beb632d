import { timeSlices } from '@leadroute/core';

/**
 * Deletes the entries of `entries` that `expired` says have expired, letting the event loop turn every 10 ms, and
 * tells `purged` of each; how many. A retention purge walks a whole table: in one turn, 400,000 events held the
 * process for most of a second (#22). A Map's iterator goes on past deletions and takes in what is added meanwhile, and
 * a reader meanwhile sees some expired entries gone and others not yet, as it would while a database deletes them.
 */
export async function purgeInSlices<K, V>(
  entries: Map<K, V>,
  expired: (value: V) => boolean,
  purged?: (value: V) => void,
): Promise<number> {
  const slices = timeSlices();
  let n = 0;
  for (const [key, value] of entries) {
    if (slices.due()) await slices.pause();
    if (!expired(value)) continue;
    entries.delete(key);
    purged?.(value);
    n++;
  }
  return n;
}
