import type { ParsedValue } from '../../domain/rules';
import { parsed, rawText } from './parsed';

// The WHATWG HTML "valid e-mail address" production: what browsers accept in
// <input type=email>, plus a required dot in the domain since leads need a real TLD.
const EMAIL =
  /^[a-z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/;

/** RFC 5321 §4.5.3.1 sizes: a local part of 64 octets, a domain of 255, and a path of 256 (so an address of 254). */
export const EMAIL_LIMITS = { localPart: 64, domain: 255, address: 254 } as const;

/**
 * Whether `text` is an e-mail address: the WHATWG shape with a letters-only TLD, within
 * the RFC 5321 sizes. The one check behind lead `email` fields, export and alert
 * recipients and account users. Sizes come first, so the pattern never runs on a huge input.
 * @example isEmailAddress('ada@example.com') // true
 */
export function isEmailAddress(text: string): boolean {
  if (text.length > EMAIL_LIMITS.address) return false;
  const at = text.lastIndexOf('@');
  if (at < 1 || at > EMAIL_LIMITS.localPart || text.length - at - 1 > EMAIL_LIMITS.domain) return false;
  const lower = text.toLowerCase();
  return EMAIL.test(lower) && /\.[a-z]{2,}$/.test(lower);
}

/** An e-mail address: normal is trimmed and lower-cased; components user, domain, host, tld. */
export function parseEmail(raw: unknown): ParsedValue {
  const normal = rawText(raw).toLowerCase();
  const at = normal.lastIndexOf('@');
  const user = at > 0 ? normal.slice(0, at) : null;
  const domain = at >= 0 ? normal.slice(at + 1) : null;
  const dot = domain ? domain.lastIndexOf('.') : -1;
  const host = domain && dot > 0 ? domain.slice(0, dot) : domain;
  const tld = domain && dot > 0 ? domain.slice(dot + 1) : null;
  const valid = isEmailAddress(normal);
  return parsed('email', raw, valid, normal, { user, domain, host, tld });
}
