import { err, ok, type Result, ResultAsync } from 'neverthrow';
import type { LeadrouteError } from '../errors';
import type { Id } from '../ids';
import type { Account } from '../ports/accounts';
import type { StoredAlert } from '../ports/alerts';
import type { Logger } from '../ports/logger';
import type { Storage } from '../ports/storage';
import { isoTime } from '../time';
import { timeSlices } from '../turns';
import {
  type Aggregate,
  clearHours,
  coveredSlots,
  dropLabels,
  emptyAggregate,
  foldRows,
  type HourCounts,
  RATE_TYPES,
  shiftAggregate,
  zeros,
} from './aggregate';
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
  /** Aggregates kept from earlier passes of this process; without it every pass reads every account's whole span. */
  readonly kept?: KeptAggregates;
}

/** An account's aggregate as its last pass left it, and what it was made of. */
interface KeptAggregate {
  readonly agg: Aggregate;
  /** The slots of the enabled category types, a bit each: another set of them folds rows differently. */
  readonly covered: number;
  /** The store's mark when its cells were read ({@link RollupStore.changedHours}). */
  mark: number;
  /** The last pass that read it. */
  pass: number;
}

/**
 * Per account, the aggregate of its last pass, kept so that the next pass reads only the hours whose cells changed,
 * the hours the span moved on by and the labelled last hours, not a week of cells again: that read was most of a pass.
 * Kept only with a rollup store that can say which hours changed ({@link RollupStore.changedHours}); an account a pass
 * did not evaluate is dropped at its end.
 */
export interface KeptAggregates {
  readonly accounts: Map<string, KeptAggregate>;
  passes: number;
}

/** An empty {@link KeptAggregates}. */
export const keptAggregates = (): KeptAggregates => ({ accounts: new Map(), passes: 0 });

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
type WeightCache = Map<string, Map<number, Map<number, HourCounts>>>;

// A pass formats the same few hours (span bounds of each zone) for every account: they are remembered.
const isoTimes = new Map<number, string>();
function iso(ms: number): string {
  let text = isoTimes.get(ms);
  if (text === undefined) {
    if (isoTimes.size >= 1024) isoTimes.clear();
    isoTimes.set(ms, (text = isoTime(ms)));
  }
  return text;
}

/**
 * The account's source and recipient cells over `span` (see {@link emptyAggregate}), folded. With
 * an aggregate kept from an earlier pass over the same hours (or an earlier part of them), the same settings and a
 * store that says which hours changed, that one is moved on to the span and only the hours that changed since, the
 * hours new to the span and the labelled last hours are read again; otherwise the whole span is read. Either way the
 * result is what folding the whole span's rows would give.
 */
async function accountAggregate(
  storage: Storage,
  accountId: string,
  span: { readonly from: number; readonly hours: number; readonly labelsFrom: number },
  opts: { covered: ReadonlyMap<string, number>; kept?: KeptAggregates; pass?: number },
): Promise<Result<Aggregate, LeadrouteError>> {
  const { from, hours } = span;
  const labelsFrom = Math.min(hours, Math.max(0, span.labelsFrom));
  const to = from + hours * HOUR_MS;
  const { kept } = opts;
  let covered = 0;
  for (const slot of opts.covered.values()) covered |= 1 << slot;
  const changedHours = storage.rollups.changedHours?.bind(storage.rollups);
  const prior = kept?.accounts.get(accountId);
  const reuse =
    prior &&
    prior.covered === covered &&
    prior.agg.hours === hours &&
    prior.agg.labelsFrom === labelsFrom &&
    from >= prior.agg.from &&
    from < prior.agg.from + hours * HOUR_MS
      ? prior
      : undefined;
  let readFrom = from;
  let mark: number | undefined;
  if (kept && changedHours) {
    // Asked before the cells are read: cells added in between are read now and again next pass, never missed.
    const changed = await changedHours(accountId, iso(from), iso(to), reuse ? reuse.mark : Number.MAX_SAFE_INTEGER);
    if (changed.isErr()) return err(changed.error);
    mark = changed.value.mark;
    if (reuse) {
      const first = changed.value.hours[0];
      readFrom = Math.min(
        reuse.agg.from + hours * HOUR_MS,
        from + labelsFrom * HOUR_MS,
        first === undefined ? to : floorHour(Date.parse(first)),
      );
      readFrom = Math.max(from, readFrom);
    }
  }
  const rows = await storage.rollups.query({
    account_id: accountId,
    from: iso(readFrom),
    to: iso(to),
    kinds: ['source', 'recipient'],
  });
  if (rows.isErr()) {
    kept?.accounts.delete(accountId);
    return err(rows.error);
  }
  if (!kept || mark === undefined) {
    const agg = emptyAggregate(from, hours, labelsFrom);
    foldRows(agg, rows.value, opts.covered);
    return ok(agg);
  }
  const pass = opts.pass ?? kept.passes;
  if (reuse) {
    const { agg } = reuse;
    shiftAggregate(agg, (from - agg.from) / HOUR_MS);
    clearHours(agg, (readFrom - from) / HOUR_MS);
    foldRows(agg, rows.value, opts.covered);
    reuse.mark = mark;
    reuse.pass = pass;
    return ok(agg);
  }
  const agg = emptyAggregate(from, hours, labelsFrom);
  foldRows(agg, rows.value, opts.covered);
  kept.accounts.set(accountId, { agg, covered, mark, pass });
  return ok(agg);
}

/**
 * What the detectors find in an account's rollups. Apart from `evaluate` so that the
 * account's cells are garbage once it returns, not held through the lifecycle's many
 * awaits (with several accounts in flight, they would live long enough to be promoted
 * to the old generation); its per-hour arrays are kept for the next pass, or garbage too.
 */
async function detectFindings(
  storage: Storage,
  account: Account,
  settings: AlertSettings,
  now: number,
  activeByKey: ReadonlyMap<string, StoredAlert>,
  cache: WeightCache,
  kept: { aggregates: KeptAggregates; pass: number } | undefined,
): Promise<Result<Finding[], LeadrouteError>> {
  const accountId = account.id;
  const dayStart = localDayStart(now, account.time_zone);
  const from = spanStart(settings, now, dayStart);
  const to = floorHour(now) + HOUR_MS;
  const longestWindow = Math.max(
    0,
    ...RATE_TYPES.map((t) => (settings.types[t].enabled ? settings.types[t].window_minutes * 60_000 : 0)),
  );
  const labelsFrom = Math.floor((floorHour(now - longestWindow) - from) / HOUR_MS);
  const made = await accountAggregate(
    storage,
    accountId,
    { from, hours: (to - from) / HOUR_MS, labelsFrom },
    {
      covered: coveredSlots((type) => settings.types[type].enabled),
      ...(kept ? { kept: kept.aggregates, pass: kept.pass } : {}),
    },
  );
  if (made.isErr()) return err(made.error);
  const agg = made.value;
  // By span, then window start and end: numbers as keys, not a string made per lookup.
  const span = `${from}:${agg.hours}`;
  let bySpan = cache.get(span);
  if (!bySpan) cache.set(span, (bySpan = new Map()));
  const ofSpan = bySpan;
  const weights = (a: number, b: number): HourCounts => {
    let byStart = ofSpan.get(a);
    if (!byStart) ofSpan.set(a, (byStart = new Map()));
    let w = byStart.get(b);
    if (!w) {
      w = zeros(agg.hours);
      for (let h = 0; h < agg.hours; h++) w[h] = cellWeight(from + h * HOUR_MS, now, a, b);
      byStart.set(b, w);
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
  const findings = [...detectRates(input), ...detectNoLeads(input), ...detectNewSources(input)];
  dropLabels(agg);
  return ok(findings);
}

async function evaluate(
  deps: DetectDeps,
  accountId: Id,
  now: number,
  counts: LifecycleCounts,
  cache: WeightCache,
  pass: number,
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
  const findings = await detectFindings(
    storage,
    account,
    settings,
    now,
    activeByKey,
    cache,
    deps.kept ? { aggregates: deps.kept, pass } : undefined,
  );
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
          const { kept } = deps;
          const pass = kept ? (kept.passes += 1) : 0;
          const weights: WeightCache = new Map();
          let next = 0;
          // On memory storage a pass never waits: over thousands of accounts it lets the event loop turn as it goes.
          const slices = timeSlices();
          const worker = async () => {
            while (next < accounts.length) {
              if (slices.due()) {
                await slices.pause();
                continue;
              }
              const accountId = accounts[next++] as Id;
              const lease = `alerts:${accountId}`;
              const taken = await storage.alerts.tryLease(lease, deps.owner, isoTime(now), isoTime(now + leaseMs));
              if (taken.isErr() || !taken.value) {
                report.skipped += 1;
                continue;
              }
              try {
                const done = await evaluate(deps, accountId, now, report, weights, pass);
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
          // Accounts this pass did not evaluate (no longer active, or another process's) are not kept.
          if (kept) for (const [id, k] of kept.accounts) if (k.pass !== pass) kept.accounts.delete(id);
          return report;
        })(),
      ),
    );
}
