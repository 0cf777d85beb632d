import { randomBytes } from 'node:crypto';
import { err, ok, type Result } from 'neverthrow';

import { CertificateIdParam, PingTokenParam, paramCheck } from '../schemas/params';

const certificateId = paramCheck(CertificateIdParam);
const pingToken = paramCheck(PingTokenParam);

/** Whether `value` is a certificate ID: 40 hexadecimal characters, as consent-certificate services issue. */
export function isCertificateId(value: unknown): value is string {
  return certificateId(value);
}

/** Whether `value` can be the token of a vendor-supplied ping URL. */
export function isPingToken(value: unknown): value is string {
  return pingToken(value);
}

/** A new certificate ID (160 random bits, lowercase hex). */
export function newCertificateId(): string {
  return randomBytes(20).toString('hex');
}

/** A new ping token (192 random bits, base64url): unguessable, since it alone reaches the ping data. */
export function newPingToken(): string {
  return randomBytes(24).toString('base64url');
}

/**
 * The certificate ID of a certificate URL (`https://cert.example.com/<40 hex>`, or
 * with a path before the ID, as when the certificate handler is mounted under
 * `/certificates`): its last path segment, lower-cased. A trailing `/ping` is
 * allowed, so a ping URL built by appending it reads the same.
 */
export function certificateIdOfUrl(raw: unknown): Result<string, string> {
  if (typeof raw !== 'string' || raw.trim() === '') return err('no certificate URL');
  if (raw.length > 2048 || !URL.canParse(raw.trim())) return err('malformed certificate URL');
  const url = new URL(raw.trim());
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return err('malformed certificate URL');
  const segments = url.pathname.split('/').filter((s) => s !== '');
  if (segments.at(-1) === 'ping') segments.pop();
  const id = segments.at(-1);
  return isCertificateId(id) ? ok(id.toLowerCase()) : err('malformed certificate URL');
}
