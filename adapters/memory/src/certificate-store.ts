import { type CertificateStore, errors, type StoreError } from '@leadroute/core';
import { errAsync, okAsync } from 'neverthrow';
import { DONE } from './done';
import { copy, type MemoryTables } from './tables';

const conflict = (message: string) => errAsync(errors.conflict(message) as StoreError);

/** Consent certificates by ID, with an index of their ping tokens. */
export function certificateStore(t: MemoryTables): CertificateStore {
  return {
    insert: (certificate) => {
      if (t.certificates.has(certificate.id)) return conflict('certificate exists');
      if (t.certificatePingTokens.has(certificate.ping_token)) return conflict('ping token taken');
      t.certificates.set(certificate.id, copy(certificate));
      t.certificatePingTokens.set(certificate.ping_token, certificate.id);
      return DONE;
    },
    get: (id) => okAsync(copy(t.certificates.get(id))),
    findByPingToken: (token) => {
      const id = t.certificatePingTokens.get(token);
      return okAsync(id === undefined ? undefined : copy(t.certificates.get(id)));
    },
    // Single-threaded JavaScript makes the read-modify-write atomic here.
    claim: (id, claim, expiresAt) => {
      const current = t.certificates.get(id);
      if (!current) return okAsync(undefined);
      const updated = {
        ...current,
        claims: [...current.claims, claim],
        // biome-ignore lint/complexity/useMathMinMax: ISO timestamps, compared as strings.
        expires_at: expiresAt > current.expires_at ? expiresAt : current.expires_at,
      };
      t.certificates.set(id, updated);
      return okAsync(copy(updated));
    },
  };
}
