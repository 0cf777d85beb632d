import type { CertificateClaim } from '@leadroute/core';
import type { Filter } from 'mongodb';
import { type CertificateDoc, claimDocument } from '../records-work';

/** The certificate with this ID (the primary index). */
export const certificateById = (id: string): Filter<CertificateDoc> => ({ _id: id });

/** The certificate with this ping token (`certificates_ping_token_unique`). */
export const certificateByPingToken = (token: string): Filter<CertificateDoc> => ({ ping_token: token });

/** Appends the claim and keeps the later expiry, in one update: concurrent claims all land. */
export const claimCertificateUpdate = (claim: CertificateClaim, expiresAt: Date) => ({
  $push: { claims: claimDocument(claim) },
  $max: { expires_at: expiresAt },
});
