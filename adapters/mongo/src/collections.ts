import type { Collection, Db, MongoClient } from 'mongodb';
import { type AccountDoc, type AliasDoc, type ApiKeyDoc, COLLECTIONS, type EntityDoc, type SpoolDoc } from './documents';

/** Where the adapter keeps its collections. */
export interface MongoStorageOptions {
  /**
   * A client of the official `mongodb` driver. The host creates, connects (or lets
   * the driver connect on first use) and closes it; the adapter only runs operations.
   * @example new MongoClient(process.env.MONGODB_URI)
   */
  readonly client: Pick<MongoClient, 'db'>;
  /**
   * The database holding Leadroute's collections.
   * @default the database named in the client's connection string
   */
  readonly dbName?: string;
}

/** The adapter's collections, each typed with its document shape. */
export interface MongoCollections {
  readonly accounts: Collection<AccountDoc>;
  readonly apiKeys: Collection<ApiKeyDoc>;
  readonly entities: Collection<EntityDoc>;
  readonly aliases: Collection<AliasDoc>;
  readonly spool: Collection<SpoolDoc>;
}

/** The database the options name. */
export const databaseOf = (options: MongoStorageOptions): Db => options.client.db(options.dbName);

/** The typed collections of the database the options name. */
export function collectionsOf(options: MongoStorageOptions): MongoCollections {
  const db = databaseOf(options);
  return {
    accounts: db.collection<AccountDoc>(COLLECTIONS.accounts),
    apiKeys: db.collection<ApiKeyDoc>(COLLECTIONS.apiKeys),
    entities: db.collection<EntityDoc>(COLLECTIONS.entities),
    aliases: db.collection<AliasDoc>(COLLECTIONS.aliases),
    spool: db.collection<SpoolDoc>(COLLECTIONS.spool),
  };
}
