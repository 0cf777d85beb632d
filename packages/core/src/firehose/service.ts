import { okAsync, ResultAsync } from 'neverthrow';
import type { LeadrouteError } from '../errors';
import { isId } from '../ids';
import type { EventRecorder } from '../events/recorder';
import { toEventRecord } from '../events/service';
import type { StoredEvent } from '../domain/events';
import type { Clock } from '../ports/clock';
import type { CloudStorageDrivers } from '../ports/cloud-storage';
import type { Logger } from '../ports/logger';
import type { Storage } from '../ports/storage';
import { firehoseTargets } from './config';
import { credentialResolver } from './credentials';
import { createFirehoseDelivery, type DeliveryOutcome, type FirehoseDelivery, type RetryReport } from './delivery';
import type { QueryParams } from './query';
import { type FirehoseValidation, validateFirehose } from './validate';

/** Options of the firehose (`createLeadService({ firehose })`). */
export interface FirehoseOptions {
  /** Retry delays of spooled events. @default { baseMs: 1000, maxMs: 300000 } */
  readonly backoff?: { readonly baseMs?: number; readonly maxMs?: number };
  /** Spooled events taken per lease. @default 100 */
  readonly batchSize?: number;
  /** How long one retry round may hold its events. @default 60000 */
  readonly leaseMs?: number;
}

/** Options of {@link FirehoseApi.runner}. */
export interface FirehoseRunnerOptions {
  /** Pause between retry passes. @default 5000 */
  readonly intervalMs?: number;
  /** Delivered items are remembered this long (to drop late duplicates), then purged. @default 86400000 (a day) */
  readonly keepDeliveredMs?: number;
}

/** Retries spooled events on a timer; its timer never keeps the process alive. */
export interface FirehoseRunner {
  start(): void;
  /** Stops the timer and waits for a pass in progress. */
  stop(): Promise<void>;
  readonly running: boolean;
}

/** The `firehose` sub-API: validation of cloud storage credentials and delivery of events. */
export interface FirehoseApi {
  /** `GET /firehose`: see {@link validateFirehose}. */
  validate(query: QueryParams): ResultAsync<FirehoseValidation, LeadrouteError>;
  /**
   * Writes an event to its flow's firehose services, spooling what fails. The
   * recorder does this for every event of a flow whose firehose is enabled.
   */
  deliver(event: StoredEvent): ResultAsync<readonly DeliveryOutcome[], LeadrouteError>;
  /** Retries the spooled events that are due; run it on a timer, or use {@link runner}. */
  retryDue(nowMs?: number): ResultAsync<RetryReport, LeadrouteError>;
  runner(options?: FirehoseRunnerOptions): FirehoseRunner;
  readonly delivery: FirehoseDelivery;
}

interface Deps {
  readonly storage: Storage;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly cloudStorage: CloudStorageDrivers;
  readonly options?: FirehoseOptions;
}

export function createFirehoseApi(deps: Deps): FirehoseApi {
  const { storage, clock, logger } = deps;
  const delivery = createFirehoseDelivery({
    cloudStorage: deps.cloudStorage,
    spool: storage.spool,
    clock,
    logger,
    resolveCredential: credentialResolver(storage),
    ...deps.options,
  });

  /** The flow's full configuration: events show it without inline secrets. */
  const configOf = (event: StoredEvent) =>
    storage.flows
      .get(event.flow_id)
      .map((flow) => (flow && flow.account_id === event.account_id ? flow.firehose : undefined) ?? event.firehose);

  /** Credentials named by the configuration must be the event's account's. */
  const foreignCredential = (event: StoredEvent, credentialIds: readonly string[]) =>
    ResultAsync.combine(credentialIds.filter(isId).map((id) => storage.credentials.get(id.toLowerCase()))).map(
      (found) => found.some((c) => c !== undefined && c.account_id !== event.account_id),
    );

  const deliver = (event: StoredEvent): ResultAsync<readonly DeliveryOutcome[], LeadrouteError> => {
    if (!event.firehose?.enabled) return okAsync([]);
    return configOf(event).andThen((config) => {
      if (!config) return okAsync([]);
      const ids = firehoseTargets(config).flatMap((t) => (t.credential_id === undefined ? [] : [t.credential_id]));
      return foreignCredential(event, ids).andThen((foreign) => {
        if (foreign) {
          logger.warn(
            { eventId: event.id, flowId: event.flow_id },
            'firehose credential belongs to another account; event not delivered',
          );
          return okAsync([]);
        }
        return delivery.deliver(config, { ...toEventRecord(event) });
      });
    });
  };

  return {
    delivery,
    validate: (query) => validateFirehose({ clock, cloudStorage: deps.cloudStorage }, query),
    deliver,
    retryDue: (nowMs) => delivery.retryDue(nowMs),
    runner(options = {}) {
      const intervalMs = options.intervalMs ?? 5000;
      const keepDeliveredMs = options.keepDeliveredMs ?? 24 * 60 * 60 * 1000;
      let timer: ReturnType<typeof setTimeout> | undefined;
      let pass: Promise<void> | undefined;
      let running = false;
      const tick = async () => {
        const now = clock.now();
        const retried = await delivery.retryDue(now);
        if (retried.isErr()) logger.error({ err: retried.error }, 'firehose retry pass failed');
        else if (retried.value.leased > 0) logger.info({ ...retried.value }, 'firehose spool retried');
        const purged = await storage.spool.purgeDelivered(now - keepDeliveredMs);
        if (purged.isErr()) logger.error({ err: purged.error }, 'firehose spool purge failed');
      };
      const schedule = () => {
        if (!running) return;
        timer = setTimeout(() => {
          pass = tick()
            .catch((e: unknown) => logger.error({ err: e }, 'firehose retry pass threw'))
            .finally(() => {
              pass = undefined;
              schedule();
            });
        }, intervalMs);
        // A retry timer is no reason for the process to stay up.
        timer.unref?.();
      };
      return {
        get running() {
          return running;
        },
        start() {
          if (running) return;
          running = true;
          schedule();
        },
        async stop() {
          running = false;
          if (timer !== undefined) clearTimeout(timer);
          timer = undefined;
          await pass;
        },
      };
    },
  };
}

/**
 * Delivers each recorded event of a flow whose firehose is enabled (the event carries
 * `firehose`). The recorder waits until the event is written or spooled, so an event
 * whose lead was answered is never lost; while a service is down, the driver's own
 * timeouts (`requestTimeoutMs`, `tryTimeoutMs`) bound that wait.
 */
export function observeFirehose(recorder: EventRecorder, firehose: Pick<FirehoseApi, 'deliver'>): void {
  recorder.observe((event) => (event.firehose?.enabled ? firehose.deliver(event).map(() => undefined) : undefined));
}
