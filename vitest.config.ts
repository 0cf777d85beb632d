import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Tests run against the TypeScript sources, not the built dist: resolve every
// workspace package (and each subpath it exports, e.g. `@leadroute/testkit/suites`)
// to its sources so `npm test` needs no build first. Published exports name only dist.
const root = fileURLToPath(new URL('.', import.meta.url));
const workspaces: string[] = JSON.parse(readFileSync(`${root}package.json`, 'utf8')).workspaces;
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const alias = workspaces.flatMap((dir) => {
  const pkg = JSON.parse(readFileSync(`${root}${dir}/package.json`, 'utf8')) as {
    name: string;
    exports?: Record<string, unknown>;
  };
  return Object.keys(pkg.exports ?? {})
    .filter((sub) => sub === '.' || !sub.endsWith('.json'))
    .map((sub) => {
      const name = sub === '.' ? pkg.name : `${pkg.name}${sub.slice(1)}`;
      const file =
        sub === '.'
          ? 'src/index.ts'
          : existsSync(`${root}${dir}/src${sub.slice(1)}/index.ts`)
            ? `src${sub.slice(1)}/index.ts`
            : `src${sub.slice(1)}.ts`;
      return { find: new RegExp(`^${escapeRegExp(name)}$`), replacement: `${root}${dir}/${file}` };
    });
});

export default defineConfig({
  resolve: { alias },
  test: {
    include: ['{packages,adapters,examples}/*/{src,test}/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Under CI a failed test runs once more. Several suites kill processes, stop
    // PostgreSQL or bound how long an answer may take on a shared 2-core machine; a
    // second failure is a failure, and a pass on the retry is named at the end of
    // `.ci/run` (scripts/ci-reporter.ts), never hidden. Locally nothing is retried.
    retry: process.env.CI ? 1 : 0,
  },
});
