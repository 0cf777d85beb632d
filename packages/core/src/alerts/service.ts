import { randomBytes } from 'node:crypto';
import { errAsync, okAsync, ResultAsync } from 'neverthrow';
import type { Principal } from '../context';
import { isOperator, type OperatorPrincipal } from '../operators';
import { errors, type LeadrouteError } from '../errors';
import type { EventRecorder } from '../events/recorder';
import { newId } from '../ids';
import type { Alert, StoredAlert } from '../ports/alerts';
import type { Clock } from '../ports/clock';
import type { Logger } from '../ports/logger';
import type { Notifier } from '../ports/notifier';
import type { Storage } from '../ports/storage';
import { isoTime, parseIsoInZone } from '../time';
import {
  type ActivityInput,
  type ActivityPage,
  activityCursor,
  parseActivityQuery,
  publicEntry,
  validateActivity,
} from './activity';
import type { AlertSettings } from './defaults';
import { type DetectOptions, type DetectReport, detectPass, keptAggregates } from './detect';
import { SEVERITY_RANK } from './finding';
import { type AlertNames, reconcile } from './lifecycle';
import { newSourceFinding } from './new-source';
import { type AlertRunner, type RunnerOptions, startRunner } from './runner';
import type { AlertSettingsOverrides } from '../schemas/alerts';
import { effectiveSettings, validateOverrides } from './settings';
import { localDay } from './windows';

/** The operator's side of alert settings; callers of the HTTP API only read them. */
export interface AlertSettingsApi {
  /**
   * Effective settings of an account: platform defaults, then the operator's changes for all accounts, then for this
   * one.
   */
  effective(accountId: string): ResultAsync<AlertSettings, LeadrouteError>;
  /**
   * Replaces the operator's changes for all accounts; answers the platform-wide effective settings.
   * `overrides` is checked again at run time (422): JavaScript callers hand over what they were given.
   */
  setPlatformOverrides(overrides: AlertSettingsOverrides): ResultAsync<AlertSettings, LeadrouteError>;
  /** Replaces the operator's changes for one account; answers its effective settings. */
  setAccountOverrides(accountId: string, overrides: AlertSettingsOverrides): ResultAsync<AlertSettings, LeadrouteError>;
}

/** The `alerts` sub-API. */
export interface AlertsApi {
  /** Active alerts of the caller's account: critical first, then by today's affected volume. */
  list(principal: Principal): ResultAsync<Alert[], LeadrouteError>;
  /**
   * One page of an alert's timeline. An account's caller reads its own alerts' customer
   * entries (another account's key is 404); operator staff read any account's alert,
   * internal entries included (#19.6).
   */
  activity(
    principal: Principal | OperatorPrincipal,
    key: string,
    query: URLSearchParams,
  ): ResultAsync<ActivityPage, LeadrouteError>;
  /** Records what a person did about an alert (ack, comment, viewed, ...). */
  addActivity(key: string, entry: ActivityInput): ResultAsync<void, LeadrouteError>;
  readonly settings: AlertSettingsApi;
  /** One detector pass over every account with recent activity or active alerts. */
  detect(now?: number, options?: DetectOptions): ResultAsync<DetectReport, LeadrouteError>;
  /** Repeats `detect` every `intervalMs` until stopped. */
  runner(options?: RunnerOptions): AlertRunner;
}

export interface AlertsDeps {
  readonly storage: Storage;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly recorder: EventRecorder;
  readonly notifier?: Notifier;
  readonly entityName: (accountId: string, id: string) => Promise<string>;
}

const toPublic = (a: StoredAlert): Alert => ({
  key: a.key,
  type: a.type,
  kind: a.kind,
  severity: a.severity,
  message: a.message,
  detail: a.detail,
  flow_id: a.flow_id,
  flow_name: a.flow_name,
  entity_id: a.entity_id,
  entity_name: a.entity_name,
  recipient_id: a.recipient_id,
  outcome: a.outcome,
  time_zone: a.time_zone,
  first_seen_at: a.first_seen_at,
  last_seen_at: a.last_seen_at,
  data: a.data,
});

export function createAlertsApi(deps: AlertsDeps): AlertsApi {
  const { storage, clock, logger } = deps;
  const processId = randomBytes(8).toString('hex');
  let passes = 0;
  // What one pass read of each account's cells, for the next pass of this process to start from.
  const kept = keptAggregates();
  const names: AlertNames = {
    flow: async (id) => {
      const flow = await storage.flows.get(id);
      return flow.isOk() && flow.value ? { name: flow.value.name, enabled: flow.value.enabled } : undefined;
    },
    entity: deps.entityName,
  };
  const lifecycle = { storage, logger, names, ...(deps.notifier ? { notifier: deps.notifier } : {}) };

  // `platform` (never an account ID, which is 24 hex) reads the layers every account shares.
  const settingsFor = (accountId: string) =>
    storage.alerts
      .getSettings('platform')
      .andThen((platform) =>
        accountId === 'platform'
          ? okAsync(effectiveSettings([platform]))
          : storage.alerts.getSettings(accountId).map((account) => effectiveSettings([platform, account])),
      );

  const settings: AlertSettingsApi = {
    effective: settingsFor,
    setPlatformOverrides(overrides) {
      const issues = validateOverrides(overrides);
      if (issues.length > 0) return errAsync(errors.validation(issues, 'The alert settings are not valid.'));
      return storage.alerts.setSettings('platform', overrides).map(() => effectiveSettings([overrides]));
    },
    setAccountOverrides(accountId, overrides) {
      const issues = validateOverrides(overrides);
      if (issues.length > 0) return errAsync(errors.validation(issues, 'The alert settings are not valid.'));
      return storage.accounts
        .get(accountId)
        .andThen((account) =>
          account ? storage.alerts.setSettings(account.id, overrides) : errAsync(errors.notFound('account', accountId)),
        )
        .andThen(() => settingsFor(accountId));
    },
  };

  const ownAlert = (principal: Principal, key: string) =>
    storage.alerts
      .get(key)
      .andThen((alert) =>
        alert && alert.account_id === principal.account.id ? okAsync(alert) : errAsync(errors.notFound('alert', key)),
      );

  // new-source: the first lead from a source new to the account raises it at once.
  deps.recorder.observe((event) => {
    if (event.type !== 'source') return undefined;
    return storage.alerts.markSourceSeen(event.account_id, event.source_id, isoTime(clock.now())).andThen((isNew) => {
      if (!isNew) return okAsync(undefined);
      return settingsFor(event.account_id).andThen((s) => {
        if (!s.enabled || !s.types['new-source'].enabled) return okAsync(undefined);
        return storage.accounts.get(event.account_id).andThen((account) => {
          if (!account) return okAsync(undefined);
          const now = clock.now();
          const finding = newSourceFinding(
            account.id,
            event.source_id,
            s.types['new-source'].severity,
            isoTime(now),
            account.time_zone,
          );
          return ResultAsync.fromSafePromise(
            reconcile(lifecycle, {
              account,
              settings: s,
              now,
              active: new Map(),
              findings: [finding],
              resolveMissing: false,
            }),
          ).andThen((r) => (r.isOk() ? okAsync(undefined) : errAsync(r.error)));
        });
      });
    });
  });

  const api: AlertsApi = {
    list(principal) {
      const today = localDay(clock.now(), principal.account.time_zone);
      const volume = (a: StoredAlert) => (a.affected_day === today ? a.affected_today : 0);
      return storage.alerts
        .listActive(principal.account.id)
        .map((alerts) =>
          alerts
            .sort(
              (a, b) =>
                SEVERITY_RANK[b.severity] - SEVERITY_RANK[a.severity] ||
                volume(b) - volume(a) ||
                (a.key < b.key ? -1 : 1),
            )
            .map(toPublic),
        );
    },
    activity(principal, key, query) {
      const parsed = parseActivityQuery(query);
      if (parsed.isErr()) return errAsync(parsed.error);
      const { before, limit, kind } = parsed.value;
      const staff = isOperator(principal);
      const alert = staff
        ? storage.alerts.get(key).andThen((found) => (found ? okAsync(found) : errAsync(errors.notFound('alert', key))))
        : ownAlert(principal, key);
      return alert.andThen((found) =>
        storage.alerts
          .activity({
            account_id: found.account_id,
            key,
            limit,
            customerOnly: !staff,
            ...(before ? { before } : {}),
            ...(kind ? { kind } : {}),
          })
          .map((entries) => {
            const last = entries[entries.length - 1];
            return {
              entries: entries.map(publicEntry),
              next_before: entries.length === limit && last ? activityCursor(last) : null,
            };
          }),
      );
    },
    addActivity(key, input) {
      const issues = validateActivity(input);
      if (issues.length > 0) return errAsync(errors.validation(issues, 'The activity entry is not valid.'));
      return storage.alerts.get(key).andThen((alert) => {
        if (!alert) return errAsync(errors.notFound('alert', key));
        const now = clock.now();
        return storage.alerts.addActivity({
          id: newId(now),
          account_id: alert.account_id,
          key,
          at:
            input.at === undefined
              ? isoTime(now)
              : new Date(parseIsoInZone(input.at, 'UTC') ?? Number.NaN).toISOString(),
          kind: input.kind,
          actor: { type: input.actor.type, id: input.actor.id, name: input.actor.name },
          visibility: input.visibility ?? 'customer',
          source: input.source ?? 'api',
          data: input.data ?? null,
        });
      });
    },
    settings,
    // Each pass owns its leases, so two passes of one process exclude each other too.
    detect: (now, options) =>
      detectPass(
        { storage, logger, lifecycle, settingsFor, owner: `${processId}:${(passes += 1)}`, kept },
        now ?? clock.now(),
        options,
      ),
    runner: (options) => startRunner({ clock, logger, detect: (now) => api.detect(now) }, options),
  };
  return api;
}
