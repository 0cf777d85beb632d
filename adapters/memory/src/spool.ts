import { randomUUID } from 'node:crypto';
import { okAsync, type ResultAsync } from 'neverthrow';
import type {
  EnqueueOptions,
  LeasedSpoolItem,
  LeaseOptions,
  RescheduleOptions,
  Spool,
  SpoolCountFilter,
  SpoolEntry,
  SpoolError,
  SpoolItem,
  SpoolLeaseRef,
} from '@leadroute/core';
import { DONE } from './done';
import { before, type DueKey, DueQueue } from './due-queue';

/** Options of {@link memorySpool}. */
export interface MemorySpoolOptions {
  /**
   * Makes lease IDs; override for deterministic tests.
   * @default crypto.randomUUID
   */
  readonly newLeaseId?: () => string;
}

interface Held {
  item: SpoolItem;
  readonly seq: number;
  /** Changes when the item is rescheduled or delivered: a queue entry made before then is stale. */
  version: number;
  leaseId?: string;
  leasedUntil?: number;
  deliveredAt?: number;
}

/** A pending item's place in its target's {@link DueQueue}, as it was when queued. */
interface Queued extends DueKey {
  readonly held: Held;
  readonly version: number;
}

const queued = (held: Held): Queued => ({ dueAt: held.item.dueAt, seq: held.seq, held, version: held.version });

/**
 * A spool held in this process's memory: the embedded default. Not durable across
 * restarts; use the PostgreSQL or MongoDB spool where pending firehose deliveries
 * must survive one.
 * @example const spool = memorySpool();
 */
export function memorySpool(options: MemorySpoolOptions = {}): Spool {
  const newLeaseId = options.newLeaseId ?? randomUUID;
  const held = new Map<string, Held>();
  /**
   * Each target's pending items by due time. An entry stays queued while its item is leased (a lease that expires
   * hands it out again) and is dropped when read once stale: rescheduled (queued again at its new time) or delivered.
   */
  const queues = new Map<string, DueQueue<Queued>>();
  let seq = 0;
  const id = (target: string, key: string): string => `${target}\u0000${key}`;
  const enqueueHeld = (h: Held): void => {
    let queue = queues.get(h.item.target);
    if (!queue) queues.set(h.item.target, (queue = new DueQueue()));
    queue.push(queued(h));
  };
  /** The earliest due live entry of the queues, its stale entries before it dropped; undefined when none is left. */
  const earliest = (matching: readonly DueQueue<Queued>[]): DueQueue<Queued> | undefined => {
    let first: DueQueue<Queued> | undefined;
    for (const queue of matching) {
      let top = queue.peek();
      while (top && (top.version !== top.held.version || top.held.deliveredAt !== undefined)) {
        queue.pop();
        top = queue.peek();
      }
      const best = first?.peek();
      if (top && (!best || before(top, best))) first = queue;
    }
    return first;
  };

  return {
    enqueue(entry: SpoolEntry, opts: EnqueueOptions): ResultAsync<{ readonly enqueued: boolean }, SpoolError> {
      const k = id(entry.target, entry.key);
      if (held.has(k)) return okAsync({ enqueued: false });
      const item: SpoolItem = {
        target: entry.target,
        key: entry.key,
        payload: entry.payload,
        route: { ...entry.route },
        dueAt: entry.dueAt,
        attempts: opts.attempts ?? 0,
        enqueuedAt: opts.nowMs,
        ...(opts.lastError === undefined ? {} : { lastError: opts.lastError }),
      };
      const h: Held = { item, seq: seq++, version: 0 };
      held.set(k, h);
      enqueueHeld(h);
      return okAsync({ enqueued: true });
    },

    lease(nowMs: number, opts: LeaseOptions): ResultAsync<readonly LeasedSpoolItem[], SpoolError> {
      const matching: DueQueue<Queued>[] = [];
      for (const [target, queue] of queues) {
        if (queue.size === 0) queues.delete(target);
        else if (opts.targetPrefix === undefined || target.startsWith(opts.targetPrefix)) matching.push(queue);
      }
      const leased: LeasedSpoolItem[] = [];
      // Entries read and still pending (leased now or before) go back once the lease is made.
      const kept: [DueQueue<Queued>, Queued][] = [];
      const limit = Math.max(0, opts.limit);
      while (leased.length < limit) {
        const queue = earliest(matching);
        const entry = queue?.peek();
        if (!queue || !entry || entry.dueAt > nowMs) break;
        queue.pop();
        kept.push([queue, entry]);
        const h = entry.held;
        if (h.leasedUntil !== undefined && h.leasedUntil > nowMs) continue;
        h.leaseId = newLeaseId();
        h.leasedUntil = nowMs + opts.leaseMs;
        leased.push({ ...h.item, route: { ...h.item.route }, leaseId: h.leaseId, leasedUntil: h.leasedUntil });
      }
      for (const [queue, entry] of kept) queue.push(entry);
      return okAsync(leased);
    },

    markDelivered(ref: SpoolLeaseRef, nowMs: number): ResultAsync<void, SpoolError> {
      const h = held.get(id(ref.target, ref.key));
      if (h && h.deliveredAt === undefined) {
        h.deliveredAt = nowMs;
        h.version++;
        delete h.leaseId;
        delete h.leasedUntil;
      }
      return DONE;
    },

    reschedule(
      ref: SpoolLeaseRef,
      opts: RescheduleOptions,
    ): ResultAsync<{ readonly rescheduled: boolean }, SpoolError> {
      const h = held.get(id(ref.target, ref.key));
      if (!h || h.deliveredAt !== undefined || h.leaseId !== ref.leaseId) return okAsync({ rescheduled: false });
      h.item = {
        ...h.item,
        attempts: h.item.attempts + 1,
        dueAt: opts.dueAt,
        ...(opts.error === undefined ? {} : { lastError: opts.error }),
      };
      delete h.leaseId;
      delete h.leasedUntil;
      h.version++;
      enqueueHeld(h);
      return okAsync({ rescheduled: true });
    },

    count(filter: SpoolCountFilter = {}): ResultAsync<number, SpoolError> {
      const state = filter.state ?? 'pending';
      let n = 0;
      for (const h of held.values()) {
        if (filter.target !== undefined && h.item.target !== filter.target) continue;
        if ((h.deliveredAt === undefined) === (state === 'pending')) n++;
      }
      return okAsync(n);
    },

    purgeDelivered(beforeMs: number): ResultAsync<number, SpoolError> {
      let n = 0;
      for (const [k, h] of held) {
        if (h.deliveredAt !== undefined && h.deliveredAt < beforeMs) {
          held.delete(k);
          n++;
        }
      }
      return okAsync(n);
    },
  };
}
