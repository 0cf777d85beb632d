import type { Filter } from 'mongodb';
import type { CounterDoc } from '../records-work';

/** The counter with this key. */
export const counterById = (key: string): Filter<CounterDoc> => ({ _id: key });

/**
 * The counter only while its count is below `maximum`. Used with an upsert: when it
 * is absent the server inserts `{ _id: key }` and applies the increment (count 1);
 * when it is present and full nothing matches, the insert meets `_id` and fails with
 * a duplicate key, which the store reads as "full" after checking again.
 */
export const counterBelow = (key: string, maximum: number): Filter<CounterDoc> => ({
  _id: key,
  count: { $lt: maximum },
});

/** Adds one and moves the record's expiry to the window's. */
export const incrementUpdate = (expiresAt: Date) => ({ $inc: { count: 1 }, $set: { expires_at: expiresAt } });

/** The counter only while it is free to claim: released (count 0 or less) or expired by `now`. */
export const counterClaimable = (key: string, now: Date): Filter<CounterDoc> => ({
  _id: key,
  $or: [{ count: { $lte: 0 } }, { expires_at: { $lte: now } }],
});

/** Held by one claim until `expiresAt`. */
export const counterClaimUpdate = (expiresAt: Date) => ({ $set: { count: 1, expires_at: expiresAt } });

/** The counter only while it is above zero: giving back never goes below nothing. */
export const counterAboveZero = (key: string): Filter<CounterDoc> => ({ _id: key, count: { $gt: 0 } });

/** Takes one off. */
export const decrementUpdate = () => ({ $inc: { count: -1 } });
