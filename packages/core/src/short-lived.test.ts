import { describe, expect, it } from 'vitest';
import { shortLived } from './short-lived';

function setUp(fail = () => false) {
  let now = 0;
  const reads: string[] = [];
  const cache = shortLived<string>({
    clock: { now: () => now },
    ttlMs: 5_000,
    max: 3,
    read: async (key) => {
      reads.push(key);
      return fail() ? { value: '', kept: false } : { value: `${key}@${now}`, kept: true };
    },
  });
  return { cache, reads, tick: (ms: number) => void (now += ms) };
}

describe('shortLived', () => {
  it('reads a key once within its time to live, concurrent callers sharing the read, and again after', async () => {
    const { cache, reads, tick } = setUp();
    expect(await Promise.all([cache.get('a'), cache.get('a')])).toEqual(['a@0', 'a@0']);
    tick(4_999);
    expect(await cache.get('a')).toBe('a@0');
    tick(1);
    expect(await cache.get('a')).toBe('a@5000');
    expect(reads).toEqual(['a', 'a']);
  });

  it('reads again after forget, and does not keep a failed read', async () => {
    let failing = true;
    const { cache, reads } = setUp(() => failing);
    expect(await cache.get('a')).toBe('');
    failing = false;
    expect(await cache.get('a')).toBe('a@0');
    cache.forget('a');
    expect(await cache.get('a')).toBe('a@0');
    expect(reads).toEqual(['a', 'a', 'a']);
  });

  it('keeps at most max keys', async () => {
    const { cache, reads } = setUp();
    for (const key of ['a', 'b', 'c', 'd']) await cache.get(key);
    await cache.get('a');
    expect(reads).toEqual(['a', 'b', 'c', 'd', 'a']);
  });
});
