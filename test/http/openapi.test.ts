import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../support/call';
import { createFixture } from '../support/fixture';
import { BINDINGS, type Binding, startBinding } from '../support/servers';

describe.each(BINDINGS)('GET /openapi.json through %s', (name) => {
  let binding: Binding;
  let doc: {
    paths: Record<string, Record<string, { responses: Record<string, unknown>; parameters?: { name: string }[] }>>;
  };

  beforeAll(async () => {
    binding = await startBinding(name, (await createFixture()).service);
    const res = await call(binding.url, { path: '/openapi.json' });
    expect(res.status).toBe(200);
    doc = res.body;
  });
  afterAll(() => binding.close());

  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('describes every route the handler serves, with its statuses', () => {
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/entities',
        '/entities/{id}',
        '/entity-aliases/{id}',
        '/flows/{flow_id}/sources/{source_id}/submit',
        '/events',
        '/openapi.json',
      ]),
    );
    expect(Object.keys(doc.paths['/entity-aliases/{id}'] ?? {}).sort()).toEqual(['delete', 'get', 'put']);
    const create = doc.paths['/entities']?.post;
    expect(Object.keys(create?.responses ?? {}).sort()).toEqual([
      '201',
      '400',
      '401',
      '404',
      '413',
      '415',
      '422',
      '500',
      '503',
    ]);
    const events = doc.paths['/events']?.get;
    expect(events?.parameters?.map((p) => p.name)).toEqual(
      expect.arrayContaining([
        'after_id',
        'before_id',
        'start',
        'end',
        'rules',
        'include',
        'exclude',
        'type',
        'limit',
        'sort',
      ]),
    );
  });

  it('agrees with the handler: a path it lists answers, a path it does not is 404', async () => {
    for (const path of Object.keys(doc.paths)) {
      if (path.includes('{')) continue;
      const method = Object.keys(doc.paths[path] ?? {})[0]?.toUpperCase() ?? 'GET';
      const res = await call(binding.url, { method, path, ...(method === 'GET' ? {} : { json: {} }) });
      expect(res.status, `${method} ${path}`).not.toBe(404);
    }
  });
});
