import type { Storage } from '@leadroute/core';
import { describe, it } from 'vitest';

/**
 * Reads an adapter's backing store directly, bypassing the ports, so a suite
 * checks what was really stored and not only what the adapter answers.
 */
export interface RawReader {
  account(id: string): Promise<Record<string, unknown> | undefined>;
  entity(id: string): Promise<Record<string, unknown> | undefined>;
  alias(id: string): Promise<Record<string, unknown> | undefined>;
  flow(id: string): Promise<Record<string, unknown> | undefined>;
  lead(id: string): Promise<Record<string, unknown> | undefined>;
  event(id: string): Promise<Record<string, unknown> | undefined>;
}

/** A fresh, empty store for one test, with its raw reader. */
export interface StorageHarness {
  readonly storage: Storage;
  readonly raw: RawReader;
  /** Releases what the harness opened (connections, schemas). */
  readonly close?: () => Promise<void>;
}

/** One conformance case; it throws (an `expect` failing) when the adapter is wrong. */
export interface SuiteCase {
  readonly name: string;
  run(harness: StorageHarness): Promise<void>;
}

/** A named group of cases for one port. */
export interface Suite {
  readonly name: string;
  readonly cases: readonly SuiteCase[];
}

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
