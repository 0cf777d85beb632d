import type { ResultAsync } from 'neverthrow';
import type { LeadrouteError } from '../errors';

/** What a spool fails with: its backing store is down. */
export type SpoolError = Extract<LeadrouteError, { type: 'StorageFailure' }>;

/**
 * Something to deliver later. `(target, key)` identifies it: enqueuing the same pair
 * again is a no-op, so an item is never held (and so never delivered) twice.
 */
export interface SpoolEntry {
  /** Where the item goes, opaque to the spool, e.g. `firehose:aws:my-bucket`. */
  readonly target: string;
  /** The item's identity within its target, e.g. the object key. */
  readonly key: string;
  /** The bytes to deliver, as text. */
  readonly payload: string;
  /** What the deliverer needs to find the destination again (never secrets it can look up). */
  readonly route: Readonly<Record<string, string>>;
  /** When the first (re)try is due, in ms since the epoch. */
  readonly dueAt: number;
}

/** A pending item as the spool holds it. */
export interface SpoolItem extends SpoolEntry {
  /** Failed delivery attempts so far (the one that caused the enqueue counts when the caller says so). */
  readonly attempts: number;
  readonly enqueuedAt: number;
  /** The last failure, for operators. */
  readonly lastError?: string;
}

/** An item handed to one worker until `leasedUntil`; pass `leaseId` back to settle it. */
export interface LeasedSpoolItem extends SpoolItem {
  readonly leaseId: string;
  readonly leasedUntil: number;
}

/** Identifies a leased item when settling it. */
export interface SpoolLeaseRef {
  readonly target: string;
  readonly key: string;
  readonly leaseId: string;
}

/** Options of {@link Spool.enqueue}. */
export interface EnqueueOptions {
  /** The time of the enqueue. */
  readonly nowMs: number;
  /** Attempts already made before enqueuing. @default 0 */
  readonly attempts?: number;
  readonly lastError?: string;
}

/** Options of {@link Spool.lease}. */
export interface LeaseOptions {
  /** Most items to hand out. */
  readonly limit: number;
  /** How long the lease holds; after that another worker may take the item. */
  readonly leaseMs: number;
  /** Only items whose target starts with this, so several features can share one spool. */
  readonly targetPrefix?: string;
}

/** Options of {@link Spool.reschedule}. */
export interface RescheduleOptions {
  readonly dueAt: number;
  readonly error?: string;
}

/** Which items {@link Spool.count} counts. */
export interface SpoolCountFilter {
  /** @default 'pending' */
  readonly state?: 'pending' | 'delivered';
  readonly target?: string;
}

/**
 * A durable queue of deliveries that failed and must be retried, shared by several
 * processes through leases. Delivered items are kept (as a tombstone) until purged,
 * so a late duplicate enqueue is recognised and dropped.
 */
export interface Spool {
  /**
   * Adds an item. Answers `enqueued: false` when `(target, key)` is already held,
   * pending or delivered; the held item is left as it was.
   */
  enqueue(entry: SpoolEntry, options: EnqueueOptions): ResultAsync<{ readonly enqueued: boolean }, SpoolError>;
  /**
   * Hands out up to `limit` pending items with `dueAt <= nowMs` that nobody holds
   * (or whose lease expired), oldest due first, each under a new lease.
   */
  lease(nowMs: number, options: LeaseOptions): ResultAsync<readonly LeasedSpoolItem[], SpoolError>;
  /**
   * Records the item as delivered, whoever holds it now: the write happened, so
   * nobody must repeat it. Idempotent; unknown items are ignored.
   */
  markDelivered(ref: SpoolLeaseRef, nowMs: number): ResultAsync<void, SpoolError>;
  /**
   * Counts a failed attempt and sets the next due time, releasing the lease.
   * Answers `rescheduled: false` (and changes nothing) when the lease is no longer
   * this one's or the item is delivered.
   */
  reschedule(
    ref: SpoolLeaseRef,
    options: RescheduleOptions,
  ): ResultAsync<{ readonly rescheduled: boolean }, SpoolError>;
  /** How many items are held. */
  count(filter?: SpoolCountFilter): ResultAsync<number, SpoolError>;
  /** Forgets delivered items delivered before `beforeMs`; answers how many. */
  purgeDelivered(beforeMs: number): ResultAsync<number, SpoolError>;
}
