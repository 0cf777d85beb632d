import type { Collection, Db, MongoClient } from 'mongodb';
import {
  type AccountDoc,
  type AliasDoc,
  type ApiKeyDoc,
  COLLECTIONS,
  type EntityDoc,
  type SpoolDoc,
} from './documents';
import type { CredentialDoc, EventDoc, ExportDoc, FlowDoc, LeadDoc } from './records';
import type {
  ActivityDoc,
  AlertDoc,
  CertificateDoc,
  CounterDoc,
  JobDoc,
  LeaseDoc,
  RollupDoc,
  SearchDoc,
  SeenSourceDoc,
  SequenceDoc,
  SettingsDoc,
} from './records-work';

/** Where the adapter keeps its collections. */
export interface MongoStorageOptions {
  /**
   * A client of the official `mongodb` driver. The host creates, connects (or lets
   * the driver connect on first use) and closes it; the adapter only runs operations.
   * @example new MongoClient(process.env.MONGODB_URI)
   */
  readonly client: Pick<MongoClient, 'db'> & Partial<Pick<MongoClient, 'startSession'>>;
  /**
   * The database holding Leadroute's collections.
   * @default the database named in the client's connection string
   */
  readonly dbName?: string;
  /**
   * Write each lead's records (lead, events, rollups, search document) in one
   * multi-document transaction, so a crash never leaves a lead half written. Needs a
   * replica set (one node is enough) or a sharded cluster, and a `client` with
   * `startSession`; a standalone server refuses transactions. Off, each record is
   * written on its own.
   * @default false
   */
  readonly transactions?: boolean;
}

/** The adapter's collections, each typed with its document shape. */
export interface MongoCollections {
  readonly accounts: Collection<AccountDoc>;
  readonly apiKeys: Collection<ApiKeyDoc>;
  readonly entities: Collection<EntityDoc>;
  readonly aliases: Collection<AliasDoc>;
  readonly spool: Collection<SpoolDoc>;
  readonly flows: Collection<FlowDoc>;
  readonly leads: Collection<LeadDoc>;
  readonly events: Collection<EventDoc>;
  readonly counters: Collection<CounterDoc>;
  readonly credentials: Collection<CredentialDoc>;
  readonly rollups: Collection<RollupDoc>;
  readonly search: Collection<SearchDoc>;
  readonly sequences: Collection<SequenceDoc>;
  readonly exports: Collection<ExportDoc>;
  readonly jobs: Collection<JobDoc>;
  readonly certificates: Collection<CertificateDoc>;
  readonly alerts: Collection<AlertDoc>;
  readonly alertActivity: Collection<ActivityDoc>;
  readonly alertSettings: Collection<SettingsDoc>;
  readonly seenSources: Collection<SeenSourceDoc>;
  readonly leases: Collection<LeaseDoc>;
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
    flows: db.collection<FlowDoc>(COLLECTIONS.flows),
    leads: db.collection<LeadDoc>(COLLECTIONS.leads),
    events: db.collection<EventDoc>(COLLECTIONS.events),
    counters: db.collection<CounterDoc>(COLLECTIONS.counters),
    credentials: db.collection<CredentialDoc>(COLLECTIONS.credentials),
    rollups: db.collection<RollupDoc>(COLLECTIONS.rollups),
    search: db.collection<SearchDoc>(COLLECTIONS.search),
    sequences: db.collection<SequenceDoc>(COLLECTIONS.sequences),
    exports: db.collection<ExportDoc>(COLLECTIONS.exports),
    jobs: db.collection<JobDoc>(COLLECTIONS.jobs),
    certificates: db.collection<CertificateDoc>(COLLECTIONS.certificates),
    alerts: db.collection<AlertDoc>(COLLECTIONS.alerts),
    alertActivity: db.collection<ActivityDoc>(COLLECTIONS.alertActivity),
    alertSettings: db.collection<SettingsDoc>(COLLECTIONS.alertSettings),
    seenSources: db.collection<SeenSourceDoc>(COLLECTIONS.seenSources),
    leases: db.collection<LeaseDoc>(COLLECTIONS.leases),
  };
}
