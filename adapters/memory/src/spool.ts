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
  seq: number;
  leaseId?: string;
  leasedUntil?: number;
  deliveredAt?: number;
}

/**
 * A spool held in this process's memory: the embedded default. Not durable across
 * restarts; use the PostgreSQL or MongoDB spool where pending firehose deliveries
 * must survive one.
 * @example const spool = memorySpool();
 */
export function memorySpool(options: MemorySpoolOptions = {}): Spool {
  const newLeaseId = options.newLeaseId ?? randomUUID;
  const held = new Map<string, Held>();
  let seq = 0;
  const id = (target: string, key: string): string => `${target}\u0000${key}`;

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
      held.set(k, { item, seq: seq++ });
      return okAsync({ enqueued: true });
    },

    lease(nowMs: number, opts: LeaseOptions): ResultAsync<readonly LeasedSpoolItem[], SpoolError> {
      const due = [...held.values()]
        .filter(
          (h) =>
            h.deliveredAt === undefined &&
            h.item.dueAt <= nowMs &&
            (opts.targetPrefix === undefined || h.item.target.startsWith(opts.targetPrefix)) &&
            (h.leasedUntil === undefined || h.leasedUntil <= nowMs),
        )
        .sort((a, b) => a.item.dueAt - b.item.dueAt || a.seq - b.seq)
        .slice(0, Math.max(0, opts.limit));
      const leased = due.map((h): LeasedSpoolItem => {
        h.leaseId = newLeaseId();
        h.leasedUntil = nowMs + opts.leaseMs;
        return { ...h.item, route: { ...h.item.route }, leaseId: h.leaseId, leasedUntil: h.leasedUntil };
      });
      return okAsync(leased);
    },

    markDelivered(ref: SpoolLeaseRef, nowMs: number): ResultAsync<void, SpoolError> {
      const h = held.get(id(ref.target, ref.key));
      if (h && h.deliveredAt === undefined) {
        h.deliveredAt = nowMs;
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
