import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const here = dirname(fileURLToPath(import.meta.url));

/**
 * Every bare module a source file reaches through its relative imports (TypeScript's own import scanner reads each
 * file).
 */
function reachedPackages(entry: string): Set<string> {
  const seen = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const { fileName } of ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles) {
      if (!fileName.startsWith('.')) {
        packages.add(fileName);
        continue;
      }
      const base = resolve(dirname(file), fileName);
      const next = [`${base}.ts`, `${base}/index.ts`].find((candidate) => existsSync(candidate));
      if (next) visit(next);
    }
  };
  visit(entry);
  return packages;
}

describe('@leadroute/testkit entries', () => {
  it('#21.1 the main entry never loads vitest (so require/import work without it); the suites entry does', () => {
    expect([...reachedPackages(resolve(here, 'index.ts'))]).not.toContain('vitest');
    // The scan is real: the suites entry, which registers tests, does reach vitest.
    expect([...reachedPackages(resolve(here, 'suites/index.ts'))]).toContain('vitest');
  });
});
