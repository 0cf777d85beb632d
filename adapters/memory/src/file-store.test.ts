import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runFileStoreSuite } from '@leadroute/testkit/suites';
import { describe, expect, it } from 'vitest';
import { directoryFileStore } from './directory-file-store';
import { memoryFileStore } from './file-store';

runFileStoreSuite('memory', async () => ({ store: memoryFileStore() }));

runFileStoreSuite('directory', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'leadroute-files-'));
  return { store: directoryFileStore({ dir }), close: async () => rmSync(dir, { recursive: true, force: true }) };
});

describe('directoryFileStore', () => {
  it('keeps keys inside its directory and leaves no partial files', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'leadroute-files-'));
    try {
      const store = directoryFileStore({ dir });
      async function* body() {
        yield 'x';
      }
      for (const key of ['../escape.csv', '/etc/passwd', '', 'a/../../b.csv']) {
        expect((await store.put(key, body(), { contentType: 'text/csv' }))._unsafeUnwrapErr().message).toMatch(
          /not a path inside/,
        );
        expect((await store.read(key))._unsafeUnwrapErr().type).toBe('StorageFailure');
      }
      (await store.put('exports/a/b.csv', body(), { contentType: 'text/csv' }))._unsafeUnwrap();
      expect(readdirSync(join(dir, 'exports/a'))).toEqual(['b.csv']);
      expect((await store.read('exports/a/missing.csv'))._unsafeUnwrap()).toBeUndefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
