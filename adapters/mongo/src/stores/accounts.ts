import type { AccountStore } from '@leadroute/core';
import type { MongoCollections } from '../collections';
import { accountDocument, apiKeyDocument, toAccount, toApiKey } from '../documents';
import { attempt } from '../errors';
import { accountById, accountsByEmail, apiKeyByHash, apiKeysOfAccount } from '../queries';

/** Accounts by `_id`; API keys by their hash, unique through `api_keys_hash_unique`. */
export function accountStore(c: Pick<MongoCollections, 'accounts' | 'apiKeys'>): AccountStore {
  return {
    insert: (account) =>
      attempt('insert account', () => c.accounts.insertOne(accountDocument(account))).map(() => undefined),
    get: (id) =>
      attempt('get account', async () => {
        const doc = await c.accounts.findOne(accountById(id));
        return doc ? toAccount(doc) : undefined;
      }),
    findByEmail: (email) =>
      attempt('find accounts by e-mail', async () =>
        (await c.accounts.find(accountsByEmail(email)).toArray())
          .map(toAccount)
          .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)),
      ),
    update: (account) =>
      attempt(
        'update account',
        async () => (await c.accounts.replaceOne(accountById(account.id), accountDocument(account))).matchedCount > 0,
      ),
    insertKey: (key) => attempt('insert API key', () => c.apiKeys.insertOne(apiKeyDocument(key))).map(() => undefined),
    findKey: (hash) =>
      attempt('find API key', async () => {
        const doc = await c.apiKeys.findOne(apiKeyByHash(hash));
        return doc ? toApiKey(doc) : undefined;
      }),
    keysOf: (accountId) =>
      attempt('list API keys', async () =>
        (await c.apiKeys.find(apiKeysOfAccount(accountId)).sort({ created_at: 1, hash: 1 }).toArray()).map(toApiKey),
      ),
    removeKey: (hash) =>
      attempt('remove API key', async () => (await c.apiKeys.deleteOne(apiKeyByHash(hash))).deletedCount > 0),
  };
}
