import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bound, sortedIds } from './sorted-ids';

describe('sortedIds', () => {
  it('#22 reads every ID it holds in ascending order, whatever order they came in and whenever it is read', () => {
    // Operations on a small alphabet of IDs so adds, removes and reads meet; more adds than the settling threshold.
    const op = fc.oneof(
      { arbitrary: fc.record({ add: fc.integer({ min: 0, max: 5000 }) }), weight: 20 },
      { arbitrary: fc.record({ remove: fc.array(fc.integer({ min: 0, max: 5000 }), { maxLength: 40 }) }), weight: 2 },
      { arbitrary: fc.constant({ read: true as const }), weight: 1 },
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 3000 }), (ops) => {
        const ids = sortedIds(64);
        const held = new Set<string>();
        const id = (n: number) => n.toString(16).padStart(24, '0');
        for (const o of ops) {
          if ('add' in o) {
            if (held.has(id(o.add))) continue;
            held.add(id(o.add));
            ids.add(id(o.add));
          } else if ('remove' in o) {
            for (const n of o.remove) held.delete(id(n));
            ids.removeAll(new Set(o.remove.map(id)));
          } else expect(ids.ascending()).toEqual([...held].sort());
        }
        expect(ids.ascending()).toEqual([...held].sort());
      }),
      { numRuns: 60 },
    );
  });

  it('#22 takes IDs of one second in random order, as a lead service makes them, and pages them in order', () => {
    const ids = sortedIds();
    const made = Array.from({ length: 5000 }, (_, i) => `6a0b1c2d${(i * 7919) % 5000}`.padEnd(24, '0'));
    for (const id of made) ids.add(id);
    const ascending = ids.ascending();
    expect(ascending).toEqual([...made].sort());
    const after = ascending[1234] as string;
    expect(ascending[bound(ascending, after, false)]).toBe(ascending[1235]);
    expect(bound(ascending, after, true)).toBe(1234);
  });
});
