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

/** The header a source sends its posting secret in (the alternative is the HTTP Basic password). */
export const POSTING_SECRET_HEADER = 'x-posting-secret';

/**
 * The posting secret an intake request presents: the `X-Posting-Secret` header, else the
 * password of HTTP Basic credentials under any user name (what a vendor's posting form
 * usually offers as "username/password").
 */
export function presentedPostingSecret(request: HttpRequest): string | undefined {
  const given = header(request, POSTING_SECRET_HEADER);
  if (given !== undefined) return given.trim() || undefined;
  const value = header(request, 'authorization');
  if (value?.slice(0, 6).toLowerCase() !== 'basic ') return undefined;
  const decoded = Buffer.from(value.slice(6).trim(), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? undefined : decoded.slice(colon + 1) || undefined;
}
