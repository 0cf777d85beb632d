import { err, errAsync, ok, okAsync, type ResultAsync } from 'neverthrow';
import { describe, expect, it } from 'vitest';
import { mapAsync, orElseAsync } from './results';

const settled = async <T, E>(r: ResultAsync<T, E>) => {
  const result = await r;
  return result.isOk() ? { ok: result.value } : { err: result.error };
};

describe('mapAsync and orElseAsync (#22)', () => {
  it('map as neverthrow maps: an Ok through f, an Err untouched and f never called', async () => {
    const double = (n: number) => n * 2;
    expect(await settled(mapAsync(okAsync(21), double))).toEqual(await settled(okAsync(21).map(double)));
    let called = false;
    const failed = mapAsync(errAsync<number, string>('no'), (n) => {
      called = true;
      return n;
    });
    expect(await settled(failed)).toEqual({ err: 'no' });
    expect(called).toBe(false);
  });

  it('orElse as neverthrow does: an Ok untouched, an Err to what f gives (a Result or a ResultAsync)', async () => {
    expect(await settled(orElseAsync(okAsync<number, string>(1), () => ok(2)))).toEqual({ ok: 1 });
    expect(await settled(orElseAsync(errAsync<number, string>('a'), (e) => ok(e.length)))).toEqual({ ok: 1 });
    expect(await settled(orElseAsync(errAsync<number, string>('a'), (e) => err(`${e}!`)))).toEqual({ err: 'a!' });
    expect(await settled(orElseAsync(errAsync<number, string>('a'), (e) => errAsync(`${e}?`)))).toEqual(
      await settled(errAsync<number, string>('a').orElse((e) => errAsync(`${e}?`))),
    );
    expect(await settled(orElseAsync(errAsync<number, string>('a'), () => okAsync(7)))).toEqual({ ok: 7 });
  });
});
