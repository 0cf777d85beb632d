import type { HttpRequest } from './types';
import { header } from './headers';

/** The fixed user name of HTTP Basic authentication; the password is the API key. */
export const BASIC_USER = 'API';

/** `WWW-Authenticate` sent with every 401. */
export const AUTHENTICATE_CHALLENGE = 'Basic realm="leadroute", charset="UTF-8"';

/**
 * The API key a request presents: HTTP Basic with user `API` (the certificate
 * service's scheme, used everywhere) or `Authorization: Bearer <key>`.
 */
export function presentedKey(request: HttpRequest): string | undefined {
  const value = header(request, 'authorization');
  if (!value) return undefined;
  const space = value.indexOf(' ');
  if (space < 0) return undefined;
  const scheme = value.slice(0, space).toLowerCase();
  const credentials = value.slice(space + 1).trim();
  if (scheme === 'bearer') return credentials || undefined;
  if (scheme !== 'basic') return undefined;
  const decoded = Buffer.from(credentials, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0 || decoded.slice(0, colon).toUpperCase() !== BASIC_USER) return undefined;
  return decoded.slice(colon + 1) || undefined;
}
