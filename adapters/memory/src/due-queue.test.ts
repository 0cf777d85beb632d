import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DueQueue } from './due-queue';

describe('DueQueue', () => {
  it('#22 hands entries out earliest due first, the earlier enqueued first among equals, however pushes and pops mix', () => {
    const op = fc.oneof(
      { arbitrary: fc.record({ push: fc.integer({ min: 0, max: 50 }) }), weight: 3 },
      { arbitrary: fc.constant({ pop: true as const }), weight: 2 },
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 400 }), (ops) => {
        const queue = new DueQueue<{ dueAt: number; seq: number }>();
        const reference: { dueAt: number; seq: number }[] = [];
        let seq = 0;
        for (const o of ops) {
          if ('push' in o) {
            const entry = { dueAt: o.push, seq: seq++ };
            queue.push(entry);
            reference.push(entry);
            reference.sort((a, b) => a.dueAt - b.dueAt || a.seq - b.seq);
          } else expect(queue.pop()).toBe(reference.shift());
          expect(queue.size).toBe(reference.length);
          expect(queue.peek()).toBe(reference[0]);
        }
      }),
      { numRuns: 200 },
    );
  });
});
