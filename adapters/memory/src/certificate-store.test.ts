import { certificateStoreSuite, failingCases, type StorageHarness } from '@leadroute/testkit/suites';
import { okAsync } from 'neverthrow';
import { describe, expect, it } from 'vitest';
import { memoryStorage } from './index';

const harness = async (storage = memoryStorage()): Promise<StorageHarness> => ({
  storage,
  raw: {
    account: async () => undefined,
    entity: async () => undefined,
    alias: async () => undefined,
    flow: async () => undefined,
    lead: async () => undefined,
    event: async () => undefined,
  },
});

describe('the certificate store suite can fail', () => {
  it('flags a store that shares objects, shortens lives on claim and ignores ping tokens', async () => {
    const failed = await failingCases(async () => {
      const broken = memoryStorage();
      const { tables } = broken;
      const certificates = {
        ...broken.certificates,
        get: (id: string) => okAsync(tables.certificates.get(id)),
        findByPingToken: () => okAsync(undefined),
        claim: (id: string, claim: { at: string; event_id: string; lead_id: string }, expiresAt: string) => {
          const c = tables.certificates.get(id);
          if (!c) return okAsync(undefined);
          const updated = { ...c, claims: [...c.claims, claim], expires_at: expiresAt };
          tables.certificates.set(id, updated);
          return okAsync(updated);
        },
      };
      return harness({ ...broken, certificates } as typeof broken);
    }, [certificateStoreSuite]);
    expect(failed).toEqual([
      'CertificateStore: stores a certificate and reads it back exactly, by ID and by ping token',
      'CertificateStore: claim appends claims in order and only ever extends expires_at',
      'CertificateStore: hands out copies: changing a returned certificate changes nothing stored',
    ]);
  });
});
