import type { FileStore } from '@leadroute/core';
import { describe, expect, it } from 'vitest';
import type { FileStoreHarness } from '../types';

export type { FileStoreHarness } from '../types';

async function* chunks(
  parts: readonly (string | Uint8Array)[],
  failAfter?: number,
): AsyncIterable<string | Uint8Array> {
  let i = 0;
  for (const part of parts) {
    if (failAfter !== undefined && i++ === failAfter) throw new Error('the export failed mid-stream');
    yield part;
  }
}

const text = async (store: FileStore, key: string): Promise<string | undefined> => {
  if (store.delivery === 'served') {
    const file = (await store.read(key))._unsafeUnwrap();
    return file === undefined ? undefined : new TextDecoder().decode(file.body);
  }
  const url = (await store.presign(key, 10))._unsafeUnwrap();
  const res = await fetch(url);
  return res.status === 200 ? res.text() : undefined;
};

const CASES: readonly { name: string; run(store: FileStore): Promise<void> }[] = [
  {
    name: 'writes a file from a stream of chunks and serves exactly those bytes',
    async run(store) {
      const key = `exports/acct/${Math.random().toString(36).slice(2)}.csv`;
      const parts = ['id,email\n', new TextEncoder().encode('1,"a,b"\n'), 'ü,"x\n"""\n'];
      const put = (await store.put(key, chunks(parts), { contentType: 'text/csv; charset=utf-8' }))._unsafeUnwrap();
      const expected = 'id,email\n1,"a,b"\nü,"x\n"""\n';
      expect(put.bytes).toBe(Buffer.byteLength(expected));
      expect(await text(store, key)).toBe(expected);
      if (store.delivery === 'served')
        expect((await store.read(key))._unsafeUnwrap()?.contentType).toMatch(/^text\/csv/);
    },
  },
  {
    name: 'replaces a file written again under the same key',
    async run(store) {
      const key = `exports/acct/${Math.random().toString(36).slice(2)}.csv`;
      (await store.put(key, chunks(['first']), { contentType: 'text/csv' }))._unsafeUnwrap();
      (await store.put(key, chunks(['second']), { contentType: 'text/csv' }))._unsafeUnwrap();
      expect(await text(store, key)).toBe('second');
    },
  },
  {
    name: 'a stream that fails leaves no file behind and comes back as a StorageFailure',
    async run(store) {
      const key = `exports/acct/${Math.random().toString(36).slice(2)}.csv`;
      const failed = (await store.put(key, chunks(['a', 'b', 'c'], 2), { contentType: 'text/csv' }))._unsafeUnwrapErr();
      expect(failed.type).toBe('StorageFailure');
      expect(await text(store, key)).toBeUndefined();
    },
  },
  {
    name: 'remove deletes the file (when the store can), and removing a missing file is fine',
    async run(store) {
      const key = `exports/acct/${Math.random().toString(36).slice(2)}.csv`;
      (await store.put(key, chunks(['x']), { contentType: 'text/csv' }))._unsafeUnwrap();
      (await store.remove(key))._unsafeUnwrap();
      expect(await text(store, key)).toBe(store.capabilities.remove ? undefined : 'x');
      (await store.remove(key))._unsafeUnwrap();
    },
  },
];

/** The file store suite, for stores whose harness is not a storage harness. */
export const fileStoreCases = CASES;

/**
 * Registers the file store conformance cases with vitest, each on a fresh store.
 * @example runFileStoreSuite('directory', async () => ({ store: directoryFileStore({ dir: mkdtempSync(...) }) }));
 */
export function runFileStoreSuite(adapter: string, setup: () => Promise<FileStoreHarness>): void {
  describe(`${adapter}: FileStore`, () => {
    for (const c of CASES) {
      it(c.name, async () => {
        const harness = await setup();
        try {
          await c.run(harness.store);
        } finally {
          await harness.close?.();
        }
      });
    }
  });
}
