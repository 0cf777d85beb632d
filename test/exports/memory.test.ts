import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { countingFileStore } from './synthetic';
import { syntheticExport } from './world';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const MB = 1024 * 1024;
const EVENTS = 100_000;

describe('export memory', () => {
  it(`streams ${EVENTS.toLocaleString('en-US')} events to CSV with flat memory`, async () => {
    const live = (): number => {
      gc();
      return process.memoryUsage().heapUsed;
    };
    // After each 4 MB written, the heap as the export leaves it (garbage collected).
    const samples: number[] = [];
    let next = 4 * MB;
    const sink = countingFileStore((bytes) => {
      if (bytes < next) return;
      next += 4 * MB;
      samples.push(live());
    });
    const { w, service, exp } = await syntheticExport(EVENTS, sink);
    const baseline = live();
    expect(await service.exports.runPending()).toBe(1);

    const total = [...sink.written.values()][0] ?? 0;
    expect((await service.exports.get(w.principal, exp.id))._unsafeUnwrap()).toMatchObject({
      status: 'complete',
      exported_docs: EVENTS,
    });
    // The CSV is far bigger than anything the export may keep...
    expect(total).toBeGreaterThan(40 * MB);
    expect(samples.length).toBeGreaterThan(8);
    // ...and the heap stays where it started, from the first sample to the last.
    const growth = Math.max(...samples) - baseline;
    expect(growth, `heap grew ${(growth / MB).toFixed(1)} MB while writing ${(total / MB).toFixed(0)} MB`).toBeLessThan(
      16 * MB,
    );
    expect(Math.abs((samples.at(-1) ?? 0) - (samples[0] ?? 0))).toBeLessThan(8 * MB);
  }, 60_000);
});
