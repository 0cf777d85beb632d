import { isIP } from 'node:net';
import type { ParsedValue } from '../../domain/rules';
import { parsed, rawText } from './parsed';

function toUrl(text: string): URL | null {
  return URL.canParse(text) ? new URL(text) : null;
}

/** A web address; valid for http and https. Components protocol, host, domain, path, query. */
export function parseUrl(raw: unknown): ParsedValue {
  const text = rawText(raw);
  const url = toUrl(text);
  if (!url)
    return parsed('url', raw, false, text, { protocol: null, host: null, domain: null, path: null, query: null });
  const host = url.hostname.toLowerCase();
  return parsed('url', raw, url.protocol === 'http:' || url.protocol === 'https:', url.href, {
    protocol: url.protocol.replace(/:$/, ''),
    host,
    domain: host.split('.').slice(-2).join('.'),
    path: url.pathname,
    query: url.search.replace(/^\?/, ''),
  });
}

/** An IPv4 or IPv6 address (node:net); normal is lower-cased, `version` 4 or 6. */
export function parseIp(raw: unknown): ParsedValue {
  const text = rawText(raw).toLowerCase();
  const version = isIP(text);
  return parsed('ip', raw, version !== 0, text, { version: version === 0 ? null : version });
}

const CERT_HOSTS = new Set(['cert.trustedform.com', 'cert.trustedform-dev.com']);
const CERT_PATH = /^\/([0-9a-f]{40})(?:\/.*)?$/i;

/**
 * A consent-certificate URL (TrustedForm): valid for an https certificate host with
 * a 40-hex certificate ID. Component `cert_id` is that ID, lower-cased.
 */
export function parseCertUrl(raw: unknown): ParsedValue {
  const text = rawText(raw);
  const url = toUrl(text);
  const host = url ? url.hostname.toLowerCase() : null;
  const path = url ? CERT_PATH.exec(url.pathname) : null;
  const certId = path?.[1]?.toLowerCase() ?? null;
  const valid = url !== null && url.protocol === 'https:' && host !== null && CERT_HOSTS.has(host) && certId !== null;
  const normal = valid ? `https://${host}/${certId}` : text;
  return parsed('trustedform_cert_url', raw, valid, normal, { host, cert_id: certId });
}
