import type { Filter } from 'mongodb';
import type { AccountDoc, ApiKeyDoc } from '../documents';

/** The account with this ID (the primary index). */
export const accountById = (id: string): Filter<AccountDoc> => ({ _id: id });

/** Accounts whose notification address is exactly `email` (stored lower-cased). */
export const accountsByEmail = (email: string): Filter<AccountDoc> => ({ notification_email: email });

/** The API key with exactly this hash (the unique `hash` index); case matters, as hashes are stored lowercase hex. */
export const apiKeyByHash = (hash: string): Filter<ApiKeyDoc> => ({ hash });

/** An account's API keys (few per account; read when keys are listed, rotated or revoked, never per request). */
export const apiKeysOfAccount = (accountId: string): Filter<ApiKeyDoc> => ({ account_id: accountId });
