import { describe, expect, it } from 'vitest';
import { signLink, verifyLink } from './links';

const SECRET = new TextEncoder().encode('secret');
const ID = 'abcdefabcdefabcdefabcdef';
const NOW = Date.UTC(2026, 2, 10, 12);

describe('signed download links', () => {
  it('verify for their export for exactly 10 seconds', () => {
    const link = signLink(SECRET, ID, NOW, 10);
    expect(link.expires).toBe(NOW + 10_000);
    const check = (at: number, id = ID, expires = String(link.expires), signature = link.signature) =>
      verifyLink(SECRET, id, expires, signature, at);
    expect(check(NOW)).toBeUndefined();
    expect(check(NOW + 9_999)).toBeUndefined();
    expect(check(NOW + 10_000)).toMatch(/expired/);
    expect(check(NOW, ID.toUpperCase())).toBeUndefined();
    expect(check(NOW, 'bbbbbbbbbbbbbbbbbbbbbbbb')).toMatch(/signature/);
    expect(check(NOW, ID, String(link.expires + 1))).toMatch(/signature/);
    expect(verifyLink(new TextEncoder().encode('other'), ID, String(link.expires), link.signature, NOW)).toMatch(
      /signature/,
    );
  });

  it('refuse malformed parameters', () => {
    const link = signLink(SECRET, ID, NOW, 10);
    for (const [expires, signature] of [
      [null, link.signature],
      [String(link.expires), null],
      ['soon', link.signature],
      [String(link.expires), 'short'],
      [String(link.expires), `${link.signature}=`],
    ] as const)
      expect(verifyLink(SECRET, ID, expires, signature, NOW)).toMatch(/malformed/);
  });
});
