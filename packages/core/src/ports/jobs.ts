import type { ResultAsync } from 'neverthrow';
import type { StoreError } from './store-error';

/**
 * A unit of background work. `(kind, id)` identifies it: enqueuing the same pair
 * again is a no-op, so a job is never held twice.
 */
export interface NewJob {
  /** What kind of work, e.g. `export`; workers claim by kind. */
  readonly kind: string;
  /** The job's identity within its kind, e.g. the export's ID. */
  readonly id: string;
  /** What the worker needs besides the ID; JSON values only. */
  readonly payload?: Readonly<Record<string, unknown>>;
  /** Not claimable before this instant (ms since the epoch). */
  readonly dueAt: number;
}

/** A job's state: pending until a worker completes or fails it. */
export type JobState = 'pending' | 'done' | 'failed';

/** A job as the store holds it. */
export interface Job {
  readonly kind: string;
  readonly id: string;
  readonly payload: Readonly<Record<string, unknown>>;
  readonly state: JobState;
  readonly dueAt: number;
  /** Claims so far, this one included: a job claimed again and again keeps killing its worker. */
  readonly attempts: number;
  readonly enqueuedAt: number;
  /** Who holds it and until when; absent when nobody does. */
  readonly leaseId?: string;
  readonly leasedUntil?: number;
  /** The failure a worker reported. */
  readonly error?: string;
}

/** A job handed to one worker until `leasedUntil`; pass the ref back to settle it. */
export interface LeasedJob extends Job {
  readonly leaseId: string;
  readonly leasedUntil: number;
}

/** Identifies a claimed job when extending or settling it. */
export interface JobRef {
  readonly kind: string;
  readonly id: string;
  readonly leaseId: string;
}

/**
 * Background work shared by several processes through leases: a worker claims a
 * job for `leaseMs`, extends the lease while it works, and completes or fails it.
 * A worker that stops (a crash, a deploy) stops extending, its lease expires, and
 * another worker claims the job. Exports use it; so may any other periodic work.
 */
export interface JobStore {
  /** Adds a pending job. Answers `enqueued: false` when `(kind, id)` is already held, in any state. */
  enqueue(job: NewJob, nowMs: number): ResultAsync<{ readonly enqueued: boolean }, StoreError>;
  /**
   * Hands one pending job of `kind` that is due and that nobody holds (or whose
   * lease expired) to the caller, earliest due first, under a new lease, counting
   * the attempt. Undefined when there is none.
   */
  claim(kind: string, nowMs: number, leaseMs: number): ResultAsync<LeasedJob | undefined, StoreError>;
  /**
   * The heartbeat: moves the lease's end to `nowMs + leaseMs`. False when the lease
   * is no longer the caller's: another worker claimed the job after it ran out (the
   * lease ID changes with every claim; a lapsed lease nobody took is still held).
   */
  extend(ref: JobRef, nowMs: number, leaseMs: number): ResultAsync<boolean, StoreError>;
  /** Marks the job done and releases it. False when the lease is no longer the caller's (as for `extend`). */
  complete(ref: JobRef, nowMs: number): ResultAsync<boolean, StoreError>;
  /**
   * Releases the job after a failure: pending again from `retryAt` when given,
   * otherwise failed for good. False when the lease is no longer the caller's.
   */
  fail(ref: JobRef, nowMs: number, error: string, retryAt?: number): ResultAsync<boolean, StoreError>;
  /** The job as held, whatever its state. */
  get(kind: string, id: string): ResultAsync<Job | undefined, StoreError>;
}
