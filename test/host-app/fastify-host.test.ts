import type { AddressInfo } from 'node:net';
import { leadroute } from '@leadroute/fastify';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, type HostWorld, hostWorld } from './host-fixture';

// Leadroute's Fastify plugin inside a host app: the host's own content-type parser, an
// onRequest hook that reads its session, its error handler and not-found handler, its
// request IDs, a route of its own beside the plugin's prefix.
describe('#21.9 #21.10 the plugin in a Fastify 5 host app', () => {
  let world: HostWorld;
  let app: FastifyInstance;
  let base: string;
  let closed = 0;

  beforeAll(async () => {
    world = await hostWorld();
    let next = 0;
    app = Fastify({ genReqId: () => `host-${++next}` });
    // The host parses a type of its own everywhere; the plugin must not lose its JSON/XML/form handling.
    app.addContentTypeParser('application/vnd.host+json', { parseAs: 'string' }, (_req, body, done) =>
      done(null, { host: body }),
    );
    app.decorateRequest('session', undefined);
    app.addHook('onRequest', async (request) => {
      (request as { session?: string }).session = request.headers['x-session'] as string | undefined;
    });
    app.setErrorHandler((error, _request, reply) =>
      reply.code(500).send({ host: 'error', message: error instanceof Error ? error.message : String(error) }),
    );
    app.setNotFoundHandler((_request, reply) => reply.code(404).send({ host: 'not found' }));
    const service = world.service;
    const originalClose = service.close.bind(service);
    service.close = async () => {
      closed += 1;
      await originalClose();
    };
    await app.register(leadroute, {
      service,
      prefix: '/api',
      closeService: true,
      authenticate: (request) => world.principalOf((request as { session?: string }).session),
    });
    app.post('/host/echo', async (request) => ({ echoed: request.body }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await app.close();
  });

  it('#21.10 carries plugin metadata and keeps its own scope', () => {
    const meta = (leadroute as unknown as Record<symbol, unknown>)[Symbol.for('plugin-meta')];
    expect(meta).toEqual({ name: '@leadroute/fastify', fastify: '5.x' });
    expect((leadroute as unknown as Record<symbol, unknown>)[Symbol.for('fastify.display-name')]).toBe(
      '@leadroute/fastify',
    );
    // Encapsulated: removing the parsers inside the plugin did not remove the host's.
    expect((leadroute as unknown as Record<symbol, unknown>)[Symbol.for('skip-override')]).toBeUndefined();
  });

  it("#21.9 takes JSON and form leads while the host's own parser keeps working outside the plugin", async () => {
    const intake = `${base}/api/flows/${world.flowId}/sources/${world.sourceId}/submit`;
    expect(
      await call(intake, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"first_name":"Ada"}',
      }),
    ).toMatchObject({ status: 201, body: { outcome: 'success' } });
    expect(
      await call(intake, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'first_name=Grace',
      }),
    ).toMatchObject({
      status: 201,
      body: { outcome: 'success' },
    });
    expect(
      await call(`${base}/host/echo`, {
        method: 'POST',
        headers: { 'content-type': 'application/vnd.host+json' },
        body: 'x',
      }),
    ).toMatchObject({
      status: 200,
      body: { echoed: { host: 'x' } },
    });
  });

  it("#21.10 answers with the host's request ID", async () => {
    const res = await fetch(`${base}/api/flows`, { headers: { 'x-session': 'session-demo' } });
    expect(res.headers.get('x-request-id')).toMatch(/^host-\d+$/);
  });

  it("#21.10 authenticates with the host's session hook, without any API key", async () => {
    expect((await call(`${base}/api/flows`, { headers: { 'x-session': 'session-demo' } })).status).toBe(200);
    expect((await call(`${base}/api/flows`, { headers: { 'x-session': 'stolen' } })).status).toBe(401);
    expect((await call(`${base}/api/flows`, { headers: { authorization: `Bearer ${world.apiKey}` } })).status).toBe(
      200,
    );
  });

  it("#21.10 leaves other paths to the host's not-found handler, those under its prefix too", async () => {
    expect(await call(`${base}/elsewhere`)).toMatchObject({ status: 404, body: { host: 'not found' } });
    // Under the prefix, a path that is no Leadroute route is the host's too, as the Express router hands it on.
    expect(await call(`${base}/api/no-such-endpoint`)).toMatchObject({ status: 404, body: { host: 'not found' } });
    // A Leadroute path with another method is still Leadroute's 405.
    expect((await call(`${base}/api/flows`, { method: 'DELETE' })).status).toBe(405);
  });

  it('#21.10 closes the service when the host closes Fastify, if asked to', async () => {
    const before = closed;
    const second = Fastify();
    await second.register(leadroute, { service: world.service, prefix: '/api', closeService: true });
    await second.ready();
    await second.close();
    expect(closed).toBe(before + 1);
  });
});
