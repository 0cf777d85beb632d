import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildOrderInSlices, extendOrder, type SortOrder } from './sort-order';

/** The order one sort of every document gives, ties by document number: what the built and extended orders equal. */
function fullOrder(count: number, key: (n: number) => string): SortOrder {
  const valued = Array.from({ length: count }, (_, n) => n).filter((n) => key(n) !== '');
  valued.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : a - b));
  const rank = new Uint32Array(count).fill(0xffffffff);
  valued.forEach((n, i) => {
    rank[n] = i;
  });
  return { sorted: Uint32Array.from(valued), rank, built: count, marks: new Uint8Array(count) };
}

describe('extendOrder', () => {
  it('#22 gives the order a full build gives, whatever was indexed and forgotten since the prior order', () => {
    // Keys from a small alphabet so ties (ordered by document number) are common; '' is "no value or forgotten".
    const key = fc.constantFrom('', 'a', 'ab', 'b', 'ba', 'c');
    fc.assert(
      fc.property(
        fc.array(key, { maxLength: 200 }),
        fc.array(key, { maxLength: 200 }),
        fc.array(fc.nat(399), { maxLength: 40 }),
        (first, later, forgotten) => {
          const keys = [...first, ...later];
          const prior = fullOrder(first.length, (n) => keys[n] as string);
          for (const n of forgotten) if (n < keys.length) keys[n] = '';
          const of = (n: number) => keys[n] as string;
          const extended = extendOrder(prior, keys.length, of);
          const full = fullOrder(keys.length, of);
          expect([...extended.sorted]).toEqual([...full.sorted]);
          expect([...extended.rank]).toEqual([...full.rank]);
          expect(extended.built).toBe(keys.length);
          expect(extended.marks).toHaveLength(keys.length);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('#22 extends an order of 200,000 documents by 2,048 in a fraction of the time a full build takes', () => {
    const keys = Array.from({ length: 202_048 }, (_, i) => `name${(i * 7919) % 100_003}`);
    const of = (n: number) => keys[n] as string;
    const prior = fullOrder(200_000, of);
    const fastest = (work: () => void) => {
      let best = Number.POSITIVE_INFINITY;
      for (let round = 0; round < 5; round++) {
        const started = performance.now();
        work();
        best = Math.min(best, performance.now() - started);
      }
      return best;
    };
    const extension = fastest(() => extendOrder(prior, keys.length, of));
    const full = fastest(() => fullOrder(keys.length, of));
    expect(extension).toBeLessThan(full / 4);
  });
});

describe('buildOrderInSlices', () => {
  // Pauses at every chance it takes, so a run that resumed in the wrong place would show.
  const always = { due: () => true, pause: () => Promise.resolve() };

  it.each([0, 1, 4095, 4096, 4097, 12_289, 40_000])(
    '#22 gives the order one full sort gives, over %i documents, pausing wherever it may',
    async (count) => {
      let seed = count + 1;
      const rand = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
      // Few distinct keys and many without one: most comparisons are ties, ordered by document number.
      const keys = Array.from({ length: count }, () => ['', 'a', 'ab', 'b', 'ba', 'c', 'd'][Math.floor(rand() * 7)]);
      const of = (n: number) => keys[n] as string;
      const sliced = await buildOrderInSlices(count, of, always);
      const whole = fullOrder(count, of);
      expect([...sliced.sorted]).toEqual([...whole.sorted]);
      expect([...sliced.rank]).toEqual([...whole.rank]);
      expect(sliced.built).toBe(count);
    },
  );
});
