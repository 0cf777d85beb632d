import type { Clock } from './ports/clock';

/** Values read through {@link shortLived}. */
export interface ShortLived<V> {
  /** The value of `key`: as read at most `ttlMs` ago, else read now (concurrent callers share one read). */
  get(key: string): Promise<V>;
  /** Reads `key` again on its next `get`: what changed it in this process says so. */
  forget(key: string): void;
}

/**
 * Values kept for a short while by key, for what every lead reads and almost nothing changes
 * (an account's aliases, entity names, the account itself): another instance's change is
 * seen within `ttlMs`, this process's at once through `forget`. A read that `read` reports
 * as failed (`kept` false) is not kept, so the next caller reads again. At most `max` keys
 * are kept; past that the whole cache starts over.
 */
export function shortLived<V>(options: {
  readonly clock: Clock;
  readonly ttlMs: number;
  readonly max: number;
  readonly read: (key: string) => Promise<{ readonly value: V; readonly kept: boolean }>;
}): ShortLived<V> {
  const cache = new Map<string, { readonly at: number; readonly value: Promise<V> }>();
  return {
    get(key) {
      const now = options.clock.now();
      const cached = cache.get(key);
      if (cached && now - cached.at < options.ttlMs) return cached.value;
      const entry = {
        at: now,
        value: options.read(key).then(({ value, kept }) => {
          if (!kept && cache.get(key) === entry) cache.delete(key);
          return value;
        }),
      };
      if (cache.size >= options.max) cache.clear();
      cache.set(key, entry);
      return entry.value;
    },
    forget: (key) => void cache.delete(key),
  };
}
