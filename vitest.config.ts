import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Tests run against the TypeScript sources, not the built dist: resolve every
// workspace package to its src/index.ts so `npm test` needs no build first.
const root = fileURLToPath(new URL('.', import.meta.url));
const workspaces: string[] = JSON.parse(readFileSync(`${root}package.json`, 'utf8')).workspaces;
const alias = workspaces.flatMap((dir) => {
  const pkg = JSON.parse(readFileSync(`${root}${dir}/package.json`, 'utf8')) as { name: string; exports?: unknown };
  return pkg.exports ? [{ find: new RegExp(`^${pkg.name}$`), replacement: `${root}${dir}/src/index.ts` }] : [];
});

export default defineConfig({
  resolve: { alias },
  test: {
    include: ['{packages,adapters,examples}/*/{src,test}/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
