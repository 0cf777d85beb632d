import { createLeadService, type RollupRow } from '@leadroute/core';
import { memoryStorage } from '@leadroute/memory';
import { aRollupRow } from '@leadroute/testkit';
import type { Bench, BenchRow } from './harness';
import { median } from './harness';

// One detector pass over 100, 1,000 and 10,000 accounts, each with a week of hourly rollups
// (1 source, 2 recipients: 8 cells an hour, 1,352 per account, 13.5M at 10,000 accounts, which
// fit the default heap), 5% of them with a recipient failing in the last hour. Measured as the
// median of five passes (fifteen below 1,000 accounts; the first creates alerts, the rest
// refresh them), CPU time of this process: the machine is shared. Before each pass every
// account gets new events in the hour in progress, as between passes in production: what a
// pass reads again. A pass an hour earlier (no spike yet, so no alert) runs first and is
// the pass's baseline: it reads every account's whole week (a process's first pass), compiles the
// detector's code and lets the collector finish with the set-up's garbage, which would
// otherwise be billed to the first measured passes.
const HOURS = 7 * 24 + 1;
const NOW = Date.parse('2026-01-15T15:00:00Z');
const HOUR = 3_600_000;
const hex = (n: number, pad = 24) => n.toString(16).padStart(pad, '0');

function cells(account: string, a: number): RollupRow[] {
  const rows: RollupRow[] = [];
  const flow = hex(a * 10 + 1);
  const base = {
    account_id: account,
    flow_id: flow,
    step_id: '',
    category: '',
    stage: '',
    cost: 0,
    revenue: 0,
    purchase_price: 0,
  };
  for (let h = 1; h <= HOURS; h++) {
    const hour = new Date(NOW - h * HOUR).toISOString();
    const spike = h === 1 && a % 20 === 0;
    const source_id = hex(a * 10 + 2);
    rows.push({ ...base, hour, source_id, recipient_id: '', kind: 'source', outcome: 'success', count: 38 });
    rows.push({
      ...base,
      hour,
      source_id,
      recipient_id: '',
      kind: 'source',
      outcome: 'failure',
      category: 'duplicate',
      count: 2,
    });
    for (const r of [4, 5]) {
      const recipient_id = hex(a * 10 + r);
      const step = { ...base, hour, source_id, recipient_id, step_id: `s${r}`, kind: 'recipient' as const };
      rows.push({ ...step, outcome: 'success', count: spike && r === 4 ? 4 : 18 });
      rows.push({ ...step, outcome: 'failure', count: spike && r === 4 ? 15 : 1 });
      rows.push({ ...step, outcome: 'skip', count: 1 });
    }
  }
  return rows;
}

const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/**
 * One size: a fresh store of `accounts` accounts, a first pass an hour earlier (its CPU is `first`), one within
 * that hour, then the median CPU of five passes (15 below 1,000 accounts), each after new events in every
 * account's hour in progress.
 */
async function passCpu(accounts: number): Promise<{ pass: number; first: number }> {
  const storage = memoryStorage();
  const service = createLeadService({ storage, clock: { now: () => NOW }, host: 'bench' });
  let total = 0;
  for (let a = 0; a < accounts; a++) {
    const id = hex(a + 1);
    (
      await storage.accounts.insert({
        id,
        name: `Account ${a}`,
        plan: 'paid',
        time_zone: a % 2 ? 'America/New_York' : 'Europe/Berlin',
        staff: false,
        created_at: '2025-01-01T00:00:00.000Z',
      })
    )._unsafeUnwrap();
    const rows = cells(id, a);
    total += rows.length;
    (await storage.rollups.add(rows))._unsafeUnwrap();
  }
  console.log(`${accounts.toLocaleString('en-US')} accounts, ${total.toLocaleString('en-US')} rollup cells`);
  const [ww, wc] = [performance.now(), cpu()];
  const warm = (await service.alerts.detect(NOW - HOUR))._unsafeUnwrap();
  const first = cpu() - wc;
  console.log(
    `first pass, an hour earlier: ${Math.round(performance.now() - ww)} ms wall, ${Math.round(first)} ms CPU, ${warm.created} created`,
  );
  // Unmeasured too: a second pass at that time, which takes the path of most passes, reading only the last hours
  // (compiled before it is measured). Any later time that hour would already see the spike.
  (await service.alerts.detect(NOW - HOUR))._unsafeUnwrap();
  const passes: { wall: number; cpu: number; created: number; refreshed: number }[] = [];
  // Small sizes pass in a few milliseconds, where a collection or a compilation weighs: more of them.
  for (let i = 0; i < (accounts < 1000 ? 15 : 5); i++) {
    // New events since the last pass: a source's lead in the hour in progress, for every account (at 15:00
    // sharp it weighs nothing yet, so the alerts stay those of the spike).
    for (let a = 0; a < accounts; a++) {
      const id = hex(a + 1);
      (
        await storage.rollups.add([
          aRollupRow(id, { hour: new Date(NOW).toISOString(), flow_id: hex(a * 10 + 1), source_id: hex(a * 10 + 2) }),
        ])
      )._unsafeUnwrap();
    }
    const [w, c] = [performance.now(), cpu()];
    const report = (await service.alerts.detect(NOW))._unsafeUnwrap();
    passes.push({ wall: performance.now() - w, cpu: cpu() - c, created: report.created, refreshed: report.refreshed });
    if (report.accounts !== accounts) throw new Error(`evaluated ${report.accounts} accounts`);
  }
  console.log(
    passes
      .map(
        (p) =>
          `${Math.round(p.wall)} ms wall, ${Math.round(p.cpu)} ms CPU, ${p.created} created, ${p.refreshed} refreshed`,
      )
      .join('\n'),
  );
  return { pass: median(passes.map((p) => p.cpu)), first };
}

/**
 * Rows per size: the pass's CPU, with the 100-account pass's per-account cost as the baseline of the larger
 * ones (ratio = per-account cost here / per-account cost at 100 accounts: flat is 1), and beside the pass the
 * first pass's CPU (a process's first pass reads every account's whole week). `ALERTS_BENCH_SIZES` (default
 * `100,1000,10000`) picks the sizes.
 */
const bench: Bench = async () => {
  const sizes = (process.env.ALERTS_BENCH_SIZES ?? '100,1000,10000')
    .split(',')
    .map((s) => Number(s.trim()))
    .filter((n) => Number.isInteger(n) && n > 0);
  const rows: BenchRow[] = [];
  let smallest: { accounts: number; perAccount: number } | undefined;
  for (const accounts of sizes) {
    const { pass: value, first } = await passCpu(accounts);
    const perAccount = value / accounts;
    console.log(`${accounts.toLocaleString('en-US')} accounts: ${perAccount.toFixed(3)} ms CPU per account`);
    smallest ??= { accounts, perAccount };
    const count = accounts.toLocaleString('en-US');
    const big = accounts >= 10_000;
    const measuredAt = new Date().toISOString();
    // Beside it, the same run's first pass, which read every account's whole week as every pass did before
    // passes kept their sums (ratio = this pass / that one).
    rows.push({
      name: `alerts: detector pass CPU, ${count} accounts`,
      unit: 'ms',
      value,
      baseline: 'first pass of the process, whole week read (ratio: this / that)',
      baselineValue: first,
      ratio: value / first,
      ...(big ? { target: '<= 2000 ms CPU', met: value <= 2000 } : {}),
      measuredAt,
    });
    // Ratio here is per-account cost at this size / at the smallest size (lower is better; flat is 1).
    const ratio = perAccount / smallest.perAccount;
    rows.push({
      name: `alerts: detector pass CPU per account, ${count} accounts`,
      unit: 'ms',
      value: perAccount,
      baseline: `per account at ${smallest.accounts.toLocaleString('en-US')} accounts (ratio: this / that)`,
      baselineValue: smallest.perAccount,
      ratio,
      target: '<= 1.2 (flat)',
      met: ratio <= 1.2,
      measuredAt,
    });
  }
  return rows;
};

export default bench;
