import { describe, expect, it } from 'vitest';
import { clientKey, createThrottle } from './throttle';

describe('failed look-up throttle', () => {
  it('#18.3 allows 20 failures a minute per address, then asks to wait until one more fits', () => {
    const throttle = createThrottle({ failures: 20, windowMs: 60_000, maxClients: 100 });
    for (let i = 0; i < 20; i++) {
      expect(throttle.wait('a', 0)).toBe(0);
      throttle.fail('a', 0);
    }
    expect(throttle.wait('a', 0)).toBe(3);
    expect(throttle.wait('b', 0)).toBe(0);
    // The allowance refills one failure per 3 s: one more try, then a wait again.
    expect(throttle.wait('a', 3_000)).toBe(0);
    throttle.fail('a', 3_000);
    expect(throttle.wait('a', 3_000)).toBe(3);
    // After a full window of quiet the address starts afresh.
    expect(throttle.wait('a', 63_000)).toBe(0);
  });

  it('#18.3 a sustained rate of one failure per interval is never refused', () => {
    const throttle = createThrottle({ failures: 20, windowMs: 60_000, maxClients: 100 });
    for (let t = 0; t < 600_000; t += 3_000) {
      expect(throttle.wait('a', t)).toBe(0);
      throttle.fail('a', t);
    }
  });

  it('#18.3 remembers at most maxClients addresses, forgetting the least recently failed', () => {
    const throttle = createThrottle({ failures: 1, windowMs: 60_000, maxClients: 3 });
    for (const address of ['a', 'b', 'c']) throttle.fail(address, 0);
    throttle.fail('a', 0);
    throttle.fail('d', 0);
    // b was the least recently seen and is forgotten; a, c and d are still refused.
    expect(['a', 'b', 'c', 'd'].map((x) => throttle.wait(x, 0) > 0)).toEqual([true, false, true, true]);
    for (let i = 0; i < 10_000; i++) throttle.fail(`x${i}`, 0);
    expect(['c', 'd', 'x9999'].map((x) => throttle.wait(x, 0) > 0)).toEqual([false, false, true]);
  });

  it('#18.3 counts an IPv6 client by its /64 and an IPv4-mapped address as the IPv4 one', () => {
    expect(clientKey('203.0.113.9')).toBe('203.0.113.9');
    expect(clientKey('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(clientKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:0DB8:0001:0002:bbbb:cccc:dddd:eeee')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientKey('::1')).toBe('0:0:0:0::/64');
    expect(clientKey('2001:db8:1:3::1')).not.toBe(clientKey('2001:db8:1:2::1'));
    expect(clientKey('fe80::1%eth0')).toBe('fe80::1%eth0');
  });
});
