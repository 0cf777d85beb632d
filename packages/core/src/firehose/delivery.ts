import { err, errAsync, ok, okAsync, type Result, ResultAsync } from 'neverthrow';
import { errors, type LeadrouteError, reasonText } from '../errors';
import type {
  CloudLocation,
  CloudObject,
  CloudStorageDrivers,
  CloudStorageError,
  PutOutcome,
} from '../ports/cloud-storage';
import type { LeasedSpoolItem, Spool, SpoolEntry } from '../ports/spool';
import {
  cleanPrefix,
  type FirehoseConfig,
  firehoseTargets,
  type FirehoseTarget,
  normalizeFirehoseConfig,
} from './config';
import { plainMessage } from './validate';

/** What the firehose writes: an event record; `id` and `lead_id` name its object. */
export interface FirehoseEvent {
  readonly id: string;
  readonly lead_id: string;
  readonly [field: string]: unknown;
}

/** The secret behind a firehose `credential_id`. */
export type CloudCredential =
  | {
      readonly service: 'aws';
      readonly accessKeyId: string;
      readonly secretAccessKey: string;
      readonly sessionToken?: string;
      readonly region?: string;
    }
  | { readonly service: 'azure'; readonly connectionString: string };

/** What firehose delivery needs. */
export interface FirehoseDeliveryDeps {
  readonly cloudStorage: CloudStorageDrivers;
  /** Holds deliveries that failed until they succeed; durable in production. */
  readonly spool: Spool;
  readonly clock: { now(): number };
  /** Looks up a credential by ID (the credentials store); an error here is retried like an outage. */
  readonly resolveCredential: (credentialId: string) => ResultAsync<CloudCredential, LeadrouteError>;
  /** A pino-compatible logger; failures are logged at warn. */
  readonly logger?: { warn(obj: object, msg?: string): void };
  /** Retry delays: `baseMs * 2^(attempts - 1)`, at most `maxMs`. @default { baseMs: 1000, maxMs: 300000 } */
  readonly backoff?: { readonly baseMs?: number; readonly maxMs?: number };
  /** Spooled items taken per lease. @default 100 */
  readonly batchSize?: number;
  /** Longest run of one `retryDue` before another process may take its items. @default 60000 */
  readonly leaseMs?: number;
  /** Most lease rounds of one `retryDue` call. @default 10 */
  readonly maxRounds?: number;
}

/** What happened to an event at one service. */
export interface DeliveryOutcome {
  readonly service: 'aws' | 'azure';
  readonly bucket: string;
  readonly key: string;
  /** `spooled`: it failed and will be retried; `already-spooled`: it was waiting already. */
  readonly status: 'delivered' | 'spooled' | 'already-spooled';
  readonly error?: string;
}

/** What one `retryDue` call did. */
export interface RetryReport {
  readonly leased: number;
  readonly delivered: number;
  readonly rescheduled: number;
}

/** Firehose delivery ({@link FirehoseConfig} says where): writes events to the flow's services, spooling what fails. */
export interface FirehoseDelivery {
  /**
   * Writes one event as JSON to `<prefix>/<lead id>/<event id>.json` on every enabled
   * service of `config` (a {@link FirehoseConfig} or a flow's raw `firehose`, either
   * form). A service that fails gets the event spooled; the call fails only when the configuration or event is invalid
   * (`Validation`) or
   * the spool cannot take the event (`StorageFailure`), since then it would be lost.
   */
  deliver(config: unknown, event: FirehoseEvent): ResultAsync<readonly DeliveryOutcome[], LeadrouteError>;
  /**
   * Retries spooled events due at `nowMs` (default: the clock), batch by batch.
   * Each is marked delivered once written, or rescheduled with exponential backoff.
   * Run it on a timer; several processes may run it at once.
   */
  retryDue(nowMs?: number): ResultAsync<RetryReport, LeadrouteError>;
  /** The delay before retry number `attempts + 1`, in ms. */
  backoffMs(attempts: number): number;
}

const TARGET_PREFIX = 'firehose:';

/** The object key of an event: `<prefix>/<lead id>/<event id>.json`, or without the prefix. */
export function firehoseObjectKey(prefix: string | undefined, leadId: string, eventId: string): string {
  const p = cleanPrefix(prefix);
  return `${p === undefined ? '' : `${p}/`}${leadId}/${eventId}.json`;
}

const SEGMENT = /^[^/\\]+$/;
const isSegment = (v: unknown): v is string =>
  typeof v === 'string' && SEGMENT.test(v) && v !== '.' && v !== '..' && v.length <= 256;

/** The spool's view of a target: where it goes, without any secret the credentials store holds. */
function routeOf(target: FirehoseTarget): Record<string, string> {
  const route: Record<string, string> = { service: target.service, bucket: target.bucket };
  if (target.credential_id !== undefined) route.credential_id = target.credential_id;
  // An inline connection string has nowhere else to live: the spool keeps it.
  if (target.service === 'azure' && target.connection_string !== undefined)
    route.connection_string = target.connection_string;
  return route;
}

/** Creates firehose delivery over the given drivers, spool and credentials. */
export function createFirehoseDelivery(deps: FirehoseDeliveryDeps): FirehoseDelivery {
  const baseMs = deps.backoff?.baseMs ?? 1000;
  const maxMs = deps.backoff?.maxMs ?? 300_000;
  const batchSize = Math.max(1, deps.batchSize ?? 100);
  const leaseMs = deps.leaseMs ?? 60_000;
  const maxRounds = Math.max(1, deps.maxRounds ?? 10);
  const backoffMs = (attempts: number): number => Math.min(maxMs, baseMs * 2 ** Math.max(0, attempts - 1));
  const storageFailure = (e: unknown): LeadrouteError =>
    errors.storageFailure(`[leadroute] [firehose] The spool failed: ${reasonText(e)}`, e);

  const locate = (route: Readonly<Record<string, string>>): ResultAsync<CloudLocation, string> => {
    const { service, bucket = '', credential_id: credentialId, connection_string: connectionString } = route;
    if (service === 'azure' && connectionString) return okAsync({ service, connectionString, container: bucket });
    if (service !== 'aws' && service !== 'azure') return errAsync(`unknown service ${String(service)}`);
    if (!credentialId) return errAsync(`no credential for the ${service} firehose`);
    return deps
      .resolveCredential(credentialId)
      .mapErr((e) => `credential ${credentialId}: ${e.message}`)
      .andThen((c): Result<CloudLocation, string> => {
        if (c.service !== service) return err(`credential ${credentialId} is for ${c.service}, not ${service}`);
        return ok(
          c.service === 'aws'
            ? {
                service: 'aws',
                accessKeyId: c.accessKeyId,
                secretAccessKey: c.secretAccessKey,
                bucket,
                ...(c.sessionToken === undefined ? {} : { sessionToken: c.sessionToken }),
                ...(c.region === undefined ? {} : { region: c.region }),
              }
            : { service: 'azure', connectionString: c.connectionString, container: bucket },
        );
      });
  };

  const putOne = (
    location: CloudLocation,
    key: string,
    body: string,
  ): ResultAsync<PutOutcome, CloudStorageError | string> => {
    const opts = (conditional: boolean) => ({ contentType: 'application/json', ifAbsent: conditional });
    if (location.service === 'aws') {
      const d = deps.cloudStorage.aws;
      return d
        ? d.putObject(location, key, body, opts(d.capabilities.conditionalWrites))
        : errAsync('no aws storage driver is configured');
    }
    const d = deps.cloudStorage.azure;
    return d
      ? d.putObject(location, key, body, opts(d.capabilities.conditionalWrites))
      : errAsync('no azure storage driver is configured');
  };

  const putMany = (location: CloudLocation, objects: readonly CloudObject[]) => {
    if (location.service === 'aws') {
      const d = deps.cloudStorage.aws;
      return d
        ? d.putObjects(location, objects, { ifAbsent: d.capabilities.conditionalWrites })
        : errAsync('no aws storage driver is configured');
    }
    const d = deps.cloudStorage.azure;
    return d
      ? d.putObjects(location, objects, { ifAbsent: d.capabilities.conditionalWrites })
      : errAsync('no azure storage driver is configured');
  };

  const deliverTo = (
    target: FirehoseTarget,
    event: FirehoseEvent,
    body: string,
  ): ResultAsync<DeliveryOutcome, LeadrouteError> => {
    const key = firehoseObjectKey(target.prefix, event.lead_id, event.id);
    const route = routeOf(target);
    const base = { service: target.service, bucket: target.bucket, key };
    const attempt: ResultAsync<PutOutcome, CloudStorageError | string> = locate(route).andThen((location) =>
      putOne(location, key, body),
    );
    return attempt
      .map((): DeliveryOutcome => ({ ...base, status: 'delivered' }))
      .orElse((failure) => {
        const error = typeof failure === 'string' ? failure : plainMessage(failure);
        const nowMs = deps.clock.now();
        const entry: SpoolEntry = {
          target: `${TARGET_PREFIX}${target.service}:${target.bucket}`,
          key,
          payload: body,
          route,
          dueAt: nowMs + backoffMs(1),
        };
        deps.logger?.warn(
          { service: target.service, bucket: target.bucket, key, error },
          'firehose write failed; spooled for retry',
        );
        return deps.spool
          .enqueue(entry, { nowMs, attempts: 1, lastError: error })
          .mapErr(storageFailure)
          .map((r): DeliveryOutcome => ({ ...base, status: r.enqueued ? 'spooled' : 'already-spooled', error }));
      });
  };

  const settleGroup = (
    items: readonly LeasedSpoolItem[],
    nowMs: number,
  ): ResultAsync<{ delivered: number; rescheduled: number }, LeadrouteError> => {
    const first = items[0];
    if (!first) return okAsync({ delivered: 0, rescheduled: 0 });
    const objects = items.map((i): CloudObject => ({ key: i.key, body: i.payload, contentType: 'application/json' }));
    const outcomes = locate(first.route)
      .andThen((location) => putMany(location, objects))
      .map((results) => items.map((_, n) => results[n]))
      .map((results) => results.map((r) => (r === undefined ? 'no outcome' : r.ok ? undefined : plainMessage(r.error))))
      .orElse((failure) => okAsync(items.map(() => (typeof failure === 'string' ? failure : plainMessage(failure)))));
    return outcomes.andThen((errorsByItem) =>
      ResultAsync.combine(
        items.map((item, n) => {
          const error = errorsByItem[n];
          if (error === undefined) return deps.spool.markDelivered(item, nowMs).map(() => 'delivered' as const);
          deps.logger?.warn(
            { target: item.target, key: item.key, attempts: item.attempts + 1, error },
            'firehose retry failed',
          );
          return deps.spool
            .reschedule(item, { dueAt: nowMs + backoffMs(item.attempts + 1), error })
            .map(() => 'rescheduled' as const);
        }),
      )
        .mapErr(storageFailure)
        .map((states) => ({
          delivered: states.filter((s) => s === 'delivered').length,
          rescheduled: states.filter((s) => s === 'rescheduled').length,
        })),
    );
  };

  const round = (nowMs: number): ResultAsync<RetryReport, LeadrouteError> =>
    deps.spool
      .lease(nowMs, { limit: batchSize, leaseMs, targetPrefix: TARGET_PREFIX })
      .mapErr(storageFailure)
      .andThen((leased) => {
        const groups = new Map<string, LeasedSpoolItem[]>();
        for (const item of leased) {
          const id = JSON.stringify(Object.entries(item.route).sort(([a], [b]) => a.localeCompare(b)));
          const group = groups.get(id);
          if (group) group.push(item);
          else groups.set(id, [item]);
        }
        return ResultAsync.combine([...groups.values()].map((g) => settleGroup(g, nowMs))).map((done) => ({
          leased: leased.length,
          delivered: done.reduce((n, d) => n + d.delivered, 0),
          rescheduled: done.reduce((n, d) => n + d.rescheduled, 0),
        }));
      });

  return {
    backoffMs,

    deliver(config, event) {
      const normalized = normalizeFirehoseConfig(config);
      if (normalized.isErr())
        return errAsync(errors.validation(normalized.error, 'The firehose configuration is not valid.'));
      const targets = firehoseTargets(normalized.value);
      if (targets.length === 0) return okAsync([]);
      if (!isSegment(event.id) || !isSegment(event.lead_id))
        return errAsync(
          errors.validation(
            [{ path: '', message: 'the event needs an id and a lead_id without slashes' }],
            'The event cannot be delivered.',
          ),
        );
      let body: string;
      try {
        body = JSON.stringify(event);
      } catch (e) {
        return errAsync(
          errors.validation([{ path: '', message: `is not JSON: ${reasonText(e)}` }], 'The event cannot be delivered.'),
        );
      }
      return ResultAsync.combine(targets.map((t) => deliverTo(t, event, body)));
    },

    retryDue(nowMs) {
      const at = nowMs ?? deps.clock.now();
      const total = { leased: 0, delivered: 0, rescheduled: 0 };
      const loop = (left: number): ResultAsync<RetryReport, LeadrouteError> =>
        round(at).andThen((r) => {
          total.leased += r.leased;
          total.delivered += r.delivered;
          total.rescheduled += r.rescheduled;
          return r.leased < batchSize || left <= 1 ? okAsync({ ...total }) : loop(left - 1);
        });
      return loop(maxRounds);
    },
  };
}
