import type { Spool, Storage, StoreError } from '@leadroute/core';
import type { ResultAsync } from 'neverthrow';
import { collectionsOf, type MongoStorageOptions } from './collections';
import { ensureIndexes } from './indexes';
import { accountStore } from './stores/accounts';
import { aliasStore } from './stores/aliases';
import { entityStore } from './stores/entities';
import { mongoSpool } from './stores/spool';

export type { MongoStorageOptions } from './collections';
export { COLLECTIONS } from './documents';
export { ensureIndexes } from './indexes';
export { INDEXES, type IndexSpec } from './queries';
export { type MongoSpoolOptions, mongoSpool } from './stores/spool';

/**
 * The storage ports MongoDB implements so far (accounts, entities, aliases), the
 * spool, and the call that prepares the indexes.
 */
export interface MongoStorage extends Pick<Storage, 'accounts' | 'entities' | 'aliases'> {
  /** The delivery spool on the same database (as {@link mongoSpool} makes it). */
  readonly spool: Spool;
  /** {@link ensureIndexes} on this storage's database. */
  ensureIndexes(): ResultAsync<readonly string[], StoreError>;
}

/**
 * Every storage port on MongoDB through the official driver. Run `ensureIndexes()`
 * first (at start-up or once per deploy): the unique indexes are what turn a
 * duplicate API key hash or a second alias of one entity into a `Conflict`. Driver
 * errors come back as `StoreError` values: `Conflict` for a duplicate key,
 * `StorageFailure` otherwise, with the driver's error as `cause`.
 * @example
 * import { MongoClient } from 'mongodb';
 * import { mongoStorage } from '@leadroute/mongo';
 *
 * const client = new MongoClient(process.env.MONGODB_URI!);
 * const storage = mongoStorage({ client, dbName: 'leadroute' });
 * (await storage.ensureIndexes())._unsafeUnwrap();
 * const service = createLeadService({ storage });
 */
export function mongoStorage(options: MongoStorageOptions): MongoStorage {
  const collections = collectionsOf(options);
  return {
    accounts: accountStore(collections),
    entities: entityStore(collections),
    aliases: aliasStore(collections),
    spool: mongoSpool(options),
    ensureIndexes: () => ensureIndexes(options),
  };
}
