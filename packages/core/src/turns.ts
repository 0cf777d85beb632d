/** A long loop's share of the event loop, from {@link timeSlices}. */
export interface TimeSlices {
  /** Whether the loop has run for its slice since it last let the event loop turn. */
  due(): boolean;
  /** Lets the event loop turn once (timers, sockets, other requests run) and starts a new slice. */
  pause(): Promise<void>;
}

/** How long a background loop runs before it lets other work in. */
export const SLICE_MS = 10;

/**
 * Turns of the event loop for a long loop over storage. Memory storage answers without ever
 * yielding, so an export of a million events or an alert pass over ten thousand accounts would
 * otherwise hold the process for seconds: no request of any tenant, no timer, no socket would be
 * served until it ended. Checked per step (`if (slices.due()) await slices.pause()`), it costs a
 * clock read per step and one `setImmediate` per slice. Workers running one loop side by side share one.
 */
export function timeSlices(sliceMs = SLICE_MS): TimeSlices {
  let started = performance.now();
  // Concurrent workers of one loop share a pause, and the slice after it: each pausing on its own would let each
  // run a whole slice in the same turn.
  let pausing: Promise<void> | undefined;
  return {
    due: () => performance.now() - started >= sliceMs,
    pause: () => {
      pausing ??= new Promise<void>((resolve) => {
        setImmediate(() => {
          pausing = undefined;
          started = performance.now();
          resolve();
        });
      });
      return pausing;
    },
  };
}
