import type { Storage, StoreError } from '@leadroute/core';
import type { ResultAsync } from 'neverthrow';
import { collectionsOf, databaseOf, type MongoStorageOptions } from './collections';
import { ensureIndexes } from './indexes';
import { FIELD_ROLLUP_COLLECTIONS, type FieldRollupDoc } from './queries/field-rollups';
import { accountStore } from './stores/accounts';
import { alertStore } from './stores/alerts';
import { aliasStore } from './stores/aliases';
import { certificateStore } from './stores/certificates';
import { counterStore } from './stores/counters';
import { credentialStore } from './stores/credentials';
import { entityStore } from './stores/entities';
import { eventStore } from './stores/events';
import { exportStore } from './stores/exports';
import { flowStore } from './stores/flows';
import { idempotencyStore } from './stores/idempotency';
import { jobStore } from './stores/jobs';
import { leadWrites } from './stores/lead-writes';
import { leadStore } from './stores/leads';
import { fieldRollupStore } from './stores/field-rollups';
import { rollupStore } from './stores/rollups';
import { searchIndex } from './stores/search';
import { mongoSpool } from './stores/spool';

export type { MongoStorageOptions } from './collections';
export { COLLECTIONS } from './documents';
export { ensureIndexes } from './indexes';
export { INDEXES, type IndexSpec } from './queries';
export { type MongoSpoolOptions, mongoSpool } from './stores/spool';

/** Every storage port on one database, and the call that prepares its indexes. */
export interface MongoStorage extends Storage {
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
  const { startSession } = options.client;
  if (options.transactions && typeof startSession !== 'function')
    throw new TypeError('[leadroute] [mongo] transactions: true needs a client with startSession (a MongoClient).');
  return {
    accounts: accountStore(collections),
    entities: entityStore(collections),
    aliases: aliasStore(collections),
    flows: flowStore(collections),
    leads: leadStore(collections),
    events: eventStore(collections),
    counters: counterStore(collections),
    credentials: credentialStore(collections),
    rollups: rollupStore(collections),
    fieldRollups: fieldRollupStore(databaseOf(options)),
    search: searchIndex(collections),
    exports: exportStore(collections),
    jobs: jobStore(collections),
    spool: mongoSpool(options),
    certificates: certificateStore(collections),
    alerts: alertStore(collections),
    idempotency: idempotencyStore(options),
    ...(options.transactions && startSession
      ? {
          leadWrites: leadWrites(
            { startSession: startSession.bind(options.client) },
            collections,
            databaseOf(options).collection<FieldRollupDoc>(FIELD_ROLLUP_COLLECTIONS.cells),
          ),
        }
      : {}),
    ensureIndexes: () => ensureIndexes(options),
  };
}
