import { execFile } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiText } from '../../scripts/openapi';

// #20.2: the served document is complete enough to type a client from: openapi-typescript
// turns it into types, and a call of every operation (and the calls it must refuse) compiles
// as it should. Redocly's recommended rules find nothing to say about it.

const root = fileURLToPath(new URL('../..', import.meta.url));
const dir = join(root, '.tmp', `openapi-types-${process.pid}`);

interface Parameter {
  readonly name: string;
  readonly in: string;
  readonly required?: boolean;
  readonly schema?: { type?: string | string[]; enum?: unknown[]; anyOf?: { const?: unknown }[]; const?: unknown };
}
interface Operation {
  readonly parameters?: Parameter[];
  readonly requestBody?: unknown;
}

/** A value the parameter's schema accepts. */
function sample(p: Parameter): string {
  const s = p.schema ?? {};
  const literal = s.enum?.[0] ?? s.anyOf?.find((x) => x.const !== undefined)?.const ?? s.const;
  if (literal !== undefined) return JSON.stringify(literal);
  if (s.type === 'integer' || s.type === 'number') return '1';
  if (s.type === 'boolean') return 'true';
  return JSON.stringify(p.in === 'path' ? '5fd4e3b7c1a2b3c4d5e6f701' : 'x');
}

/** One typed call of the operation with its required parameters. */
function callOf(path: string, method: string, op: Operation): string {
  const groups = new Map<string, string[]>();
  for (const p of op.parameters ?? [])
    if (p.required) groups.set(p.in, [...(groups.get(p.in) ?? []), `${JSON.stringify(p.name)}: ${sample(p)}`]);
  const params = [...groups].map(([where, fields]) => `${where}: { ${fields.join(', ')} }`).join(', ');
  return `call(${JSON.stringify(path)}, ${JSON.stringify(method)}, { ${params} });`;
}

describe('#20.2 the OpenAPI document', () => {
  let doc: { paths: Record<string, Record<string, Operation>> };
  let text: string;

  beforeAll(async () => {
    text = await openApiText();
    doc = JSON.parse(text);
    mkdirSync(dir, { recursive: true });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('types a client call of every operation with openapi-typescript, and refuses wrong parameters', async () => {
    writeFileSync(join(dir, 'api.ts'), astToString(await openapiTS(text)));
    const calls = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops).map(([method, op]) => callOf(path, method, op)),
    );
    expect(calls.length).toBeGreaterThanOrEqual(30);
    writeFileSync(
      join(dir, 'calls.ts'),
      `import type { paths } from './api';
type Init<O> = O extends { parameters: infer P } ? { [K in keyof P as P[K] extends never | undefined ? never : K]: P[K] } : never;
type Ok<O> = O extends { responses: infer R } ? R[keyof R & (200 | 201 | 202 | 204)] : never;
declare function call<P extends keyof paths, M extends keyof paths[P] & string>(path: P, method: M, init: Init<paths[P][M]>): Promise<Ok<paths[P][M]>>;
${calls.join('\n')}
// The parameters the last document left out, typed now:
call('/events/stats', 'get', { query: { interval: 'daily', group_by: 'state', type: 'recipient', timezone: 'America/Chicago' } });
call('/search/leads', 'get', { query: { query: 'jane', sort_by: 'state', sort_dir: 'desc', from: 10, limit: 20 } });
call('/firehose', 'get', { query: { service: 'aws', bucket: 'b', access_key_id: 'k', secret_access_key: 's' } });
// @ts-expect-error: no such interval
call('/events/stats', 'get', { query: { interval: 'fortnightly' } });
// @ts-expect-error: limit is a number
call('/search/leads', 'get', { query: { limit: 'ten' } });
// @ts-expect-error: bucket is required
call('/firehose', 'get', { query: { service: 'azure' } });
type StatsRows = paths['/events/stats']['get']['responses'][200]['content']['application/json'];
const rows: StatsRows = [{ state: 'TX', source_submitted: 3 }];
type Search = paths['/search/leads']['get']['responses'][200]['content']['application/json'];
const found: Search['total'] = 3;
type Entity = paths['/entities']['post']['responses'][201]['content']['application/json'];
const name: Entity['name'] = 'Acme';
export { rows, found, name };
`,
    );
    const program = ts.createProgram([join(dir, 'calls.ts')], {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      skipLibCheck: false,
      types: [],
    });
    const problems = ts
      .getPreEmitDiagnostics(program)
      .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n').slice(0, 300));
    expect(problems).toEqual([]);
  }, 60_000);

  it.each(['api', 'certificates'] as const)(
    '%s: passes Redocly’s recommended rules with no errors and no warnings',
    async (which) => {
      const file = join(dir, `openapi-${which}.json`);
      writeFileSync(file, which === 'api' ? text : await openApiText('certificates'));
      const redocly = join(root, 'node_modules', '.bin', 'redocly');
      // The spec fixes both certificate paths, /ping/{token} and /{cert_id}/ping, which a path of /ping/ping would
      // match alike; the router prefers the literal segment, and no certificate ID is "ping" (40 hex digits).
      const skip = which === 'certificates' ? ['--skip-rule=no-ambiguous-paths'] : [];
      const { stdout } = await promisify(execFile)(redocly, ['lint', file, '--format=json', ...skip], {
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      }).catch((error: { stdout: string }) => error);
      const report = JSON.parse(stdout.slice(stdout.indexOf('{'))) as { totals: object; problems: unknown[] };
      expect(report.problems).toEqual([]);
      expect(report.totals).toEqual({ errors: 0, warnings: 0, ignored: 0 });
    },
    60_000,
  );
});
