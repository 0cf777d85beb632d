import type { OutboundModule } from '../ports/integrations';
import type { CertificatesApi } from './service';

/** The ID of the built-in consent-certificate step module. */
export const CERTIFICATE_CLAIM_MODULE_ID = 'platform-certificate.outbound.claim';

/**
 * The consent-certificate step: claims the certificate named by the lead's
 * `trustedform_cert_url`. No certificate on the lead is outcome `skip` with reason
 * `missing certificate` (what the missing-tf-cert alert counts); a malformed,
 * unknown or expired one is outcome `failure` (what tf-failures counts). A claimed
 * certificate appends `certificate: { id, created_at, expires_at }` for later steps.
 */
export function certificateClaimModule(certificates: Pick<CertificatesApi, 'claim'>): OutboundModule {
  return {
    id: CERTIFICATE_CLAIM_MODULE_ID,
    package_version: '1.0.0',
    validateConfig: () => [],
    async deliver(request) {
      const result = await certificates.claim(request.lead.trustedform_cert_url, {
        event_id: request.event_id,
        lead_id: request.lead_id,
      });
      if (result.isErr()) return { outcome: 'error', reason: `The certificate store failed: ${result.error.message}` };
      const claim = result.value;
      if (claim.status === 'missing') return { outcome: 'skip', reason: claim.reason };
      if (claim.status !== 'claimed') return { outcome: 'failure', reason: claim.reason };
      const { id, created_at, expires_at } = claim.certificate;
      return { outcome: 'success', appended: { certificate: { id, created_at, expires_at } } };
    },
  };
}
