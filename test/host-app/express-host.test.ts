import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BodyAlreadyReadError, expressRouter } from '@leadroute/express';
import express, { type ErrorRequestHandler, type RequestHandler } from 'express';
import express4 from 'express4';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, type HostWorld, hostWorld } from './host-fixture';

// Leadroute's Express router inside a host app as people run one: the host's own global
// body parsers first, its session middleware, the router at a mount path, the host's
// routes after it, its 404 and its error handler, on Express 5 and Express 4.
const EXPRESS = [
  ['Express 5', express],
  // The same API at runtime; its types differ from Express 5's only in ways this app does not use.
  ['Express 4', express4 as unknown as typeof express],
] as const;

describe.each(EXPRESS)('#21.9 #21.10 the router in a %s host app', (_name, makeApp) => {
  let world: HostWorld;
  let server: Server;
  let base: string;
  const hostErrors: string[] = [];

  beforeAll(async () => {
    world = await hostWorld();
    const app = makeApp();
    app.use(express.json());
    app.use(express.urlencoded({ extended: false }));
    app.use(express.text({ type: ['application/xml', 'text/xml'] }));
    // A middleware that reads the body of one path and keeps nothing of it.
    const swallow: RequestHandler = (req, _res, next) => {
      if (req.path !== '/swallowed/api/feedback') return next();
      req.on('data', () => undefined).on('end', () => next());
    };
    app.use(swallow);
    app.use('/api', expressRouter(world.service, { authenticate: (req) => world.principalOf(req.get('x-session')) }));
    app.use('/swallowed/api', expressRouter(world.service));
    app.use(
      '/keyless/api',
      expressRouter(world.service, { apiKeys: false, authenticate: (req) => world.principalOf(req.get('x-session')) }),
    );
    app.get('/api/host-route', (_req, res) => void res.json({ host: 'route' }));
    app.use((_req, res) => void res.status(404).json({ host: 'not found' }));
    const onError: ErrorRequestHandler = (error: Error & { status?: number }, _req, res, _next) => {
      hostErrors.push(error.name);
      res.status(error.status ?? 500).json({ host: 'error', message: error.message });
    };
    app.use(onError);
    server = await new Promise<Server>((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const intake = () => `${base}/api/flows/${world.flowId}/sources/${world.sourceId}/submit`;

  it('#21.9 takes a JSON lead the host already parsed with express.json()', async () => {
    const answer = await call(intake(), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ first_name: 'Ada', email: 'ada@example.com' }),
    });
    expect(answer).toMatchObject({ status: 201, body: { outcome: 'success' } });
  });

  it('#21.9 takes a form lead the host already parsed with express.urlencoded()', async () => {
    const answer = await call(intake(), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'first_name=Grace&email=grace%40example.com',
    });
    expect(answer).toMatchObject({ status: 201, body: { outcome: 'success' } });
    const principal = (await world.principalOf('session-demo')) ?? expect.unreachable();
    const leads = (await world.service.search.leads(principal, { query: 'grace' }))._unsafeUnwrap();
    expect(leads.hits.map((h) => h.first_name)).toContain('Grace');
  });

  it('#21.9 takes an XML lead the host read as text with express.text()', async () => {
    const answer = await call(intake(), {
      method: 'POST',
      headers: { 'content-type': 'application/xml', accept: 'application/json' },
      body: '<lead><first_name>Xena</first_name></lead>',
    });
    expect(answer).toMatchObject({ status: 201, body: { outcome: 'success' } });
  });

  it('#21.9 takes feedback the host parsed, and still refuses a bad one with the spec status', async () => {
    const eventId = await world.latestDelivery();
    const ok = await call(`${base}/api/feedback?event_id=${eventId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'conversion', reason: 'sold' }),
    });
    expect(ok.status).toBe(201);
    const bad = await call(`${base}/api/feedback?event_id=${eventId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'nope' }),
    });
    expect(bad.status).toBe(400);
  });

  it('#21.9 bounds a parsed body as it bounds one it reads: prototype keys dropped, depth refused', async () => {
    let deep = '{"a":1}';
    for (let i = 0; i < 40; i++) deep = `{"a":${deep}}`;
    const answer = await call(intake(), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: deep,
    });
    expect(answer.status).toBe(400);
    expect(JSON.stringify(answer.body)).toMatch(/nested deeper/);
  });

  it("#21.9 sends a body another middleware read and dropped to the host's error handler, with what to do", async () => {
    const answer = await call(`${base}/swallowed/api/feedback?event_id=${await world.latestDelivery()}`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream' },
      body: 'bytes',
    });
    expect(answer).toMatchObject({
      status: 500,
      body: { host: 'error', message: expect.stringMatching(/Mount the router before that middleware/) },
    });
    expect(hostErrors).toContain(new BodyAlreadyReadError().name);
  });

  it("#21.10 passes paths it does not own to the host's routes and 404 handler", async () => {
    expect(await call(`${base}/api/host-route`)).toMatchObject({ status: 200, body: { host: 'route' } });
    expect(await call(`${base}/api/no-such-thing`)).toMatchObject({ status: 404, body: { host: 'not found' } });
    // A Leadroute path with another method is still Leadroute's: 405 with Allow.
    expect(
      (await call(`${base}/api/flows`, { method: 'DELETE', headers: { 'x-session': 'session-demo' } })).status,
    ).toBe(405);
  });

  it("#21.10 authenticates with the host's session, without any API key", async () => {
    const flows = await call(`${base}/api/flows`, { headers: { 'x-session': 'session-demo' } });
    expect(flows.status).toBe(200);
    expect((flows.body as Array<{ id: string }>).map((f) => f.id)).toEqual([world.flowId]);
    expect((await call(`${base}/api/flows`, { headers: { 'x-session': 'stolen' } })).status).toBe(401);
    expect((await call(`${base}/api/flows`)).status).toBe(401);
    // The API key still works beside the host's sessions, unless the host turns keys off.
    expect((await call(`${base}/api/flows`, { headers: { authorization: `Bearer ${world.apiKey}` } })).status).toBe(
      200,
    );
    expect(
      (await call(`${base}/keyless/api/flows`, { headers: { authorization: `Bearer ${world.apiKey}` } })).status,
    ).toBe(401);
    expect((await call(`${base}/keyless/api/flows`, { headers: { 'x-session': 'session-demo' } })).status).toBe(200);
  });
});
