/**
 * The layers the core already implies, checked over its import graph (every `import`,
 * `export … from` and `import()` of every non-test source file):
 *
 * - `domain/` (the shapes ports and features share) imports only `domain/`, `ids` and `errors`;
 * - `ports/` imports only `ports/`, `domain/`, `ids` and `errors`: no feature folder;
 * - nothing but the package entry imports `http/`, and only `http/` and the outbound client
 *   (`integrations/http-client.ts`) import Node's HTTP modules: `http/` is the one folder
 *   that knows the HTTP API;
 * - core imports no adapter, framework or SDK: a package is either a Node built-in or one of
 *   `packages/core/package.json`'s dependencies (or a package its build bundles, tsup.bundled.ts), none of which is
 *   on the FORBIDDEN list.
 *
 * `npx tsx scripts/layers.ts` prints each violation and exits 1 when there is any; `.ci/run`
 * runs it, and test/architecture.test.ts checks both the tree and the checker itself.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { BUNDLED } from '../tsup.bundled';

/** Packages core must never depend on: adapters, frameworks, drivers and cloud SDKs. */
export const FORBIDDEN = [
  /^@leadroute\//,
  /^express$/,
  /^fastify/,
  /^pg(-|$)/,
  /^mongodb$/,
  /^@aws-sdk\//,
  /^@azure\//,
  /^nodemailer$/,
  /^undici$/,
];

/** Core's modules (paths relative to its `src/`, without `.ts`) and what each imports. */
export type ImportGraph = ReadonlyMap<string, readonly string[]>;

const NODE_HTTP = new Set(['node:http', 'node:https', 'http', 'https', 'node:http2', 'http2']);
const SHARED = new Set(['ids', 'errors']);
const folderOf = (module: string): string => (module.includes('/') ? module.slice(0, module.indexOf('/')) : module);

/** The violations of the rules above in `graph`; `dependencies` are core's package dependencies. */
export function layerViolations(graph: ImportGraph, dependencies: readonly string[]): string[] {
  const problems: string[] = [];
  for (const [module, imports] of graph) {
    const folder = folderOf(module);
    for (const spec of imports) {
      if (!spec.startsWith('.')) {
        const name = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0];
        const builtin = spec.startsWith('node:') || builtinModules.includes(name ?? '');
        if (FORBIDDEN.some((re) => re.test(spec)))
          problems.push(`${module} imports ${spec}: core imports no adapter, framework or SDK`);
        else if (!builtin && !dependencies.includes(name ?? ''))
          problems.push(`${module} imports ${spec}, which is not one of core's dependencies`);
        if (NODE_HTTP.has(spec) && folder !== 'http' && module !== 'integrations/http-client')
          problems.push(`${module} imports ${spec}: only http/ and the outbound client know HTTP`);
        continue;
      }
      const target = normalize(join(dirname(module), spec)).replace(/\/index$/, '');
      const into = folderOf(target);
      if ((folder === 'domain' || folder === 'ports') && into !== 'domain' && into !== folder && !SHARED.has(target))
        problems.push(`${module} imports ${target}: ${folder}/ imports only domain/, ids and errors`);
      if (into === 'http' && folder !== 'http' && module !== 'index')
        problems.push(`${module} imports ${target}: only the package entry imports http/`);
    }
  }
  return problems;
}

/** The import graph of the core package's sources (test files and test helpers left out). */
export function coreImportGraph(srcDir: string): ImportGraph {
  const graph = new Map<string, string[]>();
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts') && !/\.test(-helper)?\.ts$/.test(entry.name)) {
        const info = ts.preProcessFile(readFileSync(path, 'utf8'), true, true);
        graph.set(
          relative(srcDir, path).replace(/\.ts$/, ''),
          info.importedFiles.map((f) => f.fileName),
        );
      }
    }
  };
  walk(srcDir);
  return graph;
}

/** Core's runtime dependencies, from its package.json, and the packages its build carries in (tsup.bundled.ts). */
export function coreDependencies(packageJson: string): string[] {
  const declared = (JSON.parse(readFileSync(packageJson, 'utf8')) as { dependencies?: object }).dependencies ?? {};
  return [...Object.keys(declared), ...(BUNDLED['packages/core'] ?? [])];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const core = fileURLToPath(new URL('../packages/core/', import.meta.url));
  const problems = layerViolations(coreImportGraph(`${core}src`), coreDependencies(`${core}package.json`));
  for (const p of problems) console.log(p);
  console.log(`layers: ${problems.length} violation${problems.length === 1 ? '' : 's'}`);
  process.exit(problems.length > 0 ? 1 : 0);
}
