import { type OpenRoute } from '@leadroute/core';
import { ok } from 'neverthrow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../support/call';
import { createFixture, type Fixture } from '../support/fixture';
import { BINDINGS, type Binding, startBinding } from '../support/servers';

// Issue #18: one request must never stall the server, and the edges of HTTP (bodies, charsets,
// hang-ups, oversized uploads, clients that never read) end as the spec says or quietly.

/** Echoes the parsed body: what the handler made of the bytes, through a real binding. */
const echo: OpenRoute = { method: 'POST', path: '/echo', auth: 'none', readsBody: true, summary: 'echo', handle: async (c) => ok({ status: 200, json: c.body ?? null }) };
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const EVENT = 'e'.repeat(24);

describe.each(BINDINGS)('bodies through %s', (name) => {
  let binding: Binding;
  let f: Fixture;
  beforeAll(async () => {
    f = await createFixture();
    binding = await startBinding(name, f.service, { routes: [echo] });
  });
  afterAll(() => binding.close());

  it('#18.5 answers 90 KB and 180 KB repeated-key form bodies to POST /feedback quickly, and an unrelated request meanwhile', async () => {
    for (const repeats of [30_000, 60_000]) {
      const raw = `type=conversion&${'a=&'.repeat(repeats)}`;
      const started = performance.now();
      const [feedback, other] = await Promise.all([
        call(binding.url, { path: `/feedback?event_id=${EVENT}`, raw, headers: FORM }),
        call(binding.url, { path: '/openapi.json' }).then((r) => ({ ...r, ms: performance.now() - started })),
      ]);
      // The body parsed (no 400, no 413): the unknown event ID is what refuses it.
      expect(feedback.status).not.toBe(400);
      expect(feedback.status).not.toBe(413);
      expect(other.status).toBe(200);
      // Quadratic parsing took 9 to 63 s here; generous bounds for a busy shared machine.
      expect(performance.now() - started).toBeLessThan(2_000);
      expect(other.ms).toBeLessThan(2_000);
    }
  });

  it('#18.5 keeps the repeats of one key, in order, as one array', async () => {
    const r = await call(binding.url, { path: '/echo', raw: `k=1&${'a=x&'.repeat(5_000)}a=last&k=2`, headers: FORM });
    expect(r.status).toBe(200);
    expect(r.body.k).toEqual(['1', '2']);
    expect(r.body.a).toHaveLength(5_001);
    expect(r.body.a.at(-1)).toBe('last');
  });

  it('#18.5 refuses a form body with more fields than the limit with 400', async () => {
    const r = await call(binding.url, { path: '/echo', raw: 'a=&'.repeat(100_001), headers: FORM });
    expect(r.status).toBe(400);
    expect(r.text).toMatch(/more than 100000 fields/);
    const feedback = await call(binding.url, { path: `/feedback?event_id=${EVENT}`, raw: `type=conversion&${'a=&'.repeat(100_001)}`, headers: FORM });
    expect(feedback.status).toBe(400);
  });

  it('#18.15 reads a Latin-1 form body in its declared charset (raw bytes and percent-escapes), so é survives', async () => {
    const bytes = Buffer.from('reason=caf\u00e9&note=na%EFve+x&type=conversion', 'latin1');
    for (const charset of ['iso-8859-1', 'latin1', 'windows-1252']) {
      const r = await call(binding.url, { path: '/echo', raw: bytes, headers: { 'content-type': `application/x-www-form-urlencoded; charset=${charset}` } });
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ reason: 'caf\u00e9', note: 'na\u00efve x', type: 'conversion' });
    }
    // The feedback route no longer refuses it as unreadable (the unknown event is what answers).
    const feedback = await call(binding.url, { path: `/feedback?event_id=${EVENT}`, raw: bytes, headers: { 'content-type': 'application/x-www-form-urlencoded; charset=ISO-8859-1' } });
    expect(feedback.status).not.toBe(400);
  });

  it('#18.15 reads JSON in UTF-16LE and keeps UTF-8 the default (with its percent-escapes as UTF-8)', async () => {
    const utf16 = Buffer.from(JSON.stringify({ reason: 'caf\u00e9' }), 'utf16le');
    const r = await call(binding.url, { path: '/echo', raw: utf16, headers: { 'content-type': 'application/json; charset=utf-16le' } });
    expect(r.body).toEqual({ reason: 'caf\u00e9' });
    const utf8 = await call(binding.url, { path: '/echo', raw: 'a=caf%C3%A9&b=\u00e9', headers: FORM });
    expect(utf8.body).toEqual({ a: 'caf\u00e9', b: '\u00e9' });
    // Latin-1 bytes sent as UTF-8 are still refused, not silently replaced.
    const wrong = await call(binding.url, { path: '/echo', raw: Buffer.from('a=caf\u00e9', 'latin1'), headers: FORM });
    expect(wrong.status).toBe(400);
    expect(wrong.text).toMatch(/not valid utf-8/);
  });

  it('#18.15 answers 415 with a clear message for a charset nobody can decode', async () => {
    const r = await call(binding.url, { path: '/echo', raw: 'a=1', headers: { 'content-type': 'application/x-www-form-urlencoded; charset=x-klingon' } });
    expect(r.status).toBe(415);
    expect(r.body.detail).toMatch(/Charset x-klingon is not supported/);
    const feedback = await call(binding.url, { path: `/feedback?event_id=${EVENT}`, raw: 'type=return', headers: { 'content-type': 'application/x-www-form-urlencoded; charset=x-klingon' } });
    expect(feedback.status).toBe(415);
  });
});
