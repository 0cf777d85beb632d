import { describe, it } from 'vitest';
import type { StorageHarness, Suite } from './types';

export type { RawReader, StorageHarness, Suite, SuiteCase } from './types';

/**
 * Registers suites with vitest: one `describe` per suite, one `it` per case,
 * each on a fresh harness from `setup`.
 * @example
 * runSuites('memory', async () => ({ storage: memoryStorage(), raw }), [accountStoreSuite, entityStoreSuite]);
 */
export function runSuites(adapter: string, setup: () => Promise<StorageHarness>, suites: readonly Suite[]): void {
  for (const suite of suites) {
    describe(`${adapter}: ${suite.name}`, () => {
      for (const c of suite.cases) {
        it(c.name, async () => {
          const harness = await setup();
          try {
            await c.run(harness);
          } finally {
            await harness.close?.();
          }
        });
      }
    });
  }
}

/**
 * Runs every case of `suites` on harnesses from `setup` and returns the names of
 * the cases that failed, without registering tests: how a test proves a suite
 * can fail against a deliberately broken store.
 */
export async function failingCases(setup: () => Promise<StorageHarness>, suites: readonly Suite[]): Promise<string[]> {
  const failed: string[] = [];
  for (const suite of suites) {
    for (const c of suite.cases) {
      const harness = await setup();
      try {
        await c.run(harness);
      } catch {
        failed.push(`${suite.name}: ${c.name}`);
      } finally {
        await harness.close?.();
      }
    }
  }
  return failed;
}
