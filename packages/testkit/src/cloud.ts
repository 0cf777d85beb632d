import type { CloudService, CloudStorageDriver } from '@leadroute/core';

/**
 * Wraps a cloud storage driver to count every object it really wrote, by key:
 * how a test proves that firehose delivery writes each event exactly once.
 */
export function countingDriver<S extends CloudService>(
  inner: CloudStorageDriver<S>,
): { driver: CloudStorageDriver<S>; writes: Map<string, number> } {
  const writes = new Map<string, number>();
  const add = (key: string) => writes.set(key, (writes.get(key) ?? 0) + 1);
  const driver: CloudStorageDriver<S> = {
    ...inner,
    putObject: (l, key, body, o) => inner.putObject(l, key, body, o).map((r) => (r.written && add(key), r)),
    putObjects: (l, objects, o) =>
      inner.putObjects(l, objects, o).map((rs) => {
        for (const r of rs) if (r.ok && r.written) add(r.key);
        return rs;
      }),
  };
  return { driver, writes };
}
