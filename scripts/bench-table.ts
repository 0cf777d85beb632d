/**
 * Writes the README's performance table from bench/results.json (`npm run bench:table`;
 * bench/run.ts runs it after the benchmarks), between the markers
 * `<!-- bench:start -->` and `<!-- bench:end -->`, so the published figures are the
 * last run's own. test/bench-table.test.ts fails when the README's table differs from
 * what the committed results give.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { BenchRow } from '../bench/harness';

export const README_PATH = fileURLToPath(new URL('../README.md', import.meta.url));
export const RESULTS_PATH = fileURLToPath(new URL('../bench/results.json', import.meta.url));
const START = '<!-- bench:start -->';
const END = '<!-- bench:end -->';

const number = (value: number): string =>
  value.toLocaleString(
    'en-US',
    Math.abs(value) < 10 ? { minimumFractionDigits: 2, maximumFractionDigits: 2 } : { maximumFractionDigits: 0 },
  );

const measured = (value: number | undefined, unit: BenchRow['unit']): string =>
  value === undefined ? '—' : `${number(value)} ${unit}`;

/** The table, one row per figure in results order (sorted by name). */
export function renderBenchTable(rows: readonly BenchRow[]): string {
  const lines = [
    '| Figure | Measured | Baseline (same run) | Ratio | Target | Measured at |',
    '|---|---|---|---|---|---|',
  ];
  for (const row of rows) {
    const baseline = row.baseline ? `${row.baseline}: ${measured(row.baselineValue, row.unit)}` : '—';
    const ratio = row.ratio === undefined ? '—' : row.ratio.toFixed(2);
    const target = row.target ? `${row.target}: ${row.met ? 'met' : '**missed**'}` : '—';
    lines.push(
      `| ${row.name} | ${measured(row.value, row.unit)} | ${baseline} | ${ratio} | ${target} | ${row.measuredAt.slice(0, 10)}${row.node ? `, Node ${row.node.split('.').slice(0, 2).join('.')}` : ''} |`,
    );
  }
  return lines.join('\n');
}

/** The README with its table replaced by the one `rows` give. */
export function withBenchTable(readme: string, rows: readonly BenchRow[]): string {
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  if (start < 0 || end < start) throw new Error(`README.md has no ${START} … ${END} section`);
  return `${readme.slice(0, start + START.length)}\n${renderBenchTable(rows)}\n${readme.slice(end)}`;
}

export const readResults = (): BenchRow[] => JSON.parse(readFileSync(RESULTS_PATH, 'utf8')) as BenchRow[];

/** Rewrites the README's table from bench/results.json. */
export function writeBenchTable(): void {
  writeFileSync(README_PATH, withBenchTable(readFileSync(README_PATH, 'utf8'), readResults()));
  console.log(`wrote the performance table of ${README_PATH}`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) writeBenchTable();
