import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** One figure of a benchmark, with what it is compared against. */
export interface BenchRow {
  /** What was measured, e.g. `rules: compiled 20-rule set`. */
  readonly name: string;
  readonly unit: 'ops/s' | 'ms' | 'MB' | 'KB';
  readonly value: number;
  /** What the figure is compared with, e.g. `json-rules-engine`. */
  readonly baseline?: string;
  readonly baselineValue?: number;
  /** value / baselineValue for ops/s; baselineValue / value for latencies (higher is better). */
  readonly ratio?: number;
  /** The goal for the ratio, e.g. `>= 20`. */
  readonly target?: string;
  readonly met?: boolean;
  readonly measuredAt: string;
  /** The Node.js version the row was measured on (`process.versions.node`); set by {@link mergeResults}. */
  readonly node?: string;
}

/**
 * A fixed-seed generator (mulberry32), so every run builds the same data and asks
 * the same questions: `rand` in [0, 1), `pick` one item of a list.
 */
export function seeded(seed: number): { rand: () => number; pick: <T>(items: readonly T[]) => T } {
  let state = seed;
  const rand = (): number => {
    state = (state + 0x6d2b79f5) | 0;
    let x = Math.imul(state ^ (state >>> 15), 1 | state);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
  return { rand, pick: (items) => items[Math.floor(rand() * items.length)] as (typeof items)[number] };
}

/** The middle value (the upper one of an even count); sorts `values` in place. */
export const median = (values: number[]): number =>
  values.sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

/** A benchmark file's default export. */
export type Bench = () => Promise<BenchRow[]>;

export interface Measured {
  readonly opsPerSec: number;
  readonly p50: number;
  readonly p99: number;
}

const isThenable = (value: unknown): value is PromiseLike<unknown> =>
  typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';

function cpuMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

/**
 * Runs `fn` repeatedly for about `seconds` after a warm-up (`warmup` seconds, by default
 * 0.3 of `seconds` and at most 0.3 s), in batches of `batch` calls so timer overhead does
 * not swamp fast functions. Throughput is per second of this process's CPU time, not wall
 * time: on a machine shared with other work (CI, parallel test runs) wall time measures
 * the neighbours as much as the code. Latency percentiles are wall time per call, averaged
 * within a batch.
 */
export async function measure(
  fn: () => unknown,
  options: { seconds?: number; batch?: number; warmup?: number } = {},
): Promise<Measured> {
  const seconds = options.seconds ?? 1;
  const warmup = options.warmup ?? Math.min(0.3, seconds * 0.3);
  const batch = options.batch ?? 1;
  const run = async (until: number, samples?: number[]) => {
    let calls = 0;
    while (performance.now() < until) {
      const start = performance.now();
      for (let i = 0; i < batch; i++) {
        const result = fn();
        // Await any thenable: a neverthrow ResultAsync is not a Promise, and not awaiting
        // it would time only the synchronous start of the call.
        if (isThenable(result)) await result;
      }
      samples?.push((performance.now() - start) / batch);
      calls += batch;
    }
    return calls;
  };
  await run(performance.now() + warmup * 1000);
  const samples: number[] = [];
  const cpuStart = cpuMs();
  const calls = await run(performance.now() + seconds * 1000, samples);
  const elapsed = cpuMs() - cpuStart;
  samples.sort((a, b) => a - b);
  const at = (q: number) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))] ?? Number.NaN;
  return { opsPerSec: (calls / elapsed) * 1000, p50: at(0.5), p99: at(0.99) };
}

/**
 * Measures several functions in alternating short rounds and reports each one's
 * median ops/s, so a machine busy with other work slows all of them alike instead
 * of whichever happened to run during the busy moment.
 */
export async function measureInterleaved<K extends string>(
  fns: Record<K, { fn: () => unknown; batch?: number }>,
  options: { rounds?: number; msPerRound?: number } = {},
): Promise<Record<K, number>> {
  const rounds = options.rounds ?? 9;
  const seconds = (options.msPerRound ?? 150) / 1000;
  const names = Object.keys(fns) as K[];
  const samples = Object.fromEntries(names.map((name) => [name, [] as number[]])) as Record<K, number[]>;
  for (let round = 0; round < rounds; round++) {
    for (const name of names) {
      const { fn, batch } = fns[name];
      samples[name].push((await measure(fn, { seconds, ...(batch === undefined ? {} : { batch }) })).opsPerSec);
    }
  }
  return Object.fromEntries(names.map((name) => [name, median(samples[name])])) as Record<K, number>;
}

/** A row comparing ops/s with a baseline's ops/s; `minRatio` is the target. */
export function compare(
  name: string,
  value: number,
  baseline?: { name: string; value: number; minRatio?: number },
): BenchRow {
  const measuredAt = new Date().toISOString();
  if (!baseline) return { name, unit: 'ops/s', value, measuredAt };
  const ratio = value / baseline.value;
  return {
    name,
    unit: 'ops/s',
    value,
    baseline: baseline.name,
    baselineValue: baseline.value,
    ratio,
    ...(baseline.minRatio === undefined ? {} : { target: `>= ${baseline.minRatio}`, met: ratio >= baseline.minRatio }),
    measuredAt,
  };
}

/**
 * A figure where less is better (a latency, a size) with an absolute ceiling, beside its baseline from the same run:
 * the ratio is baseline / value (higher is better), the target `<= max unit`.
 */
export function atMost(
  name: string,
  unit: 'ms' | 'KB',
  value: number,
  baseline: { name: string; value: number },
  max: number,
  measuredAt = new Date().toISOString(),
): BenchRow {
  return {
    name,
    unit,
    value,
    baseline: baseline.name,
    baselineValue: baseline.value,
    ratio: baseline.value / value,
    target: `<= ${max} ${unit}`,
    met: value <= max,
    measuredAt,
  };
}

/** Small figures (CPU ms per request) keep their decimals; large ones are whole numbers. */
function fmt(value: number | undefined, digits?: number): string {
  if (value === undefined) return '';
  const places = digits ?? (Math.abs(value) < 10 ? 2 : 0);
  return value.toLocaleString('en-US', { maximumFractionDigits: places, minimumFractionDigits: places });
}

/** Prints one table row per figure. */
export function printRows(rows: readonly BenchRow[]): void {
  for (const row of rows) {
    const parts = [row.name.padEnd(52), `${fmt(row.value)} ${row.unit}`.padStart(18)];
    if (row.baseline)
      parts.push(`vs ${row.baseline}: ${fmt(row.baselineValue)} ${row.unit}`, `ratio ${fmt(row.ratio, 2)}`);
    if (row.target) parts.push(`target ${row.target} ${row.met ? 'met' : 'NOT MET'}`);
    console.log(parts.join(' | '));
  }
}

const RESULTS = fileURLToPath(new URL('./results.json', import.meta.url));

/** Merges rows into bench/results.json by name, keeping other benchmarks' rows. */
export function mergeResults(rows: readonly BenchRow[]): void {
  let existing: BenchRow[] = [];
  try {
    existing = JSON.parse(readFileSync(RESULTS, 'utf8')) as BenchRow[];
  } catch {
    existing = [];
  }
  const names = new Set(rows.map((row) => row.name));
  const stamped = rows.map((row) => ({ ...row, node: row.node ?? process.versions.node }));
  const merged = [...existing.filter((row) => !names.has(row.name)), ...stamped].sort((a, b) =>
    a.name.localeCompare(b.name),
  );
  writeFileSync(`${RESULTS}.tmp`, `${JSON.stringify(merged, null, 2)}\n`);
  renameSync(`${RESULTS}.tmp`, RESULTS);
}
