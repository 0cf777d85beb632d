import type { AccountStore } from './accounts';
import type { AliasStore, EntityStore } from './entities';

/**
 * Every storage port an adapter implements. Adapters (memory, PostgreSQL, MongoDB)
 * return one object with a store per aggregate.
 */
export interface Storage {
  readonly accounts: AccountStore;
  readonly entities: EntityStore;
  readonly aliases: AliasStore;
}
