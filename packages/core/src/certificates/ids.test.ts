import { describe, expect, it } from 'vitest';
import { certificateIdOfUrl, isCertificateId, isPingToken, newCertificateId, newPingToken } from './ids';

const ID = '0123456789abcdef0123456789abcdef01234567';

describe('certificate IDs and URLs', () => {
  it('makes IDs and ping tokens that pass their own checks and differ', () => {
    const ids = new Set(Array.from({ length: 50 }, newCertificateId));
    expect(ids.size).toBe(50);
    for (const id of ids) expect(isCertificateId(id)).toBe(true);
    expect(isPingToken(newPingToken())).toBe(true);
    expect(newPingToken()).not.toBe(newPingToken());
  });

  it.each([
    [`https://cert.trustedform.com/${ID}`, ID],
    [`https://leads.example.com/certificates/${ID.toUpperCase()}`, ID],
    [`http://127.0.0.1:3000/certificates/${ID}/ping`, ID],
    [`https://leads.example.com/certificates/${ID}/`, ID],
  ])('reads the certificate ID of %s', (url, id) => {
    expect(certificateIdOfUrl(url)._unsafeUnwrap()).toBe(id);
  });

  it.each([
    ['', 'no certificate URL'],
    [42, 'no certificate URL'],
    ['not a url', 'malformed certificate URL'],
    [`ftp://cert.example.com/${ID}`, 'malformed certificate URL'],
    [`https://cert.example.com/${ID}x`, 'malformed certificate URL'],
    ['https://cert.example.com/', 'malformed certificate URL'],
    [`https://cert.example.com/${ID}/claim`, 'malformed certificate URL'],
  ])('refuses %j: %s', (url, reason) => {
    expect(certificateIdOfUrl(url)._unsafeUnwrapErr()).toBe(reason);
  });
});
