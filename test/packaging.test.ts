import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { BUNDLED } from '../tsup.bundled';

// The manifests of the published packages, checked without a build. scripts/package-check.sh
// proves the same things end to end on the packed tarballs (attw, publint, tsc, examples).
const root = fileURLToPath(new URL('..', import.meta.url));
// semver comes with @arethetypeswrong/cli (a root devDependency): no dependency of our own for two calls.
const semver = createRequire(join(root, 'node_modules/@arethetypeswrong/cli/package.json'))('semver') as {
  satisfies(version: string, range: string): boolean;
};
const rootPkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  workspaces: string[];
  devDependencies: Record<string, string>;
};

interface Manifest {
  name: string;
  private?: boolean;
  exports: Record<string, unknown>;
  engines?: { node?: string };
  types?: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}
const published = rootPkg.workspaces
  .map((dir) => ({ dir, pkg: JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8')) as Manifest }))
  .filter(({ pkg }) => !pkg.private);

const sources = (dir: string): string[] =>
  readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.ts$/.test(entry) && !/\.(test|checks|test-helper)\.ts$/.test(entry) && !entry.startsWith('test-support')
      ? [path]
      : [];
  });

/** The package a bare specifier names: `pg`, `@aws-sdk/client-s3`, `nodemailer/lib/x` → `nodemailer`. */
const packageOf = (specifier: string) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

/** Whether a package, as installed for `dir`, ships its own declarations (else its types come from @types). */
function hasOwnTypes(dir: string, name: string): boolean {
  const at = [join(root, dir, 'node_modules', name), join(root, 'node_modules', name)].find((candidate) =>
    existsSync(candidate),
  ) as string;
  const pkg = JSON.parse(readFileSync(join(at, 'package.json'), 'utf8')) as Record<string, unknown>;
  return (
    Boolean(pkg.types ?? pkg.typings) ||
    JSON.stringify(pkg.exports ?? {}).includes('"types"') ||
    existsSync(join(at, 'index.d.ts'))
  );
}

/** Every import of a source file, and whether it imports types only (what can surface in the emitted declarations). */
function importsOf(file: string): { specifier: string; typeOnly: boolean }[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  return source.statements.flatMap((statement) => {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) return [];
    const clause = statement.importClause;
    const bindings = clause?.namedBindings;
    const typeOnly = Boolean(
      clause?.isTypeOnly ||
        (clause &&
          !clause.name &&
          bindings &&
          ts.isNamedImports(bindings) &&
          bindings.elements.every((e) => e.isTypeOnly)),
    );
    return [{ specifier: statement.moduleSpecifier.text, typeOnly }];
  });
}

describe('published manifests', () => {
  it('lists the 11 packages', () => {
    expect(published.map(({ pkg }) => pkg.name).sort()).toHaveLength(11);
  });

  it('#21.2 every entry gives import and require their own declarations (.d.ts for ESM, .d.cts for CommonJS)', () => {
    for (const { pkg } of published) {
      for (const [subpath, target] of Object.entries(pkg.exports)) {
        if (subpath === './package.json') continue;
        const conditions = target as Record<string, Record<string, string>>;
        expect(conditions.import?.types, `${pkg.name} ${subpath}`).toMatch(/\.d\.ts$/);
        expect(conditions.import?.default, `${pkg.name} ${subpath}`).toMatch(/\.js$/);
        expect(conditions.require?.types, `${pkg.name} ${subpath}`).toMatch(/\.d\.cts$/);
        expect(conditions.require?.default, `${pkg.name} ${subpath}`).toMatch(/\.cjs$/);
      }
      // node10 resolution reads `types` beside `main` (CommonJS).
      expect(pkg.types, pkg.name).toBe('./dist/index.d.cts');
    }
  });

  it('#21.3 every package a source imports is declared, and types imported from a package without its own come with its @types', () => {
    const problems: string[] = [];
    for (const { dir, pkg } of published) {
      // A package the build carries in (tsup.bundled.ts) is a devDependency: nothing installs it for users.
      const bundled = Object.fromEntries(
        (BUNDLED[dir] ?? []).flatMap((name) =>
          pkg.devDependencies?.[name] ? [[name, pkg.devDependencies[name]]] : [],
        ),
      );
      const declared = { ...pkg.dependencies, ...pkg.peerDependencies, ...bundled };
      for (const file of sources(join(root, dir, 'src'))) {
        for (const { specifier: fileName, typeOnly } of importsOf(file)) {
          if (fileName.startsWith('.') || fileName.startsWith('node:') || builtinModules.includes(fileName)) continue;
          const name = packageOf(fileName);
          // The client inlines core's types into its declarations (tsup dts resolve) and never imports it at run time.
          if (pkg.name === '@leadroute/client' && name === '@leadroute/core') continue;
          if (!(name in declared))
            problems.push(`${pkg.name}: ${file.slice(root.length)} imports ${fileName}, not declared`);
          // Types imported from a package without its own: the declarations we ship import them too, so they come
          // with the package, as a peer (npm installs it, or takes the host's own: a dependency of ours was a second
          // copy beside a host's @types/express@4, and the router's type no longer fit its app).
          else if (typeOnly && !hasOwnTypes(dir, name) && !(`@types/${name}` in (pkg.peerDependencies ?? {})))
            problems.push(`${pkg.name}: @types/${name} not a peer dependency`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('#21.4 no published manifest names sources or a source condition', () => {
    for (const { pkg } of published) expect(JSON.stringify(pkg), pkg.name).not.toMatch(/src\/|@leadroute\/source/);
    for (const dir of rootPkg.workspaces) {
      expect(readFileSync(join(root, dir, 'package.json'), 'utf8'), dir).not.toContain('@leadroute/source');
    }
    expect(readFileSync(join(root, 'package.json'), 'utf8')).not.toContain('@leadroute/source');
  });

  it('#21.5 the client depends on neverthrow and, for its declarations, TypeBox; core is a build-time dependency', () => {
    const client = published.find(({ pkg }) => pkg.name === '@leadroute/client')?.pkg;
    // TypeBox: the client's parameter and answer types are the schemas' types (#20.1); its JavaScript never loads it.
    expect(Object.keys(client?.dependencies ?? {}).sort()).toEqual(['@sinclair/typebox', 'neverthrow']);
    expect(client?.peerDependencies).toBeUndefined();
    expect(client?.devDependencies).toHaveProperty('@leadroute/core');
  });

  it('#21.6 caret ranges for dependencies, peer floors no higher than what the repository tests, engines, LICENSE and README', () => {
    for (const { dir, pkg } of published) {
      for (const [name, range] of Object.entries(pkg.dependencies ?? {}))
        expect(range, `${pkg.name} → ${name}`).toMatch(/^\^\d/);
      for (const [name, range] of Object.entries(pkg.peerDependencies ?? {})) {
        // The version the repository's suite runs must satisfy the range (package-check.sh installs the floor).
        const tested = name.startsWith('@leadroute/') ? '0.1.0' : rootPkg.devDependencies[name];
        expect(tested, `${pkg.name} → ${name} is not installed for tests`).toBeDefined();
        expect(semver.satisfies(tested as string, range), `${pkg.name} → ${name}@${range} refuses ${tested}`).toBe(
          true,
        );
      }
      expect(pkg.engines?.node, pkg.name).toBe('>=22');
      expect(existsSync(join(root, dir, 'LICENSE')), `${dir}/LICENSE`).toBe(true);
      expect(existsSync(join(root, dir, 'README.md')), `${dir}/README.md`).toBe(true);
    }
    const express = published.find(({ pkg }) => pkg.name === '@leadroute/express')?.pkg;
    expect(semver.satisfies('4.21.2', express?.peerDependencies?.express ?? '')).toBe(true);
  });

  it('#21.1 vitest is an optional peer of the testkit, needed only by @leadroute/testkit/suites', () => {
    const testkit = published.find(({ pkg }) => pkg.name === '@leadroute/testkit')?.pkg;
    expect(testkit?.peerDependenciesMeta?.vitest?.optional).toBe(true);
    expect(Object.keys(testkit?.exports ?? {})).toEqual(['.', './suites', './package.json']);
  });
});
