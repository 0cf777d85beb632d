import { type AccountsApi, createAccountsApi } from './accounts/service';
import { type AliasesApi, createAliasesApi } from './entities/aliases';
import { createEntitiesApi, type EntitiesApi } from './entities/service';
import { type Clock, systemClock } from './ports/clock';
import { type Logger, silentLogger } from './ports/logger';
import type { Storage } from './ports/storage';

/** Options of {@link createLeadService}: the ports the service runs on. */
export interface LeadServiceOptions {
  /** Every storage port, from an adapter: `memoryStorage()`, `postgresStorage({ pool })`, `mongoStorage({ client })`. */
  readonly storage: Storage;
  /** Where time comes from; tests pass a controllable clock. @default systemClock */
  readonly clock?: Clock;
  /** A pino-compatible logger. @default silentLogger */
  readonly logger?: Logger;
}

/** The service: one object whose sub-APIs the HTTP handler and embedding code call alike. */
export interface LeadService {
  readonly accounts: AccountsApi;
  readonly entities: EntitiesApi;
  readonly aliases: AliasesApi;
  readonly clock: Clock;
  readonly logger: Logger;
}

const REQUIRED_STORES: Record<keyof Storage, readonly string[]> = {
  accounts: ['insert', 'get', 'insertKey', 'findKey'],
  entities: ['insert', 'get', 'listByOwner', 'update'],
  aliases: ['insert', 'get', 'listByAccount', 'update', 'remove'],
};

/** The storage methods an adapter lacks, as `store.method` names; empty when it is complete. */
export function missingStorageMethods(storage: Storage): string[] {
  const missing: string[] = [];
  for (const [store, methods] of Object.entries(REQUIRED_STORES)) {
    const impl = (storage as unknown as Record<string, Record<string, unknown> | undefined>)[store];
    for (const method of methods) if (typeof impl?.[method] !== 'function') missing.push(`${store}.${method}`);
  }
  return missing;
}

/**
 * The composition root: wires the ports into the sub-APIs.
 * @example
 * const service = createLeadService({ storage: memoryStorage() });
 * const { api_key } = (await service.accounts.create({ name: 'Acme' }))._unsafeUnwrap();
 */
export function createLeadService(options: LeadServiceOptions): LeadService {
  const missing = missingStorageMethods(options.storage);
  // A storage adapter that lacks a method is a programmer error: say so at start-up, not on first use.
  if (missing.length > 0) throw new TypeError(`[leadroute] storage adapter is missing: ${missing.join(', ')}`);
  const storage = options.storage;
  const clock = options.clock ?? systemClock;
  const logger = options.logger ?? silentLogger;
  const entities = createEntitiesApi({ storage, clock });
  return {
    accounts: createAccountsApi({ storage, clock }),
    entities,
    aliases: createAliasesApi({ storage, clock, entities }),
    clock,
    logger,
  };
}
