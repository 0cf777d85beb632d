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
 * mutating what it inserted.
 *
 * Records are plain data, copied by spreading each object: V8 copies such objects
 * with their shape, so a copy is compact and an order of magnitude faster than
 * structuredClone (whose serialize-then-parse dominated every hot path). Freezing
 * stored records instead of copying them was tried and measured: a frozen copy
 * took four times the memory of a plain one. Anything that is not plain data
 * (bytes, dates) is copied the general way. A value frozen all through is kept
 * as it is: no one can change it (the core freezes a flow when it compiles it,
 * and every event of the flow's leads carries its step's rule set, mappings and
 * pricing).
 */
export function copy<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  if (frozenThrough(value)) return value;
  const shared = scope?.get(value);
  if (shared !== undefined) return shared as T;
  let out: unknown;
  if (Array.isArray(value)) out = value.map(copy);
  else {
    const proto: unknown = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) out = structuredClone(value);
    else {
      // Spread defines own data properties, so even a `__proto__` key is copied as data.
      const record: Record<string, unknown> = { ...(value as Record<string, unknown>) };
      for (const key in record) {
        const item = record[key];
        if (typeof item === 'object' && item !== null) record[key] = copy(item);
      }
      out = record;
    }
  }
  scope?.set(value, out);
  return out as T;
}

/** Objects known to be frozen all through. */
const frozen = new WeakSet<object>();

/** Whether `value` and everything it holds is frozen: plain data that can be shared as it is. */
function frozenThrough(value: object): boolean {
  if (!Object.isFrozen(value)) return false;
  if (frozen.has(value)) return true;
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== Array.prototype && proto !== null) return false;
  for (const item of Object.values(value))
    if (typeof item === 'object' && item !== null && !frozenThrough(item)) return false;
  frozen.add(value);
  return true;
}

/** The copies made in the current {@link sharingCopies} call, by original. */
let scope: Map<object, unknown> | undefined;

/**
 * Runs `write` (synchronous) so that an object reached more than once among the values
 * it stores is copied once and the stored records share that copy: a lead's fields
 * appear in the lead and in `vars.lead` of each of its events, its source and flow in
 * every event (#22: a stored lead with its events took 11 KB). Stored records are never
 * changed in place and reads copy them, so the sharing cannot be observed.
 */
export function sharingCopies<T>(write: () => T): T {
  const outer = scope;
  scope = outer ?? new Map();
  try {
    return write();
  } finally {
    scope = outer;
  }
}
