import type { StoreError } from '@leadroute/core';
import type { IndexDescription } from 'mongodb';
import type { ResultAsync } from 'neverthrow';
import { databaseOf, type MongoStorageOptions } from './collections';
import { attempt } from './errors';
import { INDEXES, type IndexSpec } from './queries';

/** An index spec as the driver's `createIndexes` takes it. */
export const indexDescription = (spec: IndexSpec): IndexDescription => ({
  key: { ...spec.key },
  name: spec.name,
  ...(spec.unique ? { unique: true } : {}),
  ...(spec.expireAfterSeconds === undefined ? {} : { expireAfterSeconds: spec.expireAfterSeconds }),
});

/**
 * Creates every index the adapter's queries and uniqueness rules need ({@link INDEXES}),
 * creating the collections as it goes. Idempotent: an index that already exists as
 * specified is left alone, so call it at start-up or once per deploy. Answers the
 * names of the indexes now in place. An index of the same name with other options
 * (an older release's) is a `StorageFailure`: drop it and run again.
 * @example
 * (await ensureIndexes({ client, dbName: 'leadroute' }))._unsafeUnwrap();
 */
export function ensureIndexes(options: MongoStorageOptions): ResultAsync<readonly string[], StoreError> {
  const db = databaseOf(options);
  const byCollection = new Map<string, IndexSpec[]>();
  for (const spec of INDEXES) byCollection.set(spec.collection, [...(byCollection.get(spec.collection) ?? []), spec]);
  return attempt('ensure indexes', async () => {
    const names: string[] = [];
    for (const [collection, specs] of byCollection) {
      names.push(...(await db.collection(collection).createIndexes(specs.map(indexDescription))));
    }
    return names;
  });
}
