import type { AliasStore } from '@leadroute/core';
import type { MongoCollections } from '../collections';
import { aliasDocument, toAlias } from '../documents';
import { attempt } from '../errors';
import { aliasById, aliasesByAccount } from '../queries';

/**
 * Entity aliases; `entity_aliases_account_entity_unique` turns a second alias of one entity in one account into a
 * Conflict.
 */
export function aliasStore(c: Pick<MongoCollections, 'aliases'>): AliasStore {
  return {
    insert: (alias) =>
      attempt('insert entity alias', () => c.aliases.insertOne(aliasDocument(alias))).map(() => undefined),
    get: (id) =>
      attempt('get entity alias', async () => {
        const doc = await c.aliases.findOne(aliasById(id));
        return doc ? toAlias(doc) : undefined;
      }),
    listByAccount: (accountId) =>
      attempt('list entity aliases', async () => {
        const { filter, sort } = aliasesByAccount(accountId);
        return (await c.aliases.find(filter).sort(sort).toArray()).map(toAlias);
      }),
    // A replacement that would give the account a second alias of the entity breaks the unique index: Conflict.
    update: (alias) =>
      attempt('update entity alias', () => c.aliases.replaceOne(aliasById(alias.id), aliasDocument(alias))).map(
        () => undefined,
      ),
    remove: (id) =>
      attempt('remove entity alias', () => c.aliases.deleteOne(aliasById(id))).map(
        ({ deletedCount }) => deletedCount > 0,
      ),
  };
}
