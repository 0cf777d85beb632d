import type { CounterStore } from '@leadroute/core';
import { okAsync } from 'neverthrow';
import type { MongoCollections } from '../collections';
import { toDate } from '../documents';
import { attempt, isDuplicateKey } from '../errors';
import {
  counterClaimUpdate,
  counterAboveZero,
  counterBelow,
  counterById,
  counterClaimable,
  decrementUpdate,
  incrementUpdate,
} from '../queries';

/**
 * Cap and ping-limit counters, `_id` = key. `tryIncrement` is a conditional upsert:
 * `{ _id: key, count: { $lt: maximum } }` with `$inc`. A counter below the maximum
 * matches and is incremented; an absent one is inserted at 1. A counter at the
 * maximum does not match, so the upsert tries to insert its `_id` again and the
 * server refuses with a duplicate key. The same error also meets the loser of two
 * first callers racing to insert a new key, whose counter may well have room: so a
 * duplicate key is answered by the conditional update once more, without the upsert
 * (the document surely exists now), and only a miss there means "full". The server
 * applies each update to the document atomically, so no more than `maximum`
 * callers ever succeed.
 */
export function counterStore(c: Pick<MongoCollections, 'counters'>): CounterStore {
  return {
    tryIncrement: (key, maximum, expiresAt) => {
      // Nothing fits under a maximum of 0 (or NaN): the upsert would still insert a 1.
      if (!(maximum > 0)) return okAsync(false);
      return attempt('increment counter', async () => {
        const update = incrementUpdate(toDate(expiresAt));
        try {
          await c.counters.updateOne(counterBelow(key, maximum), update, { upsert: true });
          return true;
        } catch (error) {
          if (!isDuplicateKey(error)) throw error;
          const { matchedCount } = await c.counters.updateOne(counterBelow(key, maximum), update);
          return matchedCount > 0;
        }
      });
    },
    decrement: (key) =>
      attempt('decrement counter', () => c.counters.updateOne(counterAboveZero(key), decrementUpdate())).map(
        () => undefined,
      ),
    // A held key does not match, so the upsert meets its _id and fails with a duplicate key: held by another.
    claim: (key, expiresAt, now) =>
      attempt('claim counter', async () => {
        try {
          await c.counters.updateOne(counterClaimable(key, toDate(now)), counterClaimUpdate(toDate(expiresAt)), {
            upsert: true,
          });
          return true;
        } catch (error) {
          if (isDuplicateKey(error)) return false;
          throw error;
        }
      }),
    get: (key) => attempt('get counter', async () => (await c.counters.findOne(counterById(key)))?.count ?? 0),
  };
}
