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
  /** Operator staff see internal alert activity. @default false */
  staff?: boolean;
  /** Use this API key instead of generating one (e.g. from configuration). At least 16 characters. */
  api_key?: string;
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
}

const MIN_KEY_LENGTH = 16;

/** SHA-256 of an API key, as stored. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

function validateNewAccount(input: NewAccount): Issue[] {
  const issues: Issue[] = [];
  if (typeof input.name !== 'string' || input.name.trim() === '') issues.push({ path: '/name', message: 'name is required.' });
  if (input.plan !== undefined && input.plan !== 'free' && input.plan !== 'paid')
    issues.push({ path: '/plan', message: 'plan must be free or paid.' });
  if (input.time_zone !== undefined && !isTimeZone(input.time_zone))
    issues.push({ path: '/time_zone', message: `${String(input.time_zone)} is not an IANA time zone.` });
  if (input.api_key !== undefined && (typeof input.api_key !== 'string' || input.api_key.length < MIN_KEY_LENGTH))
    issues.push({ path: '/api_key', message: `api_key must be at least ${MIN_KEY_LENGTH} characters.` });
  const email = input.user?.email;
  if (email !== undefined && email !== '' && (typeof email !== 'string' || !isEmailAddress(email)))
    issues.push({ path: '/user/email', message: 'user.email must be an e-mail address (local part of at most 64 characters, at most 254 in all).' });
  return issues;
}

export function createAccountsApi(deps: { storage: Storage; clock: Clock }): AccountsApi {
  const { storage, clock } = deps;
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
        created_at: isoTime(now),
      };
      const apiKey = input.api_key ?? randomBytes(24).toString('base64url');
      const user: User = {
        id: newId(now),
        first_name: input.user?.first_name ?? 'API',
        last_name: input.user?.last_name ?? 'User',
        email: input.user?.email ?? '',
        sso_id: input.user?.sso_id ?? '',
      };
      return storage.accounts
        .insert(account)
        .andThen(() => storage.accounts.insertKey({ hash: hashApiKey(apiKey), account_id: account.id, user, created_at: account.created_at }))
        .andThen(() => storage.entities.insert(accountEntity(account, now)))
        .map(() => ({ account, api_key: apiKey }));
    },
    get(id) {
      return storage.accounts.get(id).andThen((account) => (account ? okAsync(account) : errAsync(errors.notFound('account', id))));
    },
    authenticate(apiKey) {
      if (typeof apiKey !== 'string' || apiKey.length === 0 || apiKey.length > 512) return errAsync(errors.unauthorized());
      const hash = hashApiKey(apiKey);
      return storage.accounts.findKey(hash).andThen((key) => {
        // Compare the stored hash in constant time so a store that matches by prefix
        // or case-insensitively cannot turn into a timing oracle.
        if (!key || !timingSafeEqual(Buffer.from(key.hash, 'hex'), Buffer.from(hash, 'hex'))) return errAsync(errors.unauthorized());
        return storage.accounts.get(key.account_id).andThen((account) =>
          account ? okAsync({ account, user: key.user }) : errAsync(errors.unauthorized()),
        );
      });
    },
  };
}
