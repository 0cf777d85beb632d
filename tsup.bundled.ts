/**
 * The packages a build carries in its output instead of importing them at run time, by package directory. Each is one of
 * that package's devDependencies, not a dependency: nothing installs it for users. scripts/layers.ts and
 * test/packaging.test.ts count them among the package's own; scripts/package-check.sh checks that a user's install has
 * none of them.
 *
 * - core, date-fns: its functions are hundreds of small modules under one 199 KB package.json, and Node 22 parses that
 *   file's `exports` again for every module it loads (`format` and `parse` alone are 240): importing core took 1.0-1.1 s
 *   and peaked at about 200 MB of RSS, against 0.23-0.26 s and 100 MB bundled.
 */
export const BUNDLED: Readonly<Record<string, readonly string[]>> = { 'packages/core': ['date-fns'] };

/** tsup's `noExternal` for `packages`: each package and its subpaths (`date-fns/format`). */
export const bundledPatterns = (packages: readonly string[]): RegExp[] =>
  packages.map((name) => new RegExp(`^${name}(/|$)`));
