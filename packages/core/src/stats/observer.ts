import { okAsync, type ResultAsync } from 'neverthrow';
import type { LeadrouteError } from '../errors';
import type { EventObserver } from '../events/recorder';
import type { StoredEvent } from '../events/types';
import type { Clock } from '../ports/clock';
import type { Storage } from '../ports/storage';
import { isoTime } from '../time';
import { eventRows, pingIdOf } from './cells';

/**
 * Whether a post won a ping: it carries a `ping_id` naming the lead of a
 * successful ping of the same account. The ping is looked up by its lead ID,
 * one indexed read per post that names one.
 */
export function pingWon(storage: Storage, event: StoredEvent, now: number): ResultAsync<boolean, LeadrouteError> {
  const pingId = pingIdOf(event);
  if (!pingId) return okAsync(false);
  return storage.events
    .query({ account_id: event.account_id, lead_id: pingId, types: ['ping'], live_at: isoTime(now), sort: 'desc', limit: 10 })
    .map((pings) => pings.some((p) => p.outcome === 'success' && p.account_id === event.account_id));
}

/** The recorder observer that keeps rollup counters: every counted event adds its rows. */
export function rollupObserver(deps: { storage: Storage; clock: Clock }): EventObserver {
  return (event) =>
    pingWon(deps.storage, event, deps.clock.now()).andThen((won) => {
      const rows = eventRows(event, won);
      return rows.length === 0 ? okAsync(undefined) : deps.storage.rollups.add(rows);
    });
}
