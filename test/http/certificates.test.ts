import type { AddressInfo } from 'node:net';
import {
  CERTIFICATE_CLAIM_MODULE_ID,
  type LeadService,
  type NewCertificate,
  rejectionCategory,
  type StoredEvent,
} from '@leadroute/core';
import { expressCertificateRouter, expressRouter } from '@leadroute/express';
import { leadroute } from '@leadroute/fastify';
import type { MemoryStorage } from '@leadroute/memory';
import { manualClock } from '@leadroute/testkit';
import express from 'express';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../support/call';
import { basic, createFixture, type Fixture } from '../support/fixture';
import { BINDINGS } from '../support/servers';

/** The API at `/api` and the certificate service at `/certificates`, as the example mounts them. */
async function start(name: (typeof BINDINGS)[number], service: LeadService) {
  if (name === 'express') {
    const app = express();
    app.use('/certificates', expressCertificateRouter(service));
    app.use('/api', expressRouter(service));
    const server = await new Promise<import('node:http').Server>((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return {
      base,
      close: () =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    };
  }
  const app = Fastify();
  await app.register(leadroute, { service, serve: 'certificates', prefix: '/certificates' });
  await app.register(leadroute, { service, prefix: '/api' });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { base: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`, close: () => app.close() };
}

const VISIT: NewCertificate = {
  client: {
    ip: '203.0.113.7',
    user_agent: 'Mozilla/5.0 (X11; Linux x86_64) Test/1.0',
    dimensions: { screen: { width: 1920, height: 1080 }, window: { width: 1280, height: 720 } },
    geo: { city: 'Austin', country: 'US', postal_code: '78701', subdivisions: ['TX'] },
  },
  location: { framed: true, parent_url: 'https://parent.example.com/', url: 'https://form.example.com/quote' },
  time_on_page: 42,
  type: 'web',
};
const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 0, 15, 15, 0, 0);
const UNKNOWN_ID = 'ab'.repeat(20);

describe.each(BINDINGS)('certificate service through %s', (name) => {
  let f: Fixture;
  let server: { base: string; close(): Promise<void> };
  const clock = manualClock(T0);
  let cert: { id: string; ping_token: string; cert_url?: string; ping_url?: string };
  const ping = (path: string, key: string | null = f.keys.demo, headers: Record<string, string> = {}) =>
    call(`${server.base}/certificates`, { path, headers, ...(key === null ? {} : { key }) });

  beforeAll(async () => {
    clock.set(T0);
    f = await createFixture({ clock, certificates: { baseUrl: 'https://leads.example.com/certificates/' } });
    server = await start(name, f.service);
    cert = (await f.service.certificates.record(VISIT))._unsafeUnwrap();
    clock.advance(90_000);
  });
  afterAll(async () => server?.close());

  describe('200: ping data', () => {
    it('answers the spec ping data for GET {cert_url}/{cert_id}/ping with Basic API:<key>', async () => {
      const res = await ping(`/${cert.id}/ping`);
      expect(res.status, res.text).toBe(200);
      expect(res.body).toEqual({
        age: 90,
        client: VISIT.client,
        created_at: new Date(T0).toISOString(),
        location: VISIT.location,
        time_on_page: 42,
        type: 'web',
      });
      expect(res.text).not.toContain(cert.ping_token);
    });

    it('answers the same data through the vendor-supplied ping URL, and for an upper-case ID', async () => {
      const byId = await ping(`/${cert.id}/ping`);
      expect(cert.ping_url).toBe(`https://leads.example.com/certificates/ping/${cert.ping_token}`);
      expect(cert.cert_url).toBe(`https://leads.example.com/certificates/${cert.id}`);
      const byToken = await ping(`/ping/${cert.ping_token}`);
      expect(byToken.status).toBe(200);
      expect(byToken.body).toEqual(byId.body);
      expect((await ping(`/${cert.id.toUpperCase()}/ping`)).body).toEqual(byId.body);
    });

    it('answers any paid account holding the URL: certificates belong to the certificate service', async () => {
      expect((await ping(`/${cert.id}/ping`, f.keys.other)).status).toBe(200);
    });
  });

  describe('401', () => {
    it.each([
      ['no credentials', null, {}],
      ['an unknown key', 'no-such-key', {}],
      ['a user name other than API', null, { authorization: `Basic ${Buffer.from(`USER:${'x'}`).toString('base64')}` }],
    ])('refuses %s', async (_case, key, headers) => {
      const res = await ping(`/${cert.id}/ping`, key, headers as Record<string, string>);
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Basic realm=/);
      expect(res.text).not.toContain(VISIT.client.ip);
    });

    it('refuses a free account (ping data is data about a lead) and the wrong user with a valid key', async () => {
      expect((await ping(`/${cert.id}/ping`, f.keys.free)).status).toBe(401);
      const wrongUser = `Basic ${Buffer.from(`USER:${f.keys.demo}`).toString('base64')}`;
      expect((await ping(`/${cert.id}/ping`, null, { authorization: wrongUser })).status).toBe(401);
      expect((await ping(`/${cert.id}/ping`, null, { authorization: basic(f.keys.demo) })).status).toBe(200);
    });
  });

  describe('400: malformed certificate ID or URL', () => {
    it.each([
      ['a short ID', '/abc123/ping'],
      ['a non-hex ID', `/${'zz'.repeat(20)}/ping`],
      ['an ID one character too long', `/${cert?.id ?? UNKNOWN_ID}a/ping`],
      ['a malformed ping token', '/ping/short'],
      ['a ping token with bad characters', `/ping/${'%24'.repeat(40)}`],
    ])('answers 400 for %s', async (_case, path) => {
      const res = await ping(path);
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
      expect(res.body.detail).toMatch(/^Malformed (certificate|ping) URL/);
    });
  });

  describe('404', () => {
    it('answers 404 for an unknown certificate ID or ping token', async () => {
      expect((await ping(`/${UNKNOWN_ID}/ping`)).status).toBe(404);
      expect((await ping(`/ping/${'A'.repeat(32)}`)).status).toBe(404);
    });

    it('answers 404 for an expired certificate, by ID and by ping URL', async () => {
      const old = (await f.service.certificates.record(VISIT))._unsafeUnwrap();
      expect((await ping(`/${old.id}/ping`)).status).toBe(200);
      clock.advance(72 * HOUR);
      try {
        expect((await ping(`/${old.id}/ping`)).status).toBe(404);
        expect((await ping(`/ping/${old.ping_token}`)).status).toBe(404);
      } finally {
        clock.advance(-72 * HOUR);
      }
    });

    it('keeps the handlers apart: the API does not serve pings, the certificate service no API routes', async () => {
      expect((await call(`${server.base}/api`, { path: `/${cert.id}/ping`, key: f.keys.demo })).status).toBe(404);
      expect((await ping('/entities')).status).toBe(404);
      expect((await call(`${server.base}/api`, { path: '/entities', key: f.keys.demo })).status).toBe(200);
    });
  });
});

describe.each(BINDINGS)('the consent-certificate step through %s', (name) => {
  let f: Fixture;
  let server: { base: string; close(): Promise<void> };
  const clock = manualClock(T0);
  let flowId: string;
  let vendorId: string;
  let steps: { id: string }[];

  const api = (path: string, json?: unknown) =>
    call(`${server.base}/api`, { path, key: f.keys.demo, ...(json === undefined ? {} : { json }) });
  /** Submits a lead and answers the event of the certificate step. */
  const submit = async (lead: Record<string, unknown>): Promise<StoredEvent> => {
    const res = await api(`/flows/${flowId}/sources/${vendorId}/submit`, lead);
    expect(res.status, res.text).toBe(201);
    const events = [...(f.service.storage as MemoryStorage).tables.events.values()];
    const event = events.find((e) => e.lead_id === res.body.lead.id && e.step_id === steps[0]?.id);
    if (!event) throw new Error('no event of the certificate step');
    return event;
  };

  beforeAll(async () => {
    clock.set(T0);
    f = await createFixture({ clock });
    server = await start(name, f.service);
    vendorId = (await api('/entities', { name: 'Vendor', module_ids: [], source: 'seller', recipient: null })).body.id;
    const checker = (
      await api('/entities', {
        name: 'Consent check',
        module_ids: [CERTIFICATE_CLAIM_MODULE_ID],
        source: null,
        recipient: 'buyer',
      })
    ).body.id;
    const created = await api('/flows', {
      name: 'Certified',
      sources: [{ entity_id: vendorId }],
      steps: [{ type: 'recipient', entity_id: checker, module_id: CERTIFICATE_CLAIM_MODULE_ID }],
    });
    expect(created.status, created.text).toBe(201);
    flowId = created.body.id;
    steps = created.body.steps;
  });
  afterAll(async () => server?.close());

  it('skips a lead without a certificate with reason "missing certificate"', async () => {
    for (const lead of [{ first_name: 'A' }, { first_name: 'B', trustedform_cert_url: '' }]) {
      const event = await submit(lead);
      expect(event).toMatchObject({
        type: 'recipient',
        outcome: 'skip',
        reason: 'missing certificate',
        module_id: CERTIFICATE_CLAIM_MODULE_ID,
      });
      // What the missing-tf-cert alert counts.
      expect(rejectionCategory(event)).toBe('missing-certificate');
    }
  });

  it('fails a lead with an unknown, expired or malformed certificate', async () => {
    const unknown = await submit({ trustedform_cert_url: `https://cert.trustedform.com/${UNKNOWN_ID}` });
    expect(unknown).toMatchObject({ outcome: 'failure', reason: 'unknown certificate' });
    // What the tf-failures alert counts.
    expect(rejectionCategory(unknown)).toBe('certificate-failure');
    expect(await submit({ trustedform_cert_url: 'not a url' })).toMatchObject({
      outcome: 'failure',
      reason: 'malformed certificate URL',
    });
    const old = (await f.service.certificates.record(VISIT))._unsafeUnwrap();
    clock.advance(73 * HOUR);
    try {
      expect(await submit({ trustedform_cert_url: `https://leads.example.com/certificates/${old.id}` })).toMatchObject({
        outcome: 'failure',
        reason: 'expired certificate',
      });
    } finally {
      clock.advance(-73 * HOUR);
    }
  });

  it('claims a live certificate, keeping it past the unclaimed lifetime', async () => {
    const cert = (await f.service.certificates.record(VISIT))._unsafeUnwrap();
    const event = await submit({ trustedform_cert_url: `https://leads.example.com/certificates/${cert.id}` });
    expect(event).toMatchObject({
      outcome: 'success',
      appended: { certificate: { id: cert.id, created_at: cert.created_at } },
    });
    const stored = (await f.service.storage.certificates.get(cert.id))._unsafeUnwrap();
    expect(stored?.claims).toEqual([{ at: new Date(T0).toISOString(), event_id: event.id, lead_id: event.lead_id }]);
    clock.advance(100 * HOUR);
    try {
      const res = await call(`${server.base}/certificates`, { path: `/${cert.id}/ping`, key: f.keys.demo });
      expect(res.status).toBe(200);
      expect(res.body.age).toBe(100 * 3600);
    } finally {
      clock.advance(-100 * HOUR);
    }
  });
});
