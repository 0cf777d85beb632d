import { describe, expect, it } from 'vitest';
import { bitsOf, countMembers, hasBit, keepCommon, keepMarked, union, withBit } from './postings';

// Each helper has a merge path and a binary-search path for lists of very different lengths; all must agree with Sets.
const every = (step: number, size: number, offset = 0) => Array.from({ length: size }, (_, i) => offset + i * step);

describe('posting lists', () => {
  const cases = [
    ['of a size', every(3, 500), every(2, 700)],
    ['one much shorter', every(97, 20, 5), every(1, 5000)],
    ['one much longer', every(1, 5000), every(97, 20, 5)],
    ['disjoint', every(2, 100), every(2, 100, 1)],
    ['one empty', [], every(1, 10)],
  ] as const;

  it.each(cases)('intersecting in place, by bitset and counting members agree with a Set when %s', (_name, a, b) => {
    const inB = new Set(b);
    const want = a.filter((n) => inB.has(n));
    const buf = Uint32Array.from(a);
    expect([...buf.subarray(0, keepCommon(buf, a.length, b))]).toEqual(want);
    const marked = Uint32Array.from(a);
    expect([...marked.subarray(0, keepMarked(marked, a.length, bitsOf(b)))]).toEqual(want);
    const counts = new Uint16Array(a.length);
    countMembers(a, b, counts);
    countMembers(a, b, counts);
    expect([...counts]).toEqual(a.map((n) => (inB.has(n) ? 2 : 0)));
  });

  it('a bitset grows to hold any number and answers no past its end', () => {
    let bits = bitsOf([3]);
    for (const n of [0, 31, 32, 1000, 100_000]) bits = withBit(bits, n);
    expect([0, 3, 31, 32, 1000, 100_000].every((n) => hasBit(bits, n))).toBe(true);
    expect([1, 33, 999, 99_999, 1_000_000].some((n) => hasBit(bits, n))).toBe(false);
  });

  it('union lists each document once, ascending', () => {
    expect(Array.from(union([[1, 4, 9], [2, 4, 10], [9]]))).toEqual([1, 2, 4, 9, 10]);
    expect(Array.from(union([[3, 5]]))).toEqual([3, 5]);
    expect(Array.from(union([]))).toEqual([]);
  });
});
