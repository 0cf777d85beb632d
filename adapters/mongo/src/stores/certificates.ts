import type { CertificateStore } from '@leadroute/core';
import type { MongoCollections } from '../collections';
import { toDate } from '../documents';
import { attempt } from '../errors';
import { certificateById, certificateByPingToken, claimCertificateUpdate } from '../queries';
import { certificateDocument, toCertificate } from '../records-work';

/**
 * Consent certificates by `_id`; `certificates_ping_token_unique` makes a taken ping
 * token (like a taken ID) a Conflict. A claim is one update `$push`ing the claim and
 * `$max`ing the expiry, so concurrent claims all land and the expiry never moves back.
 */
export function certificateStore(c: Pick<MongoCollections, 'certificates'>): CertificateStore {
  return {
    insert: (certificate) =>
      attempt('insert certificate', () => c.certificates.insertOne(certificateDocument(certificate))).map(
        () => undefined,
      ),
    get: (id) =>
      attempt('get certificate', async () => {
        const doc = await c.certificates.findOne(certificateById(id));
        return doc ? toCertificate(doc) : undefined;
      }),
    findByPingToken: (token) =>
      attempt('find certificate by ping token', async () => {
        const doc = await c.certificates.findOne(certificateByPingToken(token));
        return doc ? toCertificate(doc) : undefined;
      }),
    claim: (id, claim, expiresAt) =>
      attempt('claim certificate', async () => {
        const doc = await c.certificates.findOneAndUpdate(
          certificateById(id),
          claimCertificateUpdate(claim, toDate(expiresAt)),
          { returnDocument: 'after' },
        );
        return doc ? toCertificate(doc) : undefined;
      }),
  };
}
