import { createOperatorsApi, type OperatorStaffConfig, type OperatorsApi } from './operators';
import { randomBytes } from 'node:crypto';
import { err, ok, type Result, ResultAsync } from 'neverthrow';
import { hostname } from 'node:os';
import { type AccountsApi, createAccountsApi } from './accounts/service';
import { type AlertsApi, createAlertsApi } from './alerts/service';
import { type AliasesApi, createAliasesApi } from './entities/aliases';
import { createEntitiesApi, type EntitiesApi } from './entities/service';
import { standardEntity } from './entities/standard';
import { createEventRecorder, type EventRecorder } from './events/recorder';
import { createEventsApi, type EventsApi } from './events/service';
import { loggingNotifier } from './exports/notify';
import { createExportsApi, type ExportsApi } from './exports/service';
import type { ExportOptions } from './exports/settings';
import { createFeedbackApi, type FeedbackApi } from './feedback/service';
import { type ConnectionsApi, createConnectionsApi } from './connections/service';
import { createFeedbackIntegrationRegistry } from './feedback/integrations';
import type { InboundFeedbackModule } from './feedback/types';
import { type CertificateOptions, type CertificatesApi, createCertificatesApi } from './certificates/service';
import { createFirehoseApi, type FirehoseApi, type FirehoseOptions, observeFirehose } from './firehose/service';
import { createFlowCache } from './flows/compile';
import { DEFAULT_LEAD_LIMITS, type LeadLimits } from './flows/context';
import { createLeadsApi, type LeadsApi } from './flows/intake';
import { createFlowsApi, type FlowsApi } from './flows/service';
import { createIntegrationRegistry, type IntegrationRegistry } from './integrations/registry';
import { alertJob, type ServiceStartOptions, startRetention, type StoppableJob } from './lifecycle';
import { type Clock, systemClock } from './ports/clock';
import type { CloudStorageDrivers } from './ports/cloud-storage';
import type { FileStore } from './ports/files';
import type { OutboundModule } from './ports/integrations';
import { type Logger, silentLogger } from './ports/logger';
import type { Notifier } from './ports/notifier';
import type { Storage } from './ports/storage';
import { createSearchApi, type SearchApi } from './search';
import { isoTime } from './time';
import { shortLived } from './short-lived';
import type { StoreError } from './ports/store-error';
import { createStatsApi, type StatsApi } from './stats';

/** Options of {@link createLeadService}: the ports the service runs on. */
export interface LeadServiceOptions {
  /**
   * Every storage port, from an adapter: `memoryStorage()`, `postgresStorage({ pool })`, `mongoStorage({ client })`.
   */
  readonly storage: Storage;
  /**
   * The operator's staff (#19.6): people who run this installation, not accounts. Each
   * authenticates with their own key (only its SHA-256 is configured) and may read the
   * internal entries of any account's alert timeline. @default none
   */
  readonly operatorStaff?: readonly OperatorStaffConfig[];
  /** Where time comes from; tests pass a controllable clock. @default systemClock */
  readonly clock?: Clock;
  /** A pino-compatible logger. @default silentLogger */
  readonly logger?: Logger;
  /**
   * Outbound integration modules besides the built-in `platform-custom.outbound.json`;
   * one with a built-in's ID replaces it.
   * @example [scriptedRecipient()]
   */
  readonly integrations?: readonly OutboundModule[];
  /**
   * Inbound feedback integrations (`platform-<name>.inbound.feedback`, served at
   * POST /feedback/<name>) besides the built-in `standard`; one named standard replaces it.
   */
  readonly feedbackIntegrations?: readonly InboundFeedbackModule[];
  /** Recorded as `host` on events. @default os.hostname() */
  readonly host?: string;
  /**
   * Cloud storage drivers for firehose validation and delivery, by service.
   * A service without a driver answers 400 on GET /firehose and spools its events.
   * @example { aws: s3Storage(), azure: azureBlobStorage() }
   */
  readonly cloudStorage?: CloudStorageDrivers;
  /** Retry tuning of firehose delivery. */
  readonly firehose?: FirehoseOptions;
  /** Certificate lifetimes and the certificate handler's public address. */
  readonly certificates?: CertificateOptions;
  /**
   * Sends e-mail (export notices, alerts).
   * @default a notifier that logs each message's recipients and subject and drops it
   * @example memoryOutbox() // @leadroute/memory, for tests; smtpNotifier(...) // @leadroute/smtp
   */
  readonly notifier?: Notifier;
  /**
   * Where export CSVs go. Without one, POST /exports answers 503.
   * @example memoryFileStore() // @leadroute/memory; directoryFileStore({ dir }); s3FileStore({ driver, location })
   */
  readonly fileStore?: FileStore;
  /** Export expiry, row limit, download-link secret and the background worker. */
  readonly exports?: ExportOptions;
  /** How large a lead may be (fields and characters); a larger one is refused with 400. @default DEFAULT_LEAD_LIMITS */
  readonly leadLimits?: Partial<LeadLimits>;
}

/** The service: one object whose sub-APIs the HTTP handler and embedding code call alike. */
export interface LeadService {
  readonly accounts: AccountsApi;
  /** Operator staff (see `operatorStaff`). */
  readonly operators: OperatorsApi;
  readonly entities: EntitiesApi;
  readonly aliases: AliasesApi;
  readonly flows: FlowsApi;
  readonly leads: LeadsApi;
  readonly events: EventsApi;
  readonly feedback: FeedbackApi;
  /** Event statistics from rollups (GET /events/stats). */
  readonly stats: StatsApi;
  /** Full-text lead search (GET /search/leads). */
  readonly search: SearchApi;
  /** Cloud storage validation (GET /firehose) and event delivery with spooling. */
  readonly firehose: FirehoseApi;
  /** Consent certificates and their ping data (the certificate handler). */
  readonly certificates: CertificatesApi;
  /** Background CSV exports of events, their files and download links. */
  readonly exports: ExportsApi;
  /** Alert detection, active alerts, their timelines and alert settings. */
  readonly alerts: AlertsApi;
  /** Connections between accounts: invitations, acceptance (#24.7). */
  readonly connections: ConnectionsApi;
  readonly integrations: IntegrationRegistry;
  /** Where recorded events go; capabilities built on events observe it. */
  readonly recorder: EventRecorder;
  /** How large a lead may be: `leadLimits` over the defaults. */
  readonly leadLimits: LeadLimits;
  readonly storage: Storage;
  readonly clock: Clock;
  readonly logger: Logger;
  /**
   * Starts every background job: the export worker, alert detector passes, the
   * retention purge and firehose spool retries (each can be left out). Creating the
   * service starts none of them. Calling it while the jobs run does nothing.
   */
  start(options?: ServiceStartOptions): void;
  /**
   * Stops every background job and resolves once the work under way has ended (an
   * export stops at its next page and is released for the next worker). Safe to call
   * more than once, and before `start()`; the service may be started again afterwards.
   */
  close(): Promise<void>;
  /** `close()`, for `await using service = createLeadService(...)`. */
  [Symbol.asyncDispose](): Promise<void>;
  /** True between `start()` and `close()`. */
  readonly running: boolean;
}

/**
 * Every store an adapter must have and its methods; `leadWrites` and `fieldRollups` are optional (without them, core writes a lead's records
 * one by one).
 */
const REQUIRED_STORES: Record<Exclude<keyof Storage, 'leadWrites' | 'fieldRollups'>, readonly string[]> = {
  accounts: ['insert', 'get', 'insertKey', 'findKey'],
  entities: ['insert', 'get', 'listByOwner', 'update'],
  aliases: ['insert', 'get', 'listByAccount', 'update', 'remove'],
  flows: ['insert', 'get', 'listByAccount', 'update'],
  leads: ['insert', 'get', 'setLatestEvent', 'markReturned', 'purgeExpired'],
  events: ['insert', 'get', 'query', 'findByReference', 'purgeExpired'],
  counters: ['tryIncrement', 'decrement', 'get'],
  credentials: ['insert', 'get', 'listByAccount'],
  rollups: ['add', 'query', 'activeAccounts'],
  search: ['index', 'search', 'purgeExpired'],
  spool: ['enqueue', 'lease', 'markDelivered', 'reschedule', 'count', 'purgeDelivered'],
  certificates: ['insert', 'get', 'findByPingToken', 'claim'],
  exports: ['insert', 'get', 'list', 'update', 'addDownload'],
  jobs: ['enqueue', 'claim', 'extend', 'complete', 'fail', 'get'],
  idempotency: ['claim', 'complete', 'release', 'purgeExpired'],
  alerts: [
    'put',
    'get',
    'listActive',
    'accountsWithActive',
    'addActivity',
    'activity',
    'getSettings',
    'setSettings',
    'markSourceSeen',
    'tryLease',
    'releaseLease',
  ],
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

/** How long what every lead reads (aliases, entity names, the account) is kept: another instance's change shows within it. */
const SHORT_TTL_MS = 5_000;

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
  const entities = createEntitiesApi({ storage, clock, renamed: (id) => names.forget(id) });
  const certificates = createCertificatesApi({
    storage,
    clock,
    ...(options.certificates ? { options: options.certificates } : {}),
  });
  const integrations = createIntegrationRegistry(options.integrations, { certificates });
  // Rollup rows and search documents are written with their events (one unit per lead); observers follow once they are
  // stored.
  const recorder = createEventRecorder({ storage, logger, clock });
  const leadLimits: LeadLimits = { ...DEFAULT_LEAD_LIMITS, ...options.leadLimits };
  const firehose = createFirehoseApi({
    storage,
    clock,
    logger,
    cloudStorage: options.cloudStorage ?? {},
    ...(options.firehose ? { options: options.firehose } : {}),
  });
  observeFirehose(recorder, firehose);
  const notifier = options.notifier ?? loggingNotifier(logger);
  const exports = createExportsApi({
    storage,
    clock,
    logger,
    notifier,
    fileStore: options.fileStore,
    options: options.exports ?? {},
  });
  // What every lead reads and almost nothing changes, kept SHORT_TTL_MS (and forgotten at once when this process
  // changes it): an account's aliases by entity, the name that account sees for an entity in its events, search hits
  // and alerts (#19.12); entity names, which every recipient step puts on its event; the flow a lead is posted to and
  // its account (#22: each was a read per lead or per step, a round trip on a database).
  const aliases = shortLived<Map<string, string>>({
    clock,
    ttlMs: SHORT_TTL_MS,
    max: 10_000,
    read: (accountId) =>
      storage.aliases.listByAccount(accountId).match(
        (list) => ({ value: new Map(list.map((a) => [a.entity_id, a.entity_alias])), kept: true }),
        () => ({ value: new Map<string, string>(), kept: false }),
      ),
  });
  // A record read by ID, kept only when found: an unknown ID (a caller walking posting URLs) is read again each time.
  // `get` answers as the store does, a ResultAsync, for intake and feedback alike.
  const byId = <R>(get: (id: string) => ResultAsync<R | undefined, StoreError>, max: number) => {
    const kept = shortLived<Result<R | undefined, StoreError>>({
      clock,
      ttlMs: SHORT_TTL_MS,
      max,
      read: (id) =>
        get(id).match(
          (found) => ({ value: ok(found), kept: found !== undefined }),
          (e) => ({ value: err(e), kept: false }),
        ),
    });
    return { get: (id: string) => new ResultAsync(kept.get(id)), forget: kept.forget };
  };
  const accounts = byId((id) => storage.accounts.get(id), 10_000);
  const flows = byId((id) => storage.flows.get(id), 10_000);
  const names = shortLived<string>({
    clock,
    ttlMs: SHORT_TTL_MS,
    max: 100_000,
    read: (id) =>
      storage.entities.get(id).match(
        (record) => ({ value: record?.name ?? '', kept: true }),
        () => ({ value: '', kept: false }),
      ),
  });
  const entityName = async (accountId: string, id: string): Promise<string> => {
    const alias = (await aliases.get(accountId)).get(id);
    if (alias) return alias;
    const builtIn = standardEntity(id);
    if (builtIn) return builtIn.name;
    return names.get(id);
  };
  const alerts = createAlertsApi({ storage, clock, logger, recorder, notifier, entityName });
  const events = createEventsApi({ storage, clock });
  // Who holds this service's named leases: one owner per service object, so two services of one process are two
  // holders.
  const leaseOwner = `${options.host ?? hostname()}:${process.pid}:${randomBytes(6).toString('hex')}`;
  let jobs: StoppableJob[] | undefined;
  let closing: Promise<void> | undefined;

  const start = (startOptions: ServiceStartOptions = {}): void => {
    if (jobs) return;
    jobs = [];
    if (startOptions.exports ?? exports.backgroundWorker) {
      exports.worker.start();
      jobs.push({ name: 'exports', stop: () => exports.worker.stop() });
    }
    if (startOptions.alerts !== false)
      jobs.push(alertJob(alerts.runner({ intervalMs: startOptions.alerts?.intervalMs ?? 60_000 })));
    if (startOptions.retention !== false)
      jobs.push(
        startRetention(
          {
            clock,
            logger,
            purgeExpired: () => events.purgeExpired(),
            // The named leases live with the alert detector's (one table in PostgreSQL, one collection in MongoDB).
            tryLease: (name, now, until) => storage.alerts.tryLease(name, leaseOwner, isoTime(now), isoTime(until)),
          },
          {
            ...startOptions.retention,
            // Expired Idempotency-Key records, which nothing else deletes, go with the rest.
            also: [
              { name: 'idempotency keys', run: (before) => storage.idempotency.purgeExpired(before) },
              ...(startOptions.retention?.also ?? []),
            ],
          },
        ),
      );
    if (startOptions.firehose !== false) {
      const runner = firehose.runner(startOptions.firehose ?? {});
      runner.start();
      jobs.push({ name: 'firehose', stop: () => runner.stop() });
    }
    logger.info({ jobs: jobs.map((j) => j.name) }, 'background jobs started');
  };

  const close = (): Promise<void> => {
    if (closing) return closing;
    const running = jobs;
    if (!running) return Promise.resolve();
    closing = Promise.allSettled(running.map((job) => job.stop())).then((settled) => {
      settled.forEach((r, i) => {
        if (r.status === 'rejected')
          logger.error({ err: r.reason, job: running[i]?.name }, 'background job did not stop cleanly');
      });
      logger.info({ jobs: running.map((j) => j.name) }, 'background jobs stopped');
      jobs = undefined;
      closing = undefined;
    });
    return closing;
  };

  return {
    start,
    close,
    [Symbol.asyncDispose]: close,
    get running() {
      return jobs !== undefined && closing === undefined;
    },
    accounts: createAccountsApi({ storage, clock, changed: accounts.forget }),
    operators: createOperatorsApi(options.operatorStaff),
    entities,
    aliases: createAliasesApi({ storage, clock, entities, changed: aliases.forget }),
    flows: createFlowsApi({ storage, clock, entities, integrations, changed: flows.forget }),
    leads: createLeadsApi({
      storage,
      clock,
      logger,
      integrations,
      recorder,
      compile: createFlowCache(),
      entityName,
      flow: flows.get,
      account: accounts.get,
      host: options.host ?? hostname(),
      leadLimits,
    }),
    leadLimits,
    events,
    feedback: createFeedbackApi({
      storage,
      clock,
      logger,
      recorder,
      integrations: createFeedbackIntegrationRegistry(options.feedbackIntegrations),
      outbound: (id) => integrations.outbound(id),
      host: options.host ?? hostname(),
      account: accounts.get,
      flow: flows.get,
    }),
    stats: createStatsApi({ storage, clock }),
    search: createSearchApi({ storage, clock }),
    firehose,
    certificates,
    exports,
    alerts,
    connections: createConnectionsApi({ storage, clock, notifier }),
    integrations,
    recorder,
    storage,
    clock,
    logger,
  };
}
