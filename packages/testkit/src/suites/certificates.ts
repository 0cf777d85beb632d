import { newCertificateId, newPingToken } from '@leadroute/core';
import { expect } from 'vitest';
import { freshId } from '../fixtures';
import type { Suite } from '../harness';
import { aCertificate } from '../records';

/** CertificateStore: consent certificates by ID and by ping token, with claims. */
export const certificateStoreSuite: Suite = {
  name: 'CertificateStore',
  cases: [
    {
      name: 'stores a certificate and reads it back exactly, by ID and by ping token',
      async run({ storage }) {
        const c = aCertificate();
        expect((await storage.certificates.insert(c)).isOk()).toBe(true);
        expect((await storage.certificates.get(c.id))._unsafeUnwrap()).toEqual(c);
        expect((await storage.certificates.findByPingToken(c.ping_token))._unsafeUnwrap()).toEqual(c);
      },
    },
    {
      name: 'answers undefined for an unknown ID or token',
      async run({ storage }) {
        (await storage.certificates.insert(aCertificate()))._unsafeUnwrap();
        expect((await storage.certificates.get(newCertificateId()))._unsafeUnwrap()).toBeUndefined();
        expect((await storage.certificates.findByPingToken(newPingToken()))._unsafeUnwrap()).toBeUndefined();
      },
    },
    {
      name: 'refuses a taken ID or ping token with Conflict',
      async run({ storage }) {
        const c = aCertificate();
        (await storage.certificates.insert(c))._unsafeUnwrap();
        expect((await storage.certificates.insert(aCertificate({ id: c.id })))._unsafeUnwrapErr().type).toBe(
          'Conflict',
        );
        expect(
          (await storage.certificates.insert(aCertificate({ ping_token: c.ping_token })))._unsafeUnwrapErr().type,
        ).toBe('Conflict');
      },
    },
    {
      name: 'claim appends claims in order and only ever extends expires_at',
      async run({ storage }) {
        const c = aCertificate();
        (await storage.certificates.insert(c))._unsafeUnwrap();
        const first = { at: '2026-01-16T00:00:00.000Z', event_id: freshId(), lead_id: freshId() };
        const second = { at: '2026-01-17T00:00:00.000Z', event_id: freshId(), lead_id: freshId() };
        const claimed = (await storage.certificates.claim(c.id, first, '2026-04-16T00:00:00.000Z'))._unsafeUnwrap();
        expect(claimed).toEqual({ ...c, claims: [first], expires_at: '2026-04-16T00:00:00.000Z' });
        // An earlier expiry never shortens the certificate's life.
        (await storage.certificates.claim(c.id, second, '2026-01-17T00:00:00.000Z'))._unsafeUnwrap();
        expect((await storage.certificates.get(c.id))._unsafeUnwrap()).toEqual({
          ...c,
          claims: [first, second],
          expires_at: '2026-04-16T00:00:00.000Z',
        });
        expect((await storage.certificates.claim(newCertificateId(), first, first.at))._unsafeUnwrap()).toBeUndefined();
      },
    },
    {
      name: 'hands out copies: changing a returned certificate changes nothing stored',
      async run({ storage }) {
        const c = aCertificate();
        (await storage.certificates.insert(c))._unsafeUnwrap();
        const got = (await storage.certificates.get(c.id))._unsafeUnwrap() as unknown as {
          client: { geo: { subdivisions: string[] } };
        };
        got.client.geo.subdivisions.push('CA');
        expect((await storage.certificates.get(c.id))._unsafeUnwrap()).toEqual(c);
      },
    },
  ],
};
