import { okAsync, ResultAsync } from 'neverthrow';
import type { LeadrouteError } from '../errors';
import type { Logger } from '../ports/logger';
import type { Storage } from '../ports/storage';
import type { StoredEvent } from './types';

/**
 * Something that follows recorded events: statistics rollups, the search index,
 * firehose delivery, alert detection. An observer's failure is logged; it never
 * loses the event, which is already stored.
 */
export type EventObserver = (event: StoredEvent) => ResultAsync<void, LeadrouteError> | Promise<void> | void;

export interface EventRecorder {
  /** Stores the event, then tells every observer, in order. */
  record(event: StoredEvent): ResultAsync<void, LeadrouteError>;
  /** Adds an observer for events recorded from now on. */
  observe(observer: EventObserver): void;
}

export function createEventRecorder(deps: { storage: Storage; logger: Logger }): EventRecorder {
  const observers: EventObserver[] = [];
  const notify = async (event: StoredEvent): Promise<void> => {
    for (const observer of observers) {
      try {
        const outcome = await observer(event);
        if (outcome && outcome.isErr()) deps.logger.error({ eventId: event.id, err: outcome.error }, 'event observer failed');
      } catch (e) {
        deps.logger.error({ eventId: event.id, err: e }, 'event observer threw');
      }
    }
  };
  return {
    record: (event) =>
      deps.storage.events.insert(event).andThen(() => (observers.length === 0 ? okAsync(undefined) : ResultAsync.fromSafePromise(notify(event)))),
    observe: (observer) => {
      observers.push(observer);
    },
  };
}
