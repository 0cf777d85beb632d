import { errAsync, okAsync } from 'neverthrow';
import type { CloudLocation, CloudService, CloudStorageDriver, CloudStorageError } from '../ports/cloud-storage';

/** A cloud storage driver over a Map, for core's unit tests; `failure` makes every call fail. */
export function fakeDriver<S extends CloudService>(service: S) {
  const objects = new Map<string, { body: string; contentType: string | undefined }>();
  const writes: string[] = [];
  const state: { failure: CloudStorageError | undefined; validateFailure: CloudStorageError | undefined } = {
    failure: undefined,
    validateFailure: undefined,
  };
  const bucketOf = (l: CloudLocation): string => (l.service === 'aws' ? l.bucket : l.container);
  const driver: CloudStorageDriver<S> = {
    service,
    capabilities: { presignedUrls: false, conditionalWrites: true },
    validate: () => {
      const f = state.validateFailure ?? state.failure;
      return f ? errAsync(f) : okAsync(undefined);
    },
    putObject: (location, key, body, options) => {
      if (state.failure) return errAsync(state.failure);
      const id = `${bucketOf(location)}/${key}`;
      if (options?.ifAbsent && objects.has(id)) return okAsync({ written: false });
      objects.set(id, { body: String(body), contentType: options?.contentType });
      writes.push(id);
      return okAsync({ written: true });
    },
    putObjects: (location, items, options) =>
      okAsync(
        items.map((item) => {
          if (state.failure) return { key: item.key, ok: false as const, error: state.failure };
          const id = `${bucketOf(location)}/${item.key}`;
          if (options?.ifAbsent && objects.has(id)) return { key: item.key, ok: true as const, written: false };
          objects.set(id, { body: String(item.body), contentType: item.contentType });
          writes.push(id);
          return { key: item.key, ok: true as const, written: true };
        }),
      ),
  };
  return { driver, objects, writes, state };
}

export const failure = (type: CloudStorageError['type'], message = 'boom'): CloudStorageError => ({
  type,
  message: `[leadroute] [fake] ${message}`,
  cause: new Error(message),
});
