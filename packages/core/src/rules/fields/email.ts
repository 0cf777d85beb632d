import type { ParsedValue } from '../types';
import { parsed, rawText } from './parsed';

// The WHATWG HTML "valid e-mail address" production: what browsers accept in
// <input type=email>, plus a required dot in the domain since leads need a real TLD.
const EMAIL =
  /^[a-z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/;

/** An e-mail address: normal is trimmed and lower-cased; components user, domain, host, tld. */
export function parseEmail(raw: unknown): ParsedValue {
  const normal = rawText(raw).toLowerCase();
  const at = normal.lastIndexOf('@');
  const user = at > 0 ? normal.slice(0, at) : null;
  const domain = at >= 0 ? normal.slice(at + 1) : null;
  const dot = domain ? domain.lastIndexOf('.') : -1;
  const host = domain && dot > 0 ? domain.slice(0, dot) : domain;
  const tld = domain && dot > 0 ? domain.slice(dot + 1) : null;
  const valid = EMAIL.test(normal) && tld !== null && /^[a-z]{2,}$/.test(tld);
  return parsed('email', raw, valid, normal, { user, domain, host, tld });
}
