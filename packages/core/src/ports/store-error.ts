import type { LeadrouteError } from '../errors';

/** What a storage port may fail with: the backing store is down, or a unique constraint held. */
export type StoreError = Extract<LeadrouteError, { type: 'StorageFailure' | 'Conflict' }>;
