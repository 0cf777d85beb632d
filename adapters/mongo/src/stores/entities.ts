import type { EntityStore } from '@leadroute/core';
import type { MongoCollections } from '../collections';
import { entityDocument, toEntity } from '../documents';
import { attempt } from '../errors';
import { entitiesByOwner, entityById } from '../queries';

/** Entities by `_id`, listed per owner through `entities_owner_created`. Never deleted. */
export function entityStore(c: Pick<MongoCollections, 'entities'>): EntityStore {
  return {
    insert: (entity) =>
      attempt('insert entity', () => c.entities.insertOne(entityDocument(entity))).map(() => undefined),
    get: (id) =>
      attempt('get entity', async () => {
        const doc = await c.entities.findOne(entityById(id));
        return doc ? toEntity(doc) : undefined;
      }),
    listByOwner: (accountId) =>
      attempt('list entities', async () => {
        const { filter, sort } = entitiesByOwner(accountId);
        return (await c.entities.find(filter).sort(sort).toArray()).map(toEntity);
      }),
    update: (entity) =>
      attempt('update entity', () => c.entities.replaceOne(entityById(entity.id), entityDocument(entity))).map(
        () => undefined,
      ),
  };
}
