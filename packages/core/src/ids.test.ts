import { describe, expect, it } from 'vitest';
import { idSequence, idTime, isId, newId } from './ids';

const NOW = Date.parse('2026-03-01T12:00:00.500Z');

/** Bits that differ between two hex strings of one length. */
function bitsApart(a: string, b: string): number {
  let bits = 0;
  for (let i = 0; i < a.length; i += 1) {
    let x = Number.parseInt(a[i] as string, 16) ^ Number.parseInt(b[i] as string, 16);
    for (; x > 0; x >>= 1) bits += x & 1;
  }
  return bits;
}

describe('newId', () => {
  it('#18.1 keeps the 24-hex format with 8 hex of seconds in front', () => {
    const id = newId(NOW);
    expect(isId(id)).toBe(true);
    expect(id.slice(0, 8)).toBe(Math.floor(NOW / 1000).toString(16));
    expect(idTime(id)).toBe(Date.parse('2026-03-01T12:00:00Z'));
  });

  it('#18.1 fills the other 64 bits with fresh randomness: IDs of one second share no guessable part', () => {
    const ids = Array.from({ length: 2000 }, () => newId(NOW));
    const tails = ids.map((id) => id.slice(8));
    expect(new Set(tails).size).toBe(ids.length);
    // Neighbours differ in about half of the 64 bits; a counter or a fixed per-process part would make most of them
    // equal.
    // Even the least distant pair of 1,999 neighbours differs in far more than the few low bits a counter changes.
    const apart = ids.slice(1).map((id, i) => bitsApart((ids[i] as string).slice(8), id.slice(8)));
    expect(Math.min(...apart)).toBeGreaterThanOrEqual(8);
    expect(apart.reduce((a, b) => a + b, 0) / apart.length).toBeGreaterThan(28);
    // No fixed part: every one of the 16 positions takes many values across the IDs.
    for (let position = 0; position < 16; position += 1)
      expect(new Set(tails.map((t) => t[position])).size).toBeGreaterThan(12);
    // Not a counter: the difference between neighbours is not one small step.
    const steps = ids.slice(1).map((id, i) => BigInt(`0x${id.slice(8)}`) - BigInt(`0x${(ids[i] as string).slice(8)}`));
    expect(steps.filter((d) => d > 0n && d < 1_000_000n)).toHaveLength(0);
  });
});

describe('idSequence', () => {
  it("#18.1 a lead's IDs sort in the order they were drawn, within one second and across seconds", () => {
    for (let lead = 0; lead < 500; lead += 1) {
      const sequence = idSequence();
      const ids = [
        ...Array.from({ length: 8 }, () => sequence.next(NOW)),
        sequence.next(NOW + 1000),
        sequence.next(NOW + 1000),
      ];
      expect([...ids].sort()).toEqual(ids);
      expect(ids.every((id) => isId(id))).toBe(true);
    }
  });

  it('#18.1 two sequences share nothing guessable: their first IDs are drawn over all 64 bits', () => {
    const firsts = Array.from({ length: 2000 }, () => idSequence().next(NOW).slice(8));
    expect(new Set(firsts).size).toBe(firsts.length);
    for (let position = 0; position < 16; position += 1)
      expect(new Set(firsts.map((t) => t[position])).size).toBeGreaterThan(12);
  });

  it('#18.1 a long run in one second starts over instead of running out of random bits', () => {
    const sequence = idSequence();
    const ids = Array.from({ length: 1000 }, () => sequence.next(NOW));
    expect(new Set(ids).size).toBe(ids.length);
    // Started over (an ID below one before it) rather than failed or repeated one.
    expect([...ids].sort()).not.toEqual(ids);
  });
});
