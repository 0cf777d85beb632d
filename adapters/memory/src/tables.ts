import { copyData } from '@leadroute/core';
import { type AlertTables, createAlertTables } from './alert-store';
import type { ExportTable } from './export-store';
import type { JobTable } from './job-store';
import type { RollupTable } from './rollup-store';
import type { SearchTable } from './search-index';
import type { SortedIds } from './sorted-ids';
import type {
  Account,
  ApiKeyRecord,
  CertificateRecord,
  CredentialRecord,
  EntityAlias,
  EntityRecord,
  FlowRecord,
  Id,
  LeadRecord,
  StoredEvent,
} from '@leadroute/core';

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
  readonly eventOrder: Map<Id, SortedIds>;
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
 * a caller mutating what it got back never changes what is stored, nor does one
 * mutating what it inserted (core's `copyData`). A lead's records are the exception:
 * `leadWrites.commit` keeps what the core hands over (see `memoryLeadWrites`).
 */
export const copy = <T>(value: T): T => copyData(value);
