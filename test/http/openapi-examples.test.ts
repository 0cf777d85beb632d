import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { beforeAll, describe, expect, it } from 'vitest';
import { isHttpUrl } from '../../packages/core/src/schemas/define';
import { isId } from '../../packages/core/src/ids';
import { isTimeZone } from '../../packages/core/src/time';
import { openApiText } from '../../scripts/openapi';

// #20.2: every request body and every success response of both documents shows an example, and
// every example in them is valid against its own schema (Ajv, JSON Schema 2020-12, refs resolved):
// an example that drifted from its schema fails here.

type Schema = { $ref?: string; examples?: unknown[]; type?: string; items?: Schema };
interface Doc {
  components: { schemas: Record<string, Schema> };
  paths: Record<
    string,
    Record<
      string,
      {
        requestBody?: { content: Record<string, { schema: Schema }> };
        responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
      }
    >
  >;
}

function examplesOf(doc: Doc, schema: Schema | undefined): unknown[] {
  if (schema === undefined) return [];
  if (schema.$ref) return examplesOf(doc, doc.components.schemas[schema.$ref.split('/').pop() ?? '']);
  if (schema.examples) return schema.examples;
  return schema.type === 'array' ? examplesOf(doc, schema.items).map((e) => [e]) : [];
}

function validatorFor(doc: Doc) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addFormat('leadroute-id', isId as (v: string) => boolean);
  ajv.addFormat('iana-time-zone', isTimeZone as (v: string) => boolean);
  ajv.addFormat('http-url', isHttpUrl);
  ajv.addSchema({ $id: 'doc', components: doc.components });
  return (schema: Schema, value: unknown) => {
    const check = ajv.compile(rebase(schema) as object);
    return check(value) ? [] : (check.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
  };
}

/** Refs to components point into the registered document. */
const rebase = (schema: unknown): unknown =>
  JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"doc#/components/'));

describe.each(['api', 'certificates'] as const)('#20.2 %s document examples', (which) => {
  let doc: Doc;
  let validate: (schema: Schema, value: unknown) => string[];
  beforeAll(async () => {
    doc = JSON.parse(await openApiText(which)) as Doc;
    validate = validatorFor(doc);
  });

  it('shows an example of every request body and success response', () => {
    const missing: string[] = [];
    for (const [path, operations] of Object.entries(doc.paths))
      for (const [method, op] of Object.entries(operations)) {
        const body = op.requestBody?.content['application/json']?.schema;
        if (op.requestBody && examplesOf(doc, body).length === 0) missing.push(`${method} ${path} body`);
        for (const [status, response] of Object.entries(op.responses))
          if (status.startsWith('2') && response.content)
            for (const [type, { schema }] of Object.entries(response.content))
              if (examplesOf(doc, schema).length === 0) missing.push(`${method} ${path} ${status} ${type}`);
      }
    expect(missing).toEqual([]);
  });

  it('every example is valid against its schema', () => {
    const invalid: string[] = [];
    for (const [name, schema] of Object.entries(doc.components.schemas))
      for (const example of schema.examples ?? [])
        for (const problem of validate(schema, example)) invalid.push(`${name}: ${problem}`);
    expect(invalid).toEqual([]);
  });

  it('the check refuses an example that does not fit its schema', () => {
    const [name, schema] = Object.entries(doc.components.schemas).find(([, s]) => s.examples?.length) ?? [];
    expect(name).toBeDefined();
    expect(validate(schema as Schema, 42)).not.toEqual([]);
  });
});
