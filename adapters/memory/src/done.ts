import { okAsync, type ResultAsync } from 'neverthrow';

/**
 * The answer of a write with nothing to report: one settled ResultAsync shared by every call. A lead's commit makes
 * eight such writes whose answers nobody reads, and each was a new promise (#22).
 */
export const DONE: ResultAsync<void, never> = okAsync(undefined);
