import { STANDARD_ENTITIES } from '@leadroute/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Answer, type Call, call } from '../support/call';
import { createFixture, type Fixture } from '../support/fixture';
import { BINDINGS, type Binding, startBinding } from '../support/servers';

const validEntity = {
  name: 'Acme Insurance',
  description: 'Buys auto leads',
  module_ids: ['platform-custom.outbound.json'],
  source: null,
  recipient: 'buyer',
  time_zone: 'America/Chicago',
  website: 'https://acme.example.com',
  logo_url: null,
  field_suffix: null,
  consent_certified_vendor: false,
};
const UNKNOWN_ID = 'aaaaaaaaaaaaaaaaaaaaaaaa';

/** One row of the table: a request built from what earlier steps created, and what must come back. */
interface Case {
  readonly name: string;
  readonly request: (s: State) => Call;
  readonly status: number;
  readonly check?: (res: Answer, s: State) => void;
}

interface State {
  readonly f: Fixture;
  entityId: string;
  otherEntityId: string;
  aliasId: string;
  otherAliasId: string;
}

const problem = (code: string) => (res: Answer) => {
  expect(res.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
  expect(res.body).toMatchObject({ type: 'about:blank', status: res.status, code });
};

const cases: Case[] = [
  // Authentication
  {
    name: 'GET /entities without a key is 401 with a Basic challenge',
    request: () => ({ path: '/entities' }),
    status: 401,
    check: (r) => {
      expect(r.headers.get('www-authenticate')).toMatch(/^Basic realm="leadroute"/);
      problem('Unauthorized')(r);
    },
  },
  { name: 'a wrong key is 401', request: () => ({ path: '/entities', key: 'not-a-key-of-anyone' }), status: 401 },
  {
    name: 'Basic with a user other than API is 401',
    request: (s) => ({
      path: '/entities',
      headers: { authorization: `Basic ${Buffer.from(`bob:${s.f.keys.demo}`).toString('base64')}` },
    }),
    status: 401,
  },
  {
    name: 'Bearer with the key is accepted',
    request: (s) => ({ path: '/entities', headers: { authorization: `Bearer ${s.f.keys.demo}` } }),
    status: 200,
  },
  {
    name: 'a malformed Authorization header is 401',
    request: () => ({ path: '/entities', headers: { authorization: 'Basic' } }),
    status: 401,
  },
  // Entities: list and read
  {
    name: 'GET /entities lists standard entities and the account entity',
    request: (s) => ({ path: '/entities', key: s.f.keys.demo }),
    status: 200,
    check: (r) => {
      const names = r.body.map((e: { name: string }) => e.name);
      expect(names).toEqual(
        expect.arrayContaining([...STANDARD_ENTITIES.map((e) => e.name), 'Demo', 'Acme Insurance']),
      );
      expect(names).not.toContain('Other');
      expect(r.body.find((e: { name: string }) => e.name === 'Demo')).toMatchObject({ account: true, standard: false });
    },
  },
  {
    name: 'GET /entities/{id} answers the entity',
    request: (s) => ({ path: `/entities/${s.entityId}`, key: s.f.keys.demo }),
    status: 200,
    check: (r, s) => {
      expect(r.body).toMatchObject({
        ...validEntity,
        id: s.entityId,
        standard: false,
        account: false,
        deprecated: false,
        see: null,
        flow_ids: [],
      });
      expect(r.headers.get('content-type')).toMatch(/^application\/json/);
    },
  },
  {
    name: 'GET /entities/{id} of a standard entity',
    request: (s) => ({ path: `/entities/${STANDARD_ENTITIES[0]?.id}`, key: s.f.keys.demo }),
    status: 200,
    check: (r) => expect(r.body.standard).toBe(true),
  },
  {
    name: 'IDs are matched case-insensitively',
    request: (s) => ({ path: `/entities/${s.entityId.toUpperCase()}`, key: s.f.keys.demo }),
    status: 200,
  },
  {
    name: "another account's entity is 404 like an unknown one",
    request: (s) => ({ path: `/entities/${s.otherEntityId}`, key: s.f.keys.demo }),
    status: 404,
    check: problem('NotFound'),
  },
  {
    name: 'an unknown entity is 404',
    request: (s) => ({ path: `/entities/${UNKNOWN_ID}`, key: s.f.keys.demo }),
    status: 404,
    check: problem('NotFound'),
  },
  {
    name: 'a malformed entity ID is 404',
    request: (s) => ({ path: '/entities/not-an-id', key: s.f.keys.demo }),
    status: 404,
  },
  { name: 'free accounts may read entities', request: (s) => ({ path: '/entities', key: s.f.keys.free }), status: 200 },
  // Entities: create
  {
    name: 'POST /entities creates and ignores read-only fields',
    request: (s) => ({
      path: '/entities',
      key: s.f.keys.demo,
      json: {
        ...validEntity,
        id: UNKNOWN_ID,
        standard: true,
        account: true,
        created_at: '2000-01-01T00:00:00Z',
        connected: 'both',
      },
    }),
    status: 201,
    check: (r) => {
      expect(r.body.id).toMatch(/^[0-9a-f]{24}$/);
      expect(r.body.id).not.toBe(UNKNOWN_ID);
      expect(r.body).toMatchObject({ standard: false, account: false, connected: null, pending: false });
      expect(r.body.created_at).not.toBe('2000-01-01T00:00:00Z');
      expect(r.body.created_at).toBe(r.body.updated_at);
    },
  },
  {
    name: 'POST /entities with source and recipient null is valid',
    request: (s) => ({
      path: '/entities',
      key: s.f.keys.demo,
      json: { name: 'Silent', module_ids: [], source: null, recipient: null },
    }),
    status: 201,
  },
  {
    name: 'POST /entities without required fields is 422 naming each',
    request: (s) => ({ path: '/entities', key: s.f.keys.demo, json: { description: 'x' } }),
    status: 422,
    check: (r) => {
      problem('Validation')(r);
      expect(r.body.errors.map((e: { path: string }) => e.path).sort()).toEqual([
        '/module_ids',
        '/name',
        '/recipient',
        '/source',
      ]);
    },
  },
  ...(
    [
      ['module_ids', ['custom.outbound.json'], '/module_ids'],
      ['module_ids', 'platform-a.outbound.b', '/module_ids'],
      ['module_ids', ['platform-a.sideways.b'], '/module_ids'],
      ['module_ids', ['platform-a.outbound.b', 'platform-a.outbound.b'], '/module_ids'],
      ['source', 'buyer', '/source'],
      ['recipient', 'seller', '/recipient'],
      ['recipient', undefined, '/recipient'],
      ['name', '   ', '/name'],
      ['name', 42, '/name'],
      ['time_zone', 'Mars/Olympus', '/time_zone'],
      ['website', 'ftp://x.example.com', '/website'],
      ['logo_url', 'not a url', '/logo_url'],
      ['field_suffix', 'Has Spaces', '/field_suffix'],
      // #19.12: refused, as nothing could apply it (the spec does not say how a suffix joins a field name).
      ['field_suffix', 'acme', '/field_suffix'],
      ['connected_account_id', 'not-an-id', '/connected_account_id'],
      ['flow_ids', ['nope'], '/flow_ids'],
      ['deprecated', 'yes', '/deprecated'],
      ['consent_certified_vendor', 1, '/consent_certified_vendor'],
      ['see', 'nope', '/see'],
    ] as const
  ).map(
    ([field, value, path]): Case => ({
      name: `POST /entities with ${field} = ${JSON.stringify(value)} is 422 at ${path}`,
      request: (s) => ({ path: '/entities', key: s.f.keys.demo, json: { ...validEntity, [field]: value } }),
      status: 422,
      check: (r) => expect(r.body.errors.map((e: { path: string }) => e.path)).toEqual([path]),
    }),
  ),
  {
    name: 'POST /entities with see on a non-deprecated entity is 422',
    request: (s) => ({ path: '/entities', key: s.f.keys.demo, json: { ...validEntity, see: s.entityId } }),
    status: 422,
  },
  {
    name: 'POST /entities with a body that is not an object is 422',
    request: (s) => ({ path: '/entities', key: s.f.keys.demo, json: [1, 2] }),
    status: 422,
  },
  {
    name: 'malformed JSON is 400',
    request: (s) => ({
      path: '/entities',
      key: s.f.keys.demo,
      raw: '{"name":',
      headers: { 'content-type': 'application/json' },
    }),
    status: 400,
    check: problem('BadRequest'),
  },
  {
    name: 'a body without Content-Type is 415',
    request: (s) => ({ path: '/entities', key: s.f.keys.demo, raw: '{}' }),
    status: 415,
    check: problem('UnsupportedMediaType'),
  },
  {
    name: 'an unsupported Content-Type is 415',
    request: (s) => ({
      path: '/entities',
      key: s.f.keys.demo,
      raw: 'hello',
      headers: { 'content-type': 'text/plain' },
    }),
    status: 415,
  },
  {
    name: 'XML with a DOCTYPE is refused with 400',
    request: (s) => ({
      path: '/entities',
      key: s.f.keys.demo,
      raw: '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "b">]><x><name>&a;</name></x>',
      headers: { 'content-type': 'application/xml' },
    }),
    status: 400,
  },
  {
    name: 'an XML body is parsed (and validated like JSON)',
    request: (s) => ({
      path: '/entities',
      key: s.f.keys.demo,
      raw: '<entity><name>X</name></entity>',
      headers: { 'content-type': 'text/xml' },
    }),
    status: 422,
    check: (r) =>
      expect(r.body.errors.map((e: { path: string }) => e.path).sort()).toEqual([
        '/module_ids',
        '/recipient',
        '/source',
      ]),
  },
  {
    name: 'a form body is parsed',
    request: (s) => ({
      path: '/entities',
      key: s.f.keys.demo,
      raw: 'name=Formed&source=other',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    }),
    status: 422,
    check: (r) =>
      expect(r.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(['/module_ids', '/recipient']),
  },
  {
    name: 'a body over 10 MB is 413',
    request: (s) => ({
      path: '/entities',
      key: s.f.keys.demo,
      raw: `{"name":"${'x'.repeat(10 * 1024 * 1024)}"}`,
      headers: { 'content-type': 'application/json' },
    }),
    status: 413,
    check: problem('PayloadTooLarge'),
  },
  {
    name: '__proto__ in a body never reaches a prototype',
    request: (s) => ({
      path: '/entities',
      key: s.f.keys.demo,
      raw: JSON.stringify({ ...validEntity, name: 'Proto' }).replace('{', '{"__proto__":{"polluted":true},'),
      headers: { 'content-type': 'application/json' },
    }),
    status: 201,
    check: () => expect(({} as Record<string, unknown>).polluted).toBeUndefined(),
  },
  // Entities: update
  {
    name: 'PUT /entities/{id} changes only the given fields',
    request: (s) => ({
      method: 'PUT',
      path: `/entities/${s.entityId}`,
      key: s.f.keys.demo,
      json: { description: 'Now buys home leads', standard: true },
    }),
    status: 200,
    check: (r) => {
      expect(r.body).toMatchObject({ description: 'Now buys home leads', name: validEntity.name, standard: false });
      expect(r.body.updated_at >= r.body.created_at).toBe(true);
    },
  },
  {
    name: 'PUT /entities/{id} with an invalid field is 422',
    request: (s) => ({
      method: 'PUT',
      path: `/entities/${s.entityId}`,
      key: s.f.keys.demo,
      json: { source: 'nobody' },
    }),
    status: 422,
  },
  {
    name: 'PUT a standard entity is 403',
    request: (s) => ({
      method: 'PUT',
      path: `/entities/${STANDARD_ENTITIES[1]?.id}`,
      key: s.f.keys.demo,
      json: { name: 'Mine now' },
    }),
    status: 403,
    check: problem('Forbidden'),
  },
  {
    name: "PUT another account's entity is 404",
    request: (s) => ({
      method: 'PUT',
      path: `/entities/${s.otherEntityId}`,
      key: s.f.keys.demo,
      json: { name: 'Stolen' },
    }),
    status: 404,
  },
  {
    name: 'PUT deprecated with see pointing to itself is 422',
    request: (s) => ({
      method: 'PUT',
      path: `/entities/${s.entityId}`,
      key: s.f.keys.demo,
      json: { deprecated: true, see: s.entityId },
    }),
    status: 422,
  },
  {
    name: "PUT deprecated with see naming another account's entity is 422",
    request: (s) => ({
      method: 'PUT',
      path: `/entities/${s.entityId}`,
      key: s.f.keys.demo,
      json: { deprecated: true, see: s.otherEntityId },
    }),
    status: 422,
  },
  // Routing and negotiation
  {
    name: 'DELETE /entities/{id} is 405 with Allow (entities are deprecated, never deleted)',
    request: (s) => ({ method: 'DELETE', path: `/entities/${s.entityId}`, key: s.f.keys.demo }),
    status: 405,
    check: (r) => {
      expect(r.headers.get('allow')).toBe('GET, HEAD, PUT');
      problem('MethodNotAllowed')(r);
    },
  },
  // Fastify answers it as Leadroute's problem; the Express router passes it to the host's next middleware (#21.10),
  // here Express's own 404.
  { name: 'an unknown path is 404', request: (s) => ({ path: '/nothing-here', key: s.f.keys.demo }), status: 404 },
  {
    name: 'Accept that JSON cannot satisfy is 406',
    request: (s) => ({ path: '/entities', key: s.f.keys.demo, headers: { accept: 'text/csv' } }),
    status: 406,
    check: problem('NotAcceptable'),
  },
  {
    name: 'Accept */* is fine',
    request: (s) => ({ path: '/entities', key: s.f.keys.demo, headers: { accept: 'text/html, */*;q=0.1' } }),
    status: 200,
  },
  {
    name: 'OPTIONS answers 204 with Allow',
    request: () => ({ method: 'OPTIONS', path: '/entity-aliases' }),
    status: 204,
    check: (r) => expect(r.headers.get('allow')).toBe('GET, HEAD, POST'),
  },
  {
    name: 'HEAD answers the GET status without a body',
    request: (s) => ({ method: 'HEAD', path: '/entities', key: s.f.keys.demo }),
    status: 200,
    check: (r) => expect(r.text).toBe(''),
  },
  {
    name: 'a query parameter named __proto__ is 400',
    request: (s) => ({ path: '/entities?__proto__=x', key: s.f.keys.demo }),
    status: 400,
  },
  {
    name: 'a bad percent-encoding in the path is 400',
    request: (s) => ({ path: '/entities/%E0%A4%A', key: s.f.keys.demo }),
    status: 400,
  },
  {
    name: 'every response carries a request ID, echoing a sane incoming one',
    request: (s) => ({ path: '/entities', key: s.f.keys.demo, headers: { 'x-request-id': 'abc-123' } }),
    status: 200,
    check: (r) => expect(r.headers.get('x-request-id')).toBe('abc-123'),
  },
  // Aliases
  {
    name: "GET /entity-aliases lists only this account's aliases",
    request: (s) => ({ path: '/entity-aliases', key: s.f.keys.demo }),
    status: 200,
    check: (r, s) => {
      expect(r.body.map((a: { id: string }) => a.id)).toContain(s.aliasId);
      expect(r.body.map((a: { id: string }) => a.id)).not.toContain(s.otherAliasId);
    },
  },
  {
    name: 'POST /entity-aliases creates an alias of a standard entity',
    request: (s) => ({
      path: '/entity-aliases',
      key: s.f.keys.demo,
      json: { entity_id: STANDARD_ENTITIES[0]?.id, entity_alias: 'Our forms', account_id: UNKNOWN_ID },
    }),
    status: 201,
    check: (r) => {
      expect(r.body).toMatchObject({ entity_id: STANDARD_ENTITIES[0]?.id, entity_alias: 'Our forms' });
      expect(r.body.account_id).not.toBe(UNKNOWN_ID);
    },
  },
  {
    name: 'POST /entity-aliases twice for one entity is 409',
    request: (s) => ({
      path: '/entity-aliases',
      key: s.f.keys.demo,
      json: { entity_id: s.entityId, entity_alias: 'Again' },
    }),
    status: 409,
    check: problem('Conflict'),
  },
  {
    name: 'POST /entity-aliases without fields is 422',
    request: (s) => ({ path: '/entity-aliases', key: s.f.keys.demo, json: {} }),
    status: 422,
    check: (r) =>
      expect(r.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(['/entity_alias', '/entity_id']),
  },
  {
    name: "POST /entity-aliases for another account's entity is 422",
    request: (s) => ({
      path: '/entity-aliases',
      key: s.f.keys.demo,
      json: { entity_id: s.otherEntityId, entity_alias: 'Theirs' },
    }),
    status: 422,
  },
  {
    name: 'POST /entity-aliases for an unknown entity is 422',
    request: (s) => ({
      path: '/entity-aliases',
      key: s.f.keys.demo,
      json: { entity_id: UNKNOWN_ID, entity_alias: 'Ghost' },
    }),
    status: 422,
  },
  {
    name: 'GET /entity-aliases/{id}',
    request: (s) => ({ path: `/entity-aliases/${s.aliasId}`, key: s.f.keys.demo }),
    status: 200,
    check: (r, s) => expect(r.body).toMatchObject({ id: s.aliasId, entity_id: s.entityId, entity_alias: 'Acme' }),
  },
  {
    name: "GET another account's alias is 404",
    request: (s) => ({ path: `/entity-aliases/${s.otherAliasId}`, key: s.f.keys.demo }),
    status: 404,
  },
  {
    name: 'GET an unknown alias is 404',
    request: (s) => ({ path: `/entity-aliases/${UNKNOWN_ID}`, key: s.f.keys.demo }),
    status: 404,
  },
  {
    name: 'PUT /entity-aliases/{id} renames it',
    request: (s) => ({
      method: 'PUT',
      path: `/entity-aliases/${s.aliasId}`,
      key: s.f.keys.demo,
      json: { entity_alias: 'Acme Corp' },
    }),
    status: 200,
    check: (r) => expect(r.body.entity_alias).toBe('Acme Corp'),
  },
  {
    name: 'PUT /entity-aliases/{id} with an empty alias is 422',
    request: (s) => ({
      method: 'PUT',
      path: `/entity-aliases/${s.aliasId}`,
      key: s.f.keys.demo,
      json: { entity_alias: '' },
    }),
    status: 422,
  },
  {
    name: "PUT another account's alias is 404",
    request: (s) => ({
      method: 'PUT',
      path: `/entity-aliases/${s.otherAliasId}`,
      key: s.f.keys.demo,
      json: { entity_alias: 'Mine' },
    }),
    status: 404,
  },
  {
    name: "DELETE another account's alias is 404 and leaves it",
    request: (s) => ({ method: 'DELETE', path: `/entity-aliases/${s.otherAliasId}`, key: s.f.keys.demo }),
    status: 404,
  },
  {
    name: 'PATCH /entity-aliases/{id} is 405',
    request: (s) => ({ method: 'PATCH', path: `/entity-aliases/${s.aliasId}`, key: s.f.keys.demo, json: {} }),
    status: 405,
    check: (r) => expect(r.headers.get('allow')).toBe('DELETE, GET, HEAD, PUT'),
  },
];

describe.each(BINDINGS)('entities and aliases over HTTP through %s', (name) => {
  let binding: Binding;
  let state: State;

  beforeAll(async () => {
    const f = await createFixture();
    binding = await startBinding(name, f.service);
    const post = async (key: string, path: string, json: unknown) =>
      (await call(binding.url, { path, key, json })).body;
    const entityId = (await post(f.keys.demo, '/entities', validEntity)).id;
    const otherEntityId = (await post(f.keys.other, '/entities', { ...validEntity, name: 'Other buyer' })).id;
    const aliasId = (await post(f.keys.demo, '/entity-aliases', { entity_id: entityId, entity_alias: 'Acme' })).id;
    const otherAliasId = (
      await post(f.keys.other, '/entity-aliases', { entity_id: otherEntityId, entity_alias: 'Theirs' })
    ).id;
    state = { f, entityId, otherEntityId, aliasId, otherAliasId };
  });
  afterAll(() => binding.close());

  it.each(cases)('$name', async (c) => {
    const res = await call(binding.url, c.request(state));
    expect(res.status, res.text.slice(0, 500)).toBe(c.status);
    c.check?.(res, state);
  });

  it('DELETE /entity-aliases/{id} answers the deleted alias, then 404', async () => {
    const key = state.f.keys.demo;
    const created = await call(binding.url, {
      path: '/entity-aliases',
      key,
      json: { entity_id: STANDARD_ENTITIES[2]?.id, entity_alias: 'Temp' },
    });
    expect(created.status).toBe(201);
    const deleted = await call(binding.url, { method: 'DELETE', path: `/entity-aliases/${created.body.id}`, key });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual(created.body);
    expect((await call(binding.url, { path: `/entity-aliases/${created.body.id}`, key })).status).toBe(404);
    expect(
      (await call(binding.url, { method: 'DELETE', path: `/entity-aliases/${created.body.id}`, key })).status,
    ).toBe(404);
  });

  it("#19.12 flow_ids lists the caller's flows that list the entity, kept current as flows change, never another account's", async () => {
    const { f } = state;
    const key = f.keys.demo;
    const vendor = (
      await call(binding.url, {
        path: '/entities',
        key,
        json: { ...validEntity, name: 'Flow vendor', source: 'seller', recipient: null, module_ids: [] },
      })
    ).body.id;
    const buyer = (await call(binding.url, { path: '/entities', key, json: { ...validEntity, name: 'Flow buyer' } }))
      .body.id;
    // A body's flow_ids is the spec's shape, but the value is derived: what is sent is not kept.
    const sent = await call(binding.url, {
      method: 'PUT',
      path: `/entities/${buyer}`,
      key,
      json: { flow_ids: [UNKNOWN_ID] },
    });
    expect(sent.body.flow_ids).toEqual([]);
    const flow = await call(binding.url, {
      path: '/flows',
      key,
      json: {
        name: 'Uses both',
        sources: [{ entity_id: vendor }],
        steps: [
          {
            type: 'recipient',
            entity_id: buyer,
            module_id: 'platform-custom.outbound.json',
            config: { url: 'https://crm.example.com/leads' },
          },
        ],
      },
    });
    expect(flow.status, flow.text).toBe(201);
    expect((await call(binding.url, { path: `/entities/${buyer}`, key })).body.flow_ids).toEqual([flow.body.id]);
    expect((await call(binding.url, { path: `/entities/${vendor}`, key })).body.flow_ids).toEqual([flow.body.id]);
    const listed = (await call(binding.url, { path: '/entities', key })).body as Array<{
      id: string;
      flow_ids: string[];
    }>;
    expect(listed.find((e) => e.id === buyer)?.flow_ids).toEqual([flow.body.id]);
    // Another account listing a standard entity in its flow: the demo account never sees that flow.
    const standard = STANDARD_ENTITIES[0]?.id as string;
    const otherFlow = await call(binding.url, {
      path: '/flows',
      key: f.keys.other,
      json: { name: 'Theirs', sources: [{ entity_id: standard }], steps: [] },
    });
    expect(otherFlow.status, otherFlow.text).toBe(201);
    expect((await call(binding.url, { path: `/entities/${standard}`, key })).body.flow_ids).not.toContain(
      otherFlow.body.id,
    );
    expect((await call(binding.url, { path: `/entities/${standard}`, key: f.keys.other })).body.flow_ids).toEqual([
      otherFlow.body.id,
    ]);
    // The flow drops the buyer: so does its flow_ids.
    const current = (await call(binding.url, { path: `/flows/${flow.body.id}`, key })).body;
    const changed = await call(binding.url, {
      method: 'PUT',
      path: `/flows/${flow.body.id}`,
      key,
      json: { ...current, steps: [] },
    });
    expect(changed.status, changed.text).toBe(200);
    expect((await call(binding.url, { path: `/entities/${buyer}`, key })).body.flow_ids).toEqual([]);
  });

  it('#19.12 connected_account_id is settable on a custom entity, not on an account entity', async () => {
    const key = state.f.keys.demo;
    const connected = 'bbbbbbbbbbbbbbbbbbbbbbbb';
    const created = await call(binding.url, {
      path: '/entities',
      key,
      json: { ...validEntity, name: 'Partner', connected_account_id: connected },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body.connected_account_id).toBe(connected);
    const cleared = await call(binding.url, {
      method: 'PUT',
      path: `/entities/${created.body.id}`,
      key,
      json: { connected_account_id: null },
    });
    expect(cleared.body.connected_account_id).toBeNull();
    const own = (
      (await call(binding.url, { path: '/entities', key })).body as Array<{ id: string; account: boolean }>
    ).find((e) => e.account);
    const refused = await call(binding.url, {
      method: 'PUT',
      path: `/entities/${own?.id}`,
      key,
      json: { connected_account_id: connected },
    });
    expect(refused.status).toBe(422);
  });

  it("#19.12 an account's alias is the name it sees for the entity in events, search hits and alerts", async () => {
    const { f } = state;
    const key = f.keys.demo;
    const vendor = (
      await call(binding.url, {
        path: '/entities',
        key,
        json: { ...validEntity, name: 'Vendor Legal Name LLC', source: 'seller', recipient: null, module_ids: [] },
      })
    ).body.id;
    const alias = await call(binding.url, {
      path: '/entity-aliases',
      key,
      json: { entity_id: vendor, entity_alias: 'Our Vendor' },
    });
    expect(alias.status, alias.text).toBe(201);
    const flow = (
      await call(binding.url, {
        path: '/flows',
        key,
        json: { name: 'Aliased', sources: [{ entity_id: vendor }], steps: [] },
      })
    ).body;
    const submitted = await call(binding.url, {
      path: `/flows/${flow.id}/sources/${vendor}/submit`,
      json: { first_name: 'Aliasa', last_name: 'Shown' },
    });
    expect(submitted.status, submitted.text).toBe(201);
    const rules = encodeURIComponent(
      JSON.stringify([{ lhv: 'lead_id', op: 'is equal to', rhv: submitted.body.lead.id }]),
    );
    const [event] = (await call(binding.url, { path: `/events?type=source&rules=${rules}`, key })).body;
    expect(event.vars.source.name).toBe('Our Vendor');
    const hits = (await call(binding.url, { path: '/search/leads?query=aliasa', key })).body.hits;
    expect(hits[0]).toMatchObject({ source_name: 'Our Vendor' });
    const alerts = (await call(binding.url, { path: '/alerts', key })).body as Array<{
      type: string;
      entity_id: string;
      entity_name: string;
    }>;
    expect(alerts.find((a) => a.type === 'new-source' && a.entity_id === vendor)?.entity_name).toBe('Our Vendor');
  });

  it('deprecates an entity with a replacement, and un-deprecating drops it', async () => {
    const key = state.f.keys.demo;
    const next = await call(binding.url, { path: '/entities', key, json: { ...validEntity, name: 'Replacement' } });
    const deprecated = await call(binding.url, {
      method: 'PUT',
      path: `/entities/${state.entityId}`,
      key,
      json: { deprecated: true, see: next.body.id },
    });
    expect(deprecated.status).toBe(200);
    expect(deprecated.body).toMatchObject({ deprecated: true, see: next.body.id });
    expect((await call(binding.url, { path: `/entities/${state.entityId}`, key })).body.deprecated).toBe(true);
    const pointing = await call(binding.url, {
      method: 'PUT',
      path: `/entities/${next.body.id}`,
      key,
      json: { deprecated: true, see: state.entityId },
    });
    expect(pointing.status, 'see may not name a deprecated entity').toBe(422);
    const restored = await call(binding.url, {
      method: 'PUT',
      path: `/entities/${state.entityId}`,
      key,
      json: { deprecated: false },
    });
    expect(restored.body).toMatchObject({ deprecated: false, see: null });
  });
});
