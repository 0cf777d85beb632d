import type { AccountStore } from './accounts';
import type { AlertStore } from './alerts';
import type { CertificateStore } from './certificates';
import type { CounterStore } from './counters';
import type { CredentialStore } from './credentials';
import type { AliasStore, EntityStore } from './entities';
import type { EventStore } from './events';
import type { ExportStore } from './exports';
import type { FieldRollupStore } from './field-rollups';
import type { FlowStore } from './flows';
import type { IdempotencyStore } from './idempotency';
import type { JobStore } from './jobs';
import type { LeadWrites } from './lead-writes';
import type { LeadStore } from './leads';
import type { RollupStore } from './rollups';
import type { SearchIndex } from './search';
import type { Spool } from './spool';

/**
 * Every storage port an adapter implements. Adapters (memory, PostgreSQL, MongoDB)
 * return one object with a store per aggregate.
 */
export interface Storage {
  readonly accounts: AccountStore;
  readonly entities: EntityStore;
  readonly aliases: AliasStore;
  readonly flows: FlowStore;
  readonly leads: LeadStore;
  readonly events: EventStore;
  readonly counters: CounterStore;
  readonly credentials: CredentialStore;
  readonly rollups: RollupStore;
  /**
   * Hourly counters per value of the lead fields an account reports on (GET /events/stats grouped by them).
   * Optional: without it such statistics aggregate events.
   */
  readonly fieldRollups?: FieldRollupStore;
  /** The lead search index (GET /search/leads), following source events. */
  readonly search: SearchIndex;
  /** Export requests and their progress. */
  readonly exports: ExportStore;
  /** Leased background jobs (exports), shared by several processes. */
  readonly jobs: JobStore;
  /** Deliveries waiting for a retry (firehose); durable in production. */
  readonly spool: Spool;
  readonly certificates: CertificateStore;
  /**
   * Alerts, their timelines, alert settings overrides, and the named leases (the detector's per account, the retention
   * purge's).
   */
  readonly alerts: AlertStore;
  /**
   * Writes a lead's records (lead, events, rollups, search document) as one unit.
   * Optional: without it core writes them one by one, and a crash between two
   * writes can leave a lead half written.
   */
  readonly leadWrites?: LeadWrites;
  /** Idempotency keys of lead intake, kept 24 hours. */
  readonly idempotency: IdempotencyStore;
}
