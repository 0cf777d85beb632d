import type { CredentialStore } from '@leadroute/core';
import type { MongoCollections } from '../collections';
import { attempt } from '../errors';
import { credentialById, credentialsByAccount } from '../queries';
import { credentialDocument, toCredential } from '../records';

/** Recipient credentials by `_id`, listed per account through `credentials_account_id`. */
export function credentialStore(c: Pick<MongoCollections, 'credentials'>): CredentialStore {
  return {
    insert: (credential) =>
      attempt('insert credential', () => c.credentials.insertOne(credentialDocument(credential))).map(() => undefined),
    get: (id) =>
      attempt('get credential', async () => {
        const doc = await c.credentials.findOne(credentialById(id));
        return doc ? toCredential(doc) : undefined;
      }),
    listByAccount: (accountId) =>
      attempt('list credentials', async () => {
        const { filter, sort } = credentialsByAccount(accountId);
        return (await c.credentials.find(filter).sort(sort).toArray()).map(toCredential);
      }),
  };
}
