/** Where the service reads the time. Nothing in core calls `Date.now()` itself. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

/** The wall clock: the default outside tests. */
export const systemClock: Clock = { now: () => Date.now() };
