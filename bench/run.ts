import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Bench, BenchRow } from './harness';
import { writeBenchTable } from '../scripts/bench-table';
import { mergeResults, printRows } from './harness';

// `npm run bench` runs every bench/*.bench.ts; `npm run bench -- rules` only those named.
const dir = fileURLToPath(new URL('.', import.meta.url));
const wanted = process.argv.slice(2);

// The figures are the supported runtime's (`engines`: Node.js 22 and later). An older Node measures something users
// never run: Node 20's V8 builds an object spread and then extended (every event the service records) about 70 times
// slower than Node 22's, which alone made memory intake take 564 µs of CPU per lead instead of 326. On an older Node
// the run starts again on Node 22, installed from npm as CI installs it (scripts/node-versions.sh).
const OLDEST_SUPPORTED = 22;
if (Number(process.versions.node.split('.')[0]) < OLDEST_SUPPORTED) {
  const found = spawnSync(
    'bash',
    [fileURLToPath(new URL('../scripts/node-versions.sh', import.meta.url)), `${OLDEST_SUPPORTED}`],
    {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const node = found.stdout.trim().split(' ')[1];
  if (found.status !== 0 || !node) {
    console.error(
      `Benchmarks run on Node.js ${OLDEST_SUPPORTED} or later; this is ${process.version}, and Node.js ${OLDEST_SUPPORTED} could not be installed.`,
    );
    process.exit(1);
  }
  console.log(`(this is Node.js ${process.version}: running the benchmarks on Node.js ${OLDEST_SUPPORTED}, ${node})`);
  const child = spawnSync(node, [...process.execArgv, fileURLToPath(import.meta.url), ...wanted], { stdio: 'inherit' });
  process.exit(child.status ?? 1);
}
const files = readdirSync(dir)
  .filter((file) => file.endsWith('.bench.ts'))
  .filter((file) => wanted.length === 0 || wanted.includes(file.replace(/\.bench\.ts$/, '')))
  .sort();

if (files.length === 0) {
  console.error(`No benchmark matches ${wanted.join(', ')}.`);
  process.exitCode = 1;
}

// Several files: each runs in a process of its own, so one benchmark's heap (RSS
// never shrinks back) cannot count against the next one's memory figures.
if (files.length > 1) {
  for (const file of files) {
    const name = file.replace(/\.bench\.ts$/, '');
    const child = spawnSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), name], {
      stdio: 'inherit',
      env: { ...process.env, LEADROUTE_BENCH_CHILD: '1' },
    });
    if (child.status !== 0) process.exitCode = child.status ?? 1;
  }
  writeBenchTable();
  process.exit();
}

const rows: BenchRow[] = [];
for (const file of files) {
  console.log(`\n# ${file}`);
  const bench = ((await import(pathToFileURL(`${dir}${file}`).href)) as { default: Bench }).default;
  const result = await bench();
  printRows(result);
  rows.push(...result);
}
if (rows.length > 0) {
  mergeResults(rows);
  // Run for one file alone (or as a child of the run above, which writes the table once at its end).
  if (process.argv.length > 2 && files.length === 1 && !process.env.LEADROUTE_BENCH_CHILD) writeBenchTable();
}
