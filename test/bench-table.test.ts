import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { BenchRow } from '../bench/harness';
import { README_PATH, readResults, renderBenchTable, withBenchTable } from '../scripts/bench-table';

describe("the README's performance table", () => {
  it('#22 is what bench/results.json gives (run npm run bench:table after npm run bench)', () => {
    const readme = readFileSync(README_PATH, 'utf8');
    expect(readme).toBe(withBenchTable(readme, readResults()));
  });

  it('#22 shows every figure with its baseline and ratio, and a missed target as missed', () => {
    const row: BenchRow = {
      name: 'x',
      unit: 'ops/s',
      value: 500,
      baseline: 'bare',
      baselineValue: 1000,
      ratio: 0.5,
      target: '>= 0.6',
      met: false,
      measuredAt: '2026-11-24T00:00:00Z',
    };
    expect(renderBenchTable([row])).toContain(
      '| x | 500 ops/s | bare: 1,000 ops/s | 0.50 | >= 0.6: **missed** | 2026-11-24 |',
    );
    expect(renderBenchTable([{ ...row, node: '22.23.3' }])).toContain('| 2026-11-24, Node 22.23 |');
    expect(() => withBenchTable('no markers', [row])).toThrow(/no <!-- bench:start -->/);
  });
});
