import { type AlertTables, createAlertTables } from './alert-store';
import type { ExportTable } from './export-store';
import type { JobTable } from './job-store';
import type { RollupTable } from './rollup-store';
import type { SearchTable } from './search-index';
import type { Account, ApiKeyRecord, CertificateRecord, CredentialRecord, EntityAlias, EntityRecord, FlowRecord, Id, LeadRecord, StoredEvent } from '@leadroute/core';

/** The memory adapter's backing maps; tests read them directly to check what was really stored. */
export interface MemoryTables {
  readonly accounts: Map<Id, Account>;
  readonly apiKeys: Map<string, ApiKeyRecord>;
  readonly entities: Map<Id, EntityRecord>;
  readonly aliases: Map<Id, EntityAlias>;
  readonly flows: Map<Id, FlowRecord>;
  readonly leads: Map<Id, LeadRecord>;
  readonly events: Map<Id, StoredEvent>;
  /** Each account's event IDs in ascending order: what paging walks. */
  readonly eventOrder: Map<Id, Id[]>;
  /** Recipient references to the events that carry them. */
  readonly eventReferences: Map<string, Set<Id>>;
  readonly counters: Map<string, { count: number; expires_at: string }>;
  readonly credentials: Map<Id, CredentialRecord>;
  readonly rollups: RollupTable;
  /** The search index, one per account. */
  readonly search: SearchTable;
  readonly certificates: Map<string, CertificateRecord>;
  /** Ping tokens to certificate IDs. */
  readonly certificatePingTokens: Map<string, string>;
  readonly alerts: AlertTables;
  readonly exports: ExportTable;
  readonly jobs: JobTable;
}

export function createTables(): MemoryTables {
  return {
    accounts: new Map(),
    apiKeys: new Map(),
    entities: new Map(),
    aliases: new Map(),
    flows: new Map(),
    leads: new Map(),
    events: new Map(),
    eventOrder: new Map(),
    eventReferences: new Map(),
    counters: new Map(),
    credentials: new Map(),
    rollups: new Map(),
    search: new Map(),
    certificates: new Map(),
    certificatePingTokens: new Map(),
    alerts: createAlertTables(),
    exports: new Map(),
    jobs: new Map(),
  };
}

/**
 * Values cross the adapter boundary as copies, as they would through a database:
 * a caller mutating what it got back never changes what is stored.
 */
export const copy = <T>(value: T): T => structuredClone(value);

/**
 * What a store keeps: a deep-frozen copy. Reads hand the stored value out as is:
 * nobody can change it (in strict mode a write throws), so records are copied once
 * when written instead of on every read, which is what hot paths do most
 * (authentication, feedback and intake each read several records per request).
 * Parts that are frozen already are shared, not copied: a feedback event carries
 * its delivery's stored vars, and those cannot change.
 */
export function frozen<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  if (Array.isArray(value)) return Object.freeze(value.map(frozen)) as T;
  const proto: unknown = Object.getPrototypeOf(value);
  // Records are plain data; anything else (bytes, dates) is copied the general way.
  if (proto !== Object.prototype && proto !== null) return structuredClone(value);
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const item = frozen((value as Record<string, unknown>)[key]);
    if (key === '__proto__') Object.defineProperty(out, key, { value: item, enumerable: true });
    else out[key] = item;
  }
  return Object.freeze(out) as T;
}

/** A stored record with some top-level fields replaced, frozen like the rest. */
export const withChanges = <T extends object>(record: T, changes: Partial<T>): T => Object.freeze({ ...record, ...frozen(changes) });
