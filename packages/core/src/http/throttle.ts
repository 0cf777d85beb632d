import { isIPv4, isIPv6 } from 'node:net';

/** Options of the failed-look-up throttle of key-less routes. */
export interface ThrottleOptions {
  /**
   * Failed look-ups (401, 404 or 422 answers on a key-less route) one client address may
   * make per window before it is refused with 429. The allowance refills evenly, one
   * failure per `windowMs / failures`, so the sustained rate is also `failures` per window.
   * @default 20
   */
  readonly failures: number;
  /** The window in milliseconds. @default 60000 */
  readonly windowMs: number;
  /**
   * How many client addresses are remembered; beyond it the least recently seen is
   * forgotten, so memory stays bounded whatever the number of addresses.
   * @default 10000
   */
  readonly maxClients: number;
}

export const DEFAULT_THROTTLE: ThrottleOptions = { failures: 20, windowMs: 60_000, maxClients: 10_000 };

/** A per-address counter of failures, consulted before a key-less route does any look-up. */
export interface Throttle {
  /** Whole seconds the address must wait before it may try again, or 0 when it may try now. */
  wait(address: string, now: number): number;
  /** Counts one failed look-up from the address. */
  fail(address: string, now: number): void;
}

/**
 * A generic cell rate algorithm: each address keeps one number, the time at which its
 * failures will have drained ("theoretical arrival time"). A failure pushes it one
 * interval later; the address is refused while one more failure would push it past a
 * full window from now. Successes are not counted and cost one map read.
 */
export function createThrottle(options: ThrottleOptions): Throttle {
  const failures = Math.max(1, Math.floor(options.failures));
  const interval = options.windowMs / failures;
  const maxClients = Math.max(1, Math.floor(options.maxClients));
  // Insertion order is recency order: a touched address is re-inserted at the end.
  const drainedAt = new Map<string, number>();

  const current = (address: string, now: number): number | undefined => {
    const at = drainedAt.get(address);
    if (at !== undefined && at <= now) {
      drainedAt.delete(address);
      return undefined;
    }
    return at;
  };

  return {
    wait(address, now) {
      const at = current(address, now);
      if (at === undefined) return 0;
      const over = at - now - (options.windowMs - interval);
      return over > 0 ? Math.ceil(over / 1000) : 0;
    },
    fail(address, now) {
      const at = Math.max(current(address, now) ?? now, now) + interval;
      drainedAt.delete(address);
      drainedAt.set(address, at);
      if (drainedAt.size > maxClients) drainedAt.delete(drainedAt.keys().next().value as string);
    },
  };
}

/**
 * What one client is counted as: an IPv4 address (also when written IPv4-mapped, `::ffff:a.b.c.d`),
 * or the /64 network of an IPv6 address, since one host is routinely given a whole /64 and
 * could otherwise try from 2^64 addresses. The WHATWG URL parser puts IPv6 in canonical form.
 */
export function clientKey(address: string): string {
  // Every IPv6 address has a colon: an IPv4 one (most clients) skips isIPv6's long regular expression.
  if (!address.includes(':') || !isIPv6(address)) return address;
  const mapped = address.toLowerCase().startsWith('::ffff:') ? address.slice(7) : undefined;
  if (mapped !== undefined && isIPv4(mapped)) return mapped;
  let canonical: string;
  try {
    canonical = new URL(`http://[${address}]/`).hostname.slice(1, -1);
  } catch {
    return address; // a zone index (fe80::1%eth0): link-local, counted as written
  }
  const [head = '', tail] = canonical.split('::');
  const front = head === '' ? [] : head.split(':');
  const back = tail === undefined || tail === '' ? [] : tail.split(':');
  const groups =
    tail === undefined ? front : [...front, ...Array<string>(8 - front.length - back.length).fill('0'), ...back];
  return `${groups.slice(0, 4).join(':')}::/64`;
}
