import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { errAsync, okAsync, type ResultAsync } from 'neverthrow';
import type { Principal } from '../context';
import { errors, type Issue, type LeadrouteError } from '../errors';
import { type Id, newId } from '../ids';
import type { Account, User } from '../ports/accounts';
import type { Clock } from '../ports/clock';
import type { Storage } from '../ports/storage';
import { isTimeZone, isoTime } from '../time';
import { accountEntity } from '../entities/account-entity';
import { isEmailAddress } from '../rules/fields/email';

/** What the host gives to create an account. */
export interface NewAccount {
  name: string;
  /** @default 'paid' */
  plan?: 'free' | 'paid';
  /** IANA time zone. @default 'UTC' */
  time_zone?: string;
  /**
   * @deprecated Kept for stored accounts; it grants nothing. Operator staff are not accounts:
   * configure them with the service's `operatorStaff` option (#19.6). @default false
   */
  staff?: boolean;
  /** Use this API key instead of generating one (e.g. from configuration). At least 16 characters. */
  api_key?: string;
  /** Where the account's alert e-mail goes when its alert settings name no `email_to` (#19.13). */
  notification_email?: string;
  /** The user the first API key belongs to. */
  user?: Partial<Omit<User, 'id'>>;
}

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
  issueKey(
    accountId: Id,
    options?: { user?: Partial<Omit<User, 'id'>>; api_key?: string },
  ): ResultAsync<IssuedKey, LeadrouteError>;
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

/** What {@link AccountsApi.update} can change. */
export interface AccountChanges {
  name?: string;
  time_zone?: string;
  notification_email?: string | null;
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

const MIN_KEY_LENGTH = 16;

/** SHA-256 of an API key, as stored. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

function validateUser(user: Partial<Omit<User, 'id'>> | undefined, issues: Issue[]): void {
  const email = user?.email;
  if (email !== undefined && email !== '' && (typeof email !== 'string' || !isEmailAddress(email)))
    issues.push({
      path: '/user/email',
      message: 'user.email must be an e-mail address (local part of at most 64 characters, at most 254 in all).',
    });
}

function validateApiKey(apiKey: string | undefined, issues: Issue[]): void {
  if (apiKey !== undefined && (typeof apiKey !== 'string' || apiKey.length < MIN_KEY_LENGTH))
    issues.push({ path: '/api_key', message: `api_key must be at least ${MIN_KEY_LENGTH} characters.` });
}

const newUser = (id: Id, user: Partial<Omit<User, 'id'>> | undefined): User => ({
  id,
  first_name: user?.first_name ?? 'API',
  last_name: user?.last_name ?? 'User',
  email: user?.email ?? '',
  sso_id: user?.sso_id ?? '',
});

/** The fields an account is created with and can change later: its time zone and notification address. */
function validateSettable(input: { time_zone?: unknown; notification_email?: unknown }, issues: Issue[]): void {
  if (input.time_zone !== undefined && !isTimeZone(input.time_zone))
    issues.push({ path: '/time_zone', message: `${String(input.time_zone)} is not an IANA time zone.` });
  const email = input.notification_email;
  if (email !== undefined && email !== null && (typeof email !== 'string' || !isEmailAddress(email)))
    issues.push({ path: '/notification_email', message: 'notification_email must be an e-mail address.' });
}

function validateNewAccount(input: NewAccount): Issue[] {
  const issues: Issue[] = [];
  if (typeof input.name !== 'string' || input.name.trim() === '')
    issues.push({ path: '/name', message: 'name is required.' });
  if (input.plan !== undefined && input.plan !== 'free' && input.plan !== 'paid')
    issues.push({ path: '/plan', message: 'plan must be free or paid.' });
  validateSettable(input, issues);
  validateApiKey(input.api_key, issues);
  validateUser(input.user, issues);
  return issues;
}

export function createAccountsApi(deps: { storage: Storage; clock: Clock }): AccountsApi {
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
      const issues = validateNewAccount(input);
      if (issues.length > 0) return errAsync(errors.validation(issues));
      const now = clock.now();
      const account: Account = {
        id: newId(now),
        name: input.name.trim(),
        plan: input.plan ?? 'paid',
        time_zone: input.time_zone ?? 'UTC',
        staff: input.staff ?? false,
        ...(input.notification_email ? { notification_email: input.notification_email } : {}),
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
      const issues: Issue[] = [];
      if (changes.name !== undefined && (typeof changes.name !== 'string' || changes.name.trim() === ''))
        issues.push({ path: '/name', message: 'name must not be empty.' });
      validateSettable(changes, issues);
      if (issues.length > 0) return errAsync(errors.validation(issues));
      return account(id).andThen((found) => {
        const { notification_email: _old, ...rest } = found;
        const email =
          changes.notification_email === undefined
            ? found.notification_email
            : (changes.notification_email ?? undefined);
        const next: Account = {
          ...rest,
          ...(changes.name === undefined ? {} : { name: changes.name.trim() }),
          ...(changes.time_zone === undefined ? {} : { time_zone: changes.time_zone }),
          ...(email ? { notification_email: email } : {}),
        };
        return storage.accounts
          .update(next)
          .andThen((updated) => (updated ? okAsync(next) : errAsync(errors.notFound('account', id))));
      });
    },
    principalFor(accountId, user) {
      return account(accountId).map((found) => ({ account: found, user: newUser(user?.id ?? found.id, user) }));
    },
    issueKey(accountId, options = {}) {
      const issues: Issue[] = [];
      validateApiKey(options.api_key, issues);
      validateUser(options.user, issues);
      if (issues.length > 0) return errAsync(errors.validation(issues));
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
