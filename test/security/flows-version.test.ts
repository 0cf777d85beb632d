import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Call, call } from '../support/call';
import { createFixture, type Fixture } from '../support/fixture';
import { BINDINGS, type Binding, startBinding } from '../support/servers';

// Issue #18.13: PUT /flows/{id} honours a body `version` and If-Match, and every flow answer carries its ETag.
describe.each(BINDINGS)('flow versions over HTTP through %s', (name) => {
  let binding: Binding;
  let f: Fixture;
  let vendor: string;
  const req = (c: Call) => call(binding.url, c);
  const config = (flowName: string) => ({ name: flowName, sources: [{ entity_id: vendor }], steps: [] });
  const put = (id: string, json: unknown, headers?: Record<string, string>) =>
    req({ method: 'PUT', path: `/flows/${id}`, key: f.keys.demo, json, ...(headers ? { headers } : {}) });
  const create = async () => {
    const res = await req({ path: '/flows', key: f.keys.demo, json: config('V1') });
    expect(res.status, res.text).toBe(201);
    return res;
  };

  beforeAll(async () => {
    f = await createFixture();
    binding = await startBinding(name, f.service);
    vendor = (
      await req({
        path: '/entities',
        key: f.keys.demo,
        json: { name: 'Vendor', module_ids: [], source: 'seller', recipient: null },
      })
    ).body.id;
  });
  afterAll(() => binding.close());

  it('#18.13 answers POST, GET and PUT with ETag "<version>", which changes after a PUT', async () => {
    const created = await create();
    expect(created.headers.get('etag')).toBe('"1"');
    const id = created.body.id as string;
    expect((await req({ path: `/flows/${id}`, key: f.keys.demo })).headers.get('etag')).toBe('"1"');
    const updated = await put(id, config('V2'));
    expect(updated.status, updated.text).toBe(200);
    expect(updated.headers.get('etag')).toBe('"2"');
    expect((await req({ path: `/flows/${id}`, key: f.keys.demo })).headers.get('etag')).toBe('"2"');
  });

  it('#18.13 refuses a body version that is not the current one with 409 and the current version, changing nothing', async () => {
    const id = (await create()).body.id as string;
    const read = (await req({ path: `/flows/${id}`, key: f.keys.demo })).body;
    expect((await put(id, { ...read, name: 'Newer' })).status).toBe(200);
    // The stale copy still says version 1: it must not undo "Newer".
    const stale = await put(id, { ...read, name: 'Stale' });
    expect(stale.status, stale.text).toBe(409);
    expect(stale.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(stale.body).toMatchObject({ status: 409, code: 'Conflict', current_version: 2 });
    expect(stale.headers.get('etag')).toBe('"2"');
    expect((await req({ path: `/flows/${id}`, key: f.keys.demo })).body).toMatchObject({ name: 'Newer', version: 2 });
    // The current version goes through, and a version that is no integer is a 422.
    expect((await put(id, { ...read, version: 2, name: 'Fresh' })).body).toMatchObject({ name: 'Fresh', version: 3 });
    const bad = await put(id, { ...read, version: '3' });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: { path: string }) => e.path)).toEqual(['/version']);
  });

  it('#18.13 refuses an If-Match that names none of the current version with 412 and the current version', async () => {
    const id = (await create()).body.id as string;
    expect((await put(id, config('V2'), { 'if-match': '"1"' })).status).toBe(200);
    const stale = await put(id, config('Stale'), { 'if-match': '"1"' });
    expect(stale.status, stale.text).toBe(412);
    expect(stale.body).toMatchObject({
      status: 412,
      title: 'Precondition Failed',
      code: 'PreconditionFailed',
      current_version: 2,
    });
    expect(stale.headers.get('etag')).toBe('"2"');
    // Weak tags never match (If-Match compares strongly), nor does garbage.
    expect((await put(id, config('Weak'), { 'if-match': 'W/"2"' })).status).toBe(412);
    expect((await put(id, config('Junk'), { 'if-match': 'two' })).status).toBe(412);
    expect((await req({ path: `/flows/${id}`, key: f.keys.demo })).body).toMatchObject({ name: 'V2', version: 2 });
    // A list naming the current version matches, and so does *.
    expect((await put(id, config('V3'), { 'if-match': '"1", "2"' })).headers.get('etag')).toBe('"3"');
    expect((await put(id, config('V4'), { 'if-match': '*' })).body).toMatchObject({ name: 'V4', version: 4 });
  });

  it('#18.13 without If-Match or a body version, the last write wins (documented behaviour)', async () => {
    const id = (await create()).body.id as string;
    expect((await put(id, config('A'))).status).toBe(200);
    expect((await put(id, config('B'))).body).toMatchObject({ name: 'B', version: 3 });
  });

  it('#18.13 of concurrent PUTs from one version, exactly one wins; the others get 412 (If-Match) or 409 (body version)', async () => {
    for (const [how, loser] of [
      ['if-match', 412],
      ['body', 409],
    ] as const) {
      const id = (await create()).body.id as string;
      const answers = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          how === 'if-match'
            ? put(id, config(`Editor ${i}`), { 'if-match': '"1"' })
            : put(id, { ...config(`Editor ${i}`), version: 1 }),
        ),
      );
      const winners = answers.filter((a) => a.status === 200);
      expect(winners, how).toHaveLength(1);
      expect(answers.filter((a) => a.status !== 200).map((a) => [a.status, a.body.current_version])).toEqual(
        Array(5).fill([loser, 2]),
      );
      expect((await req({ path: `/flows/${id}`, key: f.keys.demo })).body).toMatchObject({
        name: winners[0]?.body.name,
        version: 2,
      });
    }
  });

  it('#18.13 lists 409 and 412 for PUT /flows/{id} in the OpenAPI document', async () => {
    const doc = (await req({ path: '/openapi.json' })).body;
    expect(Object.keys(doc.paths['/flows/{id}'].put.responses)).toEqual(expect.arrayContaining(['409', '412']));
    expect(doc.components.schemas.Problem.properties.current_version).toMatchObject({ type: 'integer' });
  });
});
