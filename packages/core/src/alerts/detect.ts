import { err, ok, type Result, ResultAsync } from 'neverthrow';
import type { LeadrouteError } from '../errors';
import type { Id } from '../ids';
import type { Account } from '../ports/accounts';
import type { StoredAlert } from '../ports/alerts';
import type { Logger } from '../ports/logger';
import type { Storage } from '../ports/storage';
import { isoTime } from '../time';
import { aggregate, type HourCounts, RATE_TYPES, zeros } from './aggregate';
import type { AlertSettings } from './defaults';
import type { DetectInput, Finding } from './finding';
import { emptyCounts, type LifecycleCounts, type LifecycleDeps, reconcile } from './lifecycle';
import { baselineWeeks, detectNoLeads } from './no-leads-detector';
import { detectNewSources } from './new-source';
import { detectRates } from './rate-detector';
import { cellWeight, floorHour, HOUR_MS, localDayStart } from './windows';

/** Options of one pass. */
export interface DetectOptions {
  /** How long a process holds an account's pass before another may take it over. @default 300000 */
  readonly leaseMs?: number;
  /** Accounts evaluated at the same time. @default 4 */
  readonly concurrency?: number;
}

/** What a pass did. */
export interface DetectReport extends LifecycleCounts {
  /** Accounts evaluated. */
  accounts: number;
  /** Accounts another process was evaluating. */
  skipped: number;
}

export interface DetectDeps {
  readonly storage: Storage;
  readonly logger: Logger;
  readonly lifecycle: LifecycleDeps;
  readonly settingsFor: (accountId: string) => ResultAsync<AlertSettings, LeadrouteError>;
  /** This pass's lease owner ID. */
  readonly owner: string;
}

const DAY_MS = 24 * HOUR_MS;

/** How far back the detectors read for these settings: the longest baseline plus window, and today. */
function spanStart(settings: AlertSettings, now: number, dayStart: number): number {
  let from = dayStart;
  for (const [type, s] of Object.entries(settings.types)) {
    if (!s.enabled || type === 'new-source') continue;
    if (type === 'no-leads') {
      const nl = settings.types['no-leads'];
      // An hour more than the run: a DST change moves the same local hours a week earlier by one.
      from = Math.min(from, now - baselineWeeks(nl.baseline_days) * 7 * DAY_MS - (nl.zero_run_hours + 1) * HOUR_MS);
    } else if ('window_minutes' in s) from = Math.min(from, now - s.window_minutes * 60_000 - s.baseline_days * DAY_MS);
  }
  return floorHour(from);
}

/**
 * Window weights of a pass, shared by its accounts: an array depends only on the span
 * (its start and length), `now` and the window, and accounts of a zone with the same
 * settings share all four. Detectors only read them.
 */
type WeightCache = Map<string, HourCounts>;

/**
 * What the detectors find in an account's rollups. Apart from `evaluate` so that the
 * account's cells and their per-hour arrays are garbage once it returns, not held
 * through the lifecycle's many awaits (with several accounts in flight, they would
 * live long enough to be promoted to the old generation).
 */
async function detectFindings(
  storage: Storage,
  account: Account,
  settings: AlertSettings,
  now: number,
  activeByKey: ReadonlyMap<string, StoredAlert>,
  cache: WeightCache,
): Promise<Result<Finding[], LeadrouteError>> {
  const accountId = account.id;
  const dayStart = localDayStart(now, account.time_zone);
  const from = spanStart(settings, now, dayStart);
  const to = floorHour(now) + HOUR_MS;
  const rows = await storage.rollups.query({
    account_id: accountId,
    from: isoTime(from),
    to: isoTime(to),
    kinds: ['source', 'recipient'],
  });
  if (rows.isErr()) return err(rows.error);
  const longestWindow = Math.max(
    0,
    ...RATE_TYPES.map((t) => (settings.types[t].enabled ? settings.types[t].window_minutes * 60_000 : 0)),
  );
  const labelsFrom = Math.floor((floorHour(now - longestWindow) - from) / HOUR_MS);
  const agg = aggregate(rows.value, from, (to - from) / HOUR_MS, (type) => settings.types[type].enabled, labelsFrom);
  const weights = (a: number, b: number): HourCounts => {
    const key = `${from}:${agg.hours}:${a}:${b}`;
    let w = cache.get(key);
    if (!w) {
      w = zeros(agg.hours);
      for (let h = 0; h < agg.hours; h++) w[h] = cellWeight(from + h * HOUR_MS, now, a, b);
      cache.set(key, w);
    }
    return w;
  };
  const input: DetectInput = {
    accountId,
    now,
    timeZone: account.time_zone,
    dayStart,
    settings,
    agg,
    weights,
    active: activeByKey,
  };
  return ok([...detectRates(input), ...detectNoLeads(input), ...detectNewSources(input)]);
}

async function evaluate(
  deps: DetectDeps,
  accountId: Id,
  now: number,
  counts: LifecycleCounts,
  cache: WeightCache,
): Promise<Result<void, LeadrouteError>> {
  const { storage } = deps;
  const loaded = await storage.accounts
    .get(accountId)
    .andThen((account) =>
      deps
        .settingsFor(accountId)
        .andThen((settings) => storage.alerts.listActive(accountId).map((active) => ({ account, settings, active }))),
    );
  if (loaded.isErr()) return err(loaded.error);
  const { account, settings, active } = loaded.value;
  if (!account) return ok(undefined);
  const activeByKey = new Map<string, StoredAlert>(active.map((a) => [a.key, a]));
  const base = { account, settings, now, active: activeByKey, resolveMissing: true };
  // Alerting switched off for the account: nothing is evaluated and what was active is resolved.
  if (!settings.enabled)
    return (await reconcile(deps.lifecycle, { ...base, findings: [] }, counts)).map(() => undefined);
  const findings = await detectFindings(storage, account, settings, now, activeByKey, cache);
  if (findings.isErr()) return err(findings.error);
  return (await reconcile(deps.lifecycle, { ...base, findings: findings.value }, counts)).map(() => undefined);
}

/**
 * One detector pass: every account with rollups over the platform's longest span or
 * with active alerts, each under a lease so that with several processes only one
 * evaluates an account at a time. An account's failure is logged and the pass goes on.
 */
export function detectPass(
  deps: DetectDeps,
  now: number,
  options: DetectOptions = {},
): ResultAsync<DetectReport, LeadrouteError> {
  const leaseMs = options.leaseMs ?? 300_000;
  const concurrency = Math.max(1, options.concurrency ?? 4);
  const { storage } = deps;
  return deps
    .settingsFor('platform')
    .andThen((platform) =>
      storage.rollups.activeAccounts(
        isoTime(spanStart(platform, now, now - DAY_MS)),
        isoTime(floorHour(now) + HOUR_MS),
      ),
    )
    .andThen((recent) => storage.alerts.accountsWithActive().map((alerting) => [...new Set([...recent, ...alerting])]))
    .andThen((accounts) =>
      ResultAsync.fromSafePromise(
        (async () => {
          const report: DetectReport = { ...emptyCounts(), accounts: 0, skipped: 0 };
          const weights: WeightCache = new Map();
          let next = 0;
          const worker = async () => {
            while (next < accounts.length) {
              const accountId = accounts[next++] as Id;
              const lease = `alerts:${accountId}`;
              const taken = await storage.alerts.tryLease(lease, deps.owner, isoTime(now), isoTime(now + leaseMs));
              if (taken.isErr() || !taken.value) {
                report.skipped += 1;
                continue;
              }
              try {
                const done = await evaluate(deps, accountId, now, report, weights);
                if (done.isErr())
                  deps.logger.error({ accountId, err: done.error }, 'alert detection failed for an account');
                else report.accounts += 1;
              } finally {
                const released = await storage.alerts.releaseLease(lease, deps.owner);
                // Not released: the lease runs out and the next pass takes the account up.
                if (released.isErr())
                  deps.logger.warn({ accountId, err: released.error }, 'alert lease not released; it expires');
              }
            }
          };
          await Promise.all(Array.from({ length: concurrency }, worker));
          return report;
        })(),
      ),
    );
}
