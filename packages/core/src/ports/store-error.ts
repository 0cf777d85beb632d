import type { LeadrouteError } from '../errors';

/**
 * What a storage port may fail with: the backing store failed (`StorageFailure`), cannot be
 * reached or did not answer in time (`StorageUnavailable`, retryable), or a unique constraint held.
 */
export type StoreError = Extract<LeadrouteError, { type: 'StorageFailure' | 'StorageUnavailable' | 'Conflict' }>;
