import type { FileStore, Spool, Storage } from '@leadroute/core';

// The harness shapes, apart from harness.ts so the main entry can export them without loading vitest.

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

/** A fresh file store for one case, and how to release it. */
export interface FileStoreHarness {
  readonly store: FileStore;
  readonly close?: () => Promise<void>;
}

/** Makes a fresh, empty spool for one test; `close` (optional) runs after it. */
export type SpoolFactory = () =>
  | Promise<{ spool: Spool; close?: () => Promise<void> }>
  | { spool: Spool; close?: () => Promise<void> };
