import { errors, type AccountStore, type AliasStore, type EntityStore, type StoreError } from '@leadroute/core';
import { errAsync, okAsync, type ResultAsync } from 'neverthrow';
import { DONE } from './done';
import { copy, type MemoryTables } from './tables';

const conflict = (message: string): ResultAsync<never, StoreError> => errAsync(errors.conflict(message) as StoreError);
const byCreation = <T extends { created_at: string; id: string }>(a: T, b: T) =>
  a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id);

export function accountStore(t: MemoryTables): AccountStore {
  return {
    findByEmail: (email) => okAsync([...t.accounts.values()].filter((a) => a.notification_email === email).map(copy)),
    insert: (account) =>
      t.accounts.has(account.id) ? conflict('account exists') : (t.accounts.set(account.id, copy(account)), DONE),
    get: (id) => okAsync(copy(t.accounts.get(id))),
    update: (account) =>
      okAsync(t.accounts.has(account.id) ? (t.accounts.set(account.id, copy(account)), true) : false),
    insertKey: (key) =>
      t.apiKeys.has(key.hash) ? conflict('API key exists') : (t.apiKeys.set(key.hash, copy(key)), DONE),
    findKey: (hash) => okAsync(copy(t.apiKeys.get(hash))),
    keysOf: (accountId) =>
      okAsync(
        [...t.apiKeys.values()]
          .filter((k) => k.account_id === accountId)
          .sort((a, b) => a.created_at.localeCompare(b.created_at))
          .map(copy),
      ),
    removeKey: (hash) => okAsync(t.apiKeys.delete(hash)),
  };
}

export function entityStore(t: MemoryTables): EntityStore {
  return {
    insert: (entity) =>
      t.entities.has(entity.id) ? conflict('entity exists') : (t.entities.set(entity.id, copy(entity)), DONE),
    get: (id) => okAsync(copy(t.entities.get(id))),
    listByOwner: (accountId) =>
      okAsync(
        [...t.entities.values()]
          .filter((e) => e.owner_account_id === accountId)
          .sort(byCreation)
          .map(copy),
      ),
    update: (entity) => (t.entities.set(entity.id, copy(entity)), DONE),
  };
}

export function aliasStore(t: MemoryTables): AliasStore {
  const taken = (accountId: string, entityId: string, exceptId: string) =>
    [...t.aliases.values()].some((a) => a.account_id === accountId && a.entity_id === entityId && a.id !== exceptId);
  return {
    insert: (alias) =>
      t.aliases.has(alias.id) || taken(alias.account_id, alias.entity_id, alias.id)
        ? conflict('alias exists')
        : (t.aliases.set(alias.id, copy(alias)), DONE),
    get: (id) => okAsync(copy(t.aliases.get(id))),
    listByAccount: (accountId) =>
      okAsync(
        [...t.aliases.values()]
          .filter((a) => a.account_id === accountId)
          .sort(byCreation)
          .map(copy),
      ),
    update: (alias) =>
      taken(alias.account_id, alias.entity_id, alias.id)
        ? conflict('alias exists')
        : (t.aliases.set(alias.id, copy(alias)), DONE),
    remove: (id) => okAsync(t.aliases.delete(id)),
  };
}
