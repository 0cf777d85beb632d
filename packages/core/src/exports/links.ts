import { createHmac, timingSafeEqual } from 'node:crypto';

/** The query of a served download link. */
export interface SignedLink {
  /** Epoch milliseconds from which the link is refused. */
  readonly expires: number;
  /** base64url HMAC-SHA256 of the export ID and `expires`. */
  readonly signature: string;
}

function mac(secret: Uint8Array, exportId: string, expires: number): Buffer {
  // The ID is lower-cased so a link verifies however the path spells it.
  return createHmac('sha256', secret).update(`export-download\n${exportId.toLowerCase()}\n${expires}`).digest();
}

/** Signs a download link for `exportId` that expires `ttlSeconds` after `nowMs`. */
export function signLink(secret: Uint8Array, exportId: string, nowMs: number, ttlSeconds: number): SignedLink {
  const expires = nowMs + ttlSeconds * 1000;
  return { expires, signature: mac(secret, exportId, expires).toString('base64url') };
}

/** Why a link is refused, or undefined when it is good: checked in constant time. */
export function verifyLink(
  secret: Uint8Array,
  exportId: string,
  expires: string | null,
  signature: string | null,
  nowMs: number,
): string | undefined {
  if (expires === null || signature === null || !/^\d{1,15}$/.test(expires) || !/^[A-Za-z0-9_-]{43}$/.test(signature))
    return 'The download link is malformed.';
  const expected = mac(secret, exportId, Number(expires));
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    return 'The download link signature is not valid.';
  if (nowMs >= Number(expires)) return 'The download link has expired; request a new one from the file endpoint.';
  return undefined;
}
