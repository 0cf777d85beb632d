import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { errAsync, okAsync, type ResultAsync } from 'neverthrow';
import type { Principal } from '../context';
import { errors, type LeadrouteError } from '../errors';
import { type Id, newId } from '../ids';
import type { Account, User } from '../ports/accounts';
import type { Clock } from '../ports/clock';
import type { Storage } from '../ports/storage';
import { isoTime } from '../time';
import { accountEntity } from '../entities/account-entity';
import { deepValidator } from '../schemas/define';
import {
  type AccountChanges,
  AccountChangesInput,
  type IssueKeyOptions,
  IssueKeyInput,
  type NewAccount,
  NewAccountInput,
} from '../schemas/accounts';

export type { AccountChanges, IssueKeyOptions, NewAccount } from '../schemas/accounts';

/** The `accounts` sub-API. Accounts belong to the host: there is no HTTP endpoint to create them. */
export interface AccountsApi {
  /** Creates an account, its account entity and a first API key; the key is returned once, never stored. */
  create(input: NewAccount): ResultAsync<{ account: Account; api_key: string }, LeadrouteError>;
  get(id: Id): ResultAsync<Account, LeadrouteError>;
  /** Resolves an API key to its account and user; `Unauthorized` for anything else. */
  authenticate(apiKey: string): ResultAsync<Principal, LeadrouteError>;
  /** Changes an account's name, time zone or notification address (`null` removes it). */
  update(id: Id, changes: AccountChanges): ResultAsync<Account, LeadrouteError>;
  /**
   * The principal of an account the host has authenticated its own way (its session or
   * token; see the bindings' `authenticate` option), so the host never keeps a tenant's
   * API key. `NotFound` for an unknown account.
   */
  principalFor(accountId: Id, user?: Partial<User>): ResultAsync<Principal, LeadrouteError>;
  /** Issues another API key for the account; the key is returned once, never stored. */
  issueKey(accountId: Id, options?: IssueKeyOptions): ResultAsync<IssuedKey, LeadrouteError>;
  /** The account's keys by ID (never the keys themselves), oldest first. */
  listKeys(accountId: Id): ResultAsync<ApiKeyInfo[], LeadrouteError>;
  /**
   * Replaces a key with a new one for the same user: the old key answers 401 from now on. `NotFound` for a key not of
   * this account.
   */
  rotateKey(accountId: Id, keyId: string): ResultAsync<IssuedKey, LeadrouteError>;
  /** Revokes a key: it answers 401 from now on. `NotFound` for a key not of this account. */
  revokeKey(accountId: Id, keyId: string): ResultAsync<void, LeadrouteError>;
}

/** A key just issued: the key itself (shown once) and its ID. */
export interface IssuedKey {
  readonly api_key: string;
  readonly key_id: string;
}

/** What is known of a stored key: its ID (the first 16 hex digits of its SHA-256), user and creation time. */
export interface ApiKeyInfo {
  readonly key_id: string;
  readonly user: User;
  readonly created_at: string;
}

/** A key's public ID: the first 16 hex digits of its SHA-256, which tell nothing of the key. */
export const keyIdOf = (hash: string): string => hash.slice(0, 16);

/** SHA-256 of an API key, as stored. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

const newUser = (id: Id, user: Partial<Omit<User, 'id'>> | undefined): User => ({
  id,
  first_name: user?.first_name ?? 'API',
  last_name: user?.last_name ?? 'User',
  email: user?.email ?? '',
  sso_id: user?.sso_id ?? '',
});

const checkNewAccount = deepValidator(NewAccountInput);
const checkChanges = deepValidator(AccountChangesInput);
const checkIssueKey = deepValidator(IssueKeyInput);

export function createAccountsApi(deps: {
  storage: Storage;
  clock: Clock;
  /** Told after an account is updated: the service's short-lived copy of it is dropped. */
  changed?: (id: Id) => void;
}): AccountsApi {
  const { storage, clock } = deps;
  const account = (id: Id) =>
    storage.accounts.get(id).andThen((found) => (found ? okAsync(found) : errAsync(errors.notFound('account', id))));
  const insertKey = (accountId: Id, user: User, apiKey?: string): ResultAsync<IssuedKey, LeadrouteError> => {
    const key = apiKey ?? randomBytes(24).toString('base64url');
    const hash = hashApiKey(key);
    return storage.accounts
      .insertKey({ hash, account_id: accountId, user, created_at: isoTime(clock.now()) })
      .map(() => ({ api_key: key, key_id: keyIdOf(hash) }));
  };
  /** The account's stored key with this ID; `NotFound` for another account's or an unknown one alike. */
  const ownKey = (accountId: Id, keyId: string) =>
    storage.accounts.keysOf(accountId).andThen((keys) => {
      const key =
        typeof keyId === 'string' && keyId.length === 16
          ? keys.find((k) => keyIdOf(k.hash) === keyId.toLowerCase())
          : undefined;
      return key ? okAsync(key) : errAsync(errors.notFound('API key', String(keyId)));
    });
  return {
    create(input) {
      const checked = checkNewAccount(input);
      if (checked.isErr()) return errAsync(errors.validation(checked.error));
      const now = clock.now();
      const account: Account = {
        id: newId(now),
        name: input.name.trim(),
        plan: input.plan ?? 'paid',
        time_zone: input.time_zone ?? 'UTC',
        staff: input.staff ?? false,
        // Stored lower-cased: addresses compare so, and an invitation by e-mail finds the account by it.
        ...(input.notification_email ? { notification_email: input.notification_email.trim().toLowerCase() } : {}),
        created_at: isoTime(now),
      };
      const apiKey = input.api_key ?? randomBytes(24).toString('base64url');
      const user = newUser(newId(now), input.user);
      return storage.accounts
        .insert(account)
        .andThen(() =>
          storage.accounts.insertKey({
            hash: hashApiKey(apiKey),
            account_id: account.id,
            user,
            created_at: account.created_at,
          }),
        )
        .andThen(() => storage.entities.insert(accountEntity(account, now)))
        .map(() => ({ account, api_key: apiKey }));
    },
    get(id) {
      return storage.accounts
        .get(id)
        .andThen((account) => (account ? okAsync(account) : errAsync(errors.notFound('account', id))));
    },
    authenticate(apiKey) {
      if (typeof apiKey !== 'string' || apiKey.length === 0 || apiKey.length > 512)
        return errAsync(errors.unauthorized());
      const hash = hashApiKey(apiKey);
      return storage.accounts.findKey(hash).andThen((key) => {
        // Compare the stored hash in constant time so a store that matches by prefix
        // or case-insensitively cannot turn into a timing oracle.
        if (!key || !timingSafeEqual(Buffer.from(key.hash, 'hex'), Buffer.from(hash, 'hex')))
          return errAsync(errors.unauthorized());
        return storage.accounts
          .get(key.account_id)
          .andThen((account) => (account ? okAsync({ account, user: key.user }) : errAsync(errors.unauthorized())));
      });
    },
    update(id, changes) {
      const checked = checkChanges(changes);
      if (checked.isErr()) return errAsync(errors.validation(checked.error));
      return account(id).andThen((found) => {
        const { notification_email: _old, ...rest } = found;
        const email =
          changes.notification_email === undefined
            ? found.notification_email
            : (changes.notification_email?.trim().toLowerCase() ?? undefined);
        const next: Account = {
          ...rest,
          ...(changes.name === undefined ? {} : { name: changes.name.trim() }),
          ...(changes.time_zone === undefined ? {} : { time_zone: changes.time_zone }),
          ...(email ? { notification_email: email } : {}),
        };
        return storage.accounts.update(next).andThen((updated) => {
          deps.changed?.(next.id);
          return updated ? okAsync(next) : errAsync(errors.notFound('account', id));
        });
      });
    },
    principalFor(accountId, user) {
      return account(accountId).map((found) => ({ account: found, user: newUser(user?.id ?? found.id, user) }));
    },
    issueKey(accountId, options = {}) {
      const checked = checkIssueKey(options);
      if (checked.isErr()) return errAsync(errors.validation(checked.error));
      return account(accountId).andThen((found) =>
        insertKey(found.id, newUser(newId(clock.now()), options.user), options.api_key),
      );
    },
    listKeys(accountId) {
      return account(accountId)
        .andThen((found) => storage.accounts.keysOf(found.id))
        .map((keys) => keys.map((k) => ({ key_id: keyIdOf(k.hash), user: k.user, created_at: k.created_at })));
    },
    rotateKey(accountId, keyId) {
      // The new key is stored before the old one goes: a failure between leaves the account with both, never with none.
      return ownKey(accountId, keyId).andThen((old) =>
        insertKey(old.account_id, old.user).andThen((issued) => storage.accounts.removeKey(old.hash).map(() => issued)),
      );
    },
    revokeKey(accountId, keyId) {
      return ownKey(accountId, keyId)
        .andThen((key) => storage.accounts.removeKey(key.hash))
        .map(() => undefined);
    },
  };
}
