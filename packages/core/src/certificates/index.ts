export { CERTIFICATE_CLAIM_MODULE_ID, certificateClaimModule } from './claim-module';
export { certificateIdOfUrl, isCertificateId, isPingToken, newCertificateId, newPingToken } from './ids';
export { type PingData, pingData } from './ping';
export {
  type CertificateOptions,
  type CertificatesApi,
  type ClaimResult,
  createCertificatesApi,
  type NewCertificate,
  type RecordedCertificate,
} from './service';
