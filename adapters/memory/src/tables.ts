import type { Account, ApiKeyRecord, EntityAlias, EntityRecord, Id } from '@leadroute/core';

/** The memory adapter's backing maps; tests read them directly to check what was really stored. */
export interface MemoryTables {
  readonly accounts: Map<Id, Account>;
  readonly apiKeys: Map<string, ApiKeyRecord>;
  readonly entities: Map<Id, EntityRecord>;
  readonly aliases: Map<Id, EntityAlias>;
}

export function createTables(): MemoryTables {
  return { accounts: new Map(), apiKeys: new Map(), entities: new Map(), aliases: new Map() };
}

/**
 * Values cross the adapter boundary as copies, as they would through a database:
 * a caller mutating what it got back never changes what is stored.
 */
export const copy = <T>(value: T): T => structuredClone(value);
