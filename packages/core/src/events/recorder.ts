import { errAsync, okAsync, ResultAsync } from 'neverthrow';
import type { LeadrouteError } from '../errors';
import type { Clock } from '../ports/clock';
import type { LeadWriteBundle } from '../ports/lead-writes';
import type { LeadRecord } from '../ports/leads';
import type { Logger } from '../ports/logger';
import type { TrackedField } from '../ports/field-rollups';
import type { RollupRow } from '../ports/rollups';
import type { Storage } from '../ports/storage';
import { searchDocument } from '../search/service';
import { fieldRows, trackedFields } from '../stats/fields';
import { rollupRowsOf } from '../stats/observer';
import type { StoredEvent } from '../domain/events';
import { mapAsync, orElseAsync } from '../results';

/**
 * Something that follows recorded events once they are stored: firehose delivery,
 * alert detection. An observer's failure is logged; it never loses the event. One
 * with nothing to do for an event returns nothing.
 * What must be stored with an event (its rollup rows, the lead's search document)
 * is not an observer: the recorder writes it in the same unit as the event.
 */
export type EventObserver = (event: StoredEvent) => ResultAsync<void, LeadrouteError> | Promise<void> | void;

/**
 * The records of one lead's intake, collected as its steps run and written as one
 * unit at the end (`storage.leadWrites`): a crash mid-lead leaves none of them.
 */
export interface RecordingUnit {
  /**
   * Says an event with this ID will be recorded by this unit, before its recipient
   * hears of it: feedback naming it in this process waits for the commit
   * ({@link EventRecorder.settled}) instead of answering 404 at once.
   */
  expect(eventId: string): void;
  /** Adds an event to write with the lead; nothing is stored yet. */
  add(event: StoredEvent): void;
  /**
   * Writes the lead and every event added (with their rollups and search document) as one unit, then tells the
   * observers.
   */
  commit(lead: LeadRecord): ResultAsync<void, LeadrouteError>;
  /** Forgets the unit without writing it (the lead failed before it could be recorded). */
  abandon(): void;
}

export interface EventRecorder {
  /** Stores the event with its rollup rows as one unit, then tells every observer, in order. */
  record(event: StoredEvent): ResultAsync<void, LeadrouteError>;
  /** A unit collecting one lead's records (see {@link RecordingUnit}). */
  unit(): RecordingUnit;
  /**
   * When a unit of this process has announced the event but not yet written it: a
   * promise settled once the unit is written or given up. Undefined otherwise.
   */
  settled(eventId: string): Promise<void> | undefined;
  /** Adds an observer for events recorded from now on. */
  observe(observer: EventObserver): void;
}

export function createEventRecorder(deps: { storage: Storage; logger: Logger; clock: Clock }): EventRecorder {
  const { storage } = deps;
  const observers: EventObserver[] = [];
  /** Events announced by units not yet written, and the promise settled when they are. */
  const pending = new Map<string, Promise<void>>();

  const notify = async (events: readonly StoredEvent[]): Promise<void> => {
    for (const event of events) {
      for (const observer of observers) {
        try {
          // An observer with nothing to do for this event answers nothing, and is not waited for: an `await` costs a
          // turn of the microtask queue, and a ResultAsync's three (#22: a lead's four events told two observers).
          const answer = observer(event);
          if (answer === undefined) continue;
          const outcome = await answer;
          if (outcome?.isErr()) deps.logger.error({ eventId: event.id, err: outcome.error }, 'event observer failed');
        } catch (e) {
          deps.logger.error({ eventId: event.id, err: e }, 'event observer threw');
        }
      }
    }
  };

  /** Without `storage.leadWrites`: each record on its own, events first, the lead last (as before bundles existed). */
  const oneByOne = (bundle: LeadWriteBundle): ResultAsync<void, LeadrouteError> =>
    bundle.events
      .reduce<ResultAsync<void, LeadrouteError>>(
        (acc, event) => acc.andThen(() => storage.events.insert(event)),
        okAsync(undefined),
      )
      .andThen(() => (bundle.rollups.length === 0 ? okAsync(undefined) : storage.rollups.add(bundle.rollups)))
      .andThen(() => {
        const rows = bundle.fieldRollups ?? [];
        return rows.length === 0 || !storage.fieldRollups ? okAsync(undefined) : storage.fieldRollups.add(rows);
      })
      .andThen(() => (bundle.search ? storage.search.index(bundle.search) : okAsync(undefined)))
      .andThen(() => (bundle.lead ? storage.leads.insert(bundle.lead) : okAsync(undefined)));

  /** The lead fields the events' account rolls up (none without `storage.fieldRollups`). */
  const fieldsOf = (events: readonly StoredEvent[]): ResultAsync<readonly TrackedField[], LeadrouteError> => {
    const account = events[0]?.account_id;
    return account === undefined ? okAsync([]) : trackedFields(storage, account);
  };

  /**
   * Stores the events, their rollup and field rollup rows and the lead's search document (and the lead, when given)
   * as one unit: statistics never count an event that is not stored, nor miss one that is.
   */
  const store = (
    lead: LeadRecord | undefined,
    events: readonly StoredEvent[],
    fields: ResultAsync<readonly TrackedField[], LeadrouteError> = fieldsOf(events),
  ): ResultAsync<void, LeadrouteError> => {
    const now = deps.clock.now();
    return rollupRowsOf(storage, events, now).andThen((rows) =>
      fields.andThen((tracked) => {
        const source = events.find((event) => event.type === 'source');
        const fieldRollups =
          tracked.length === 0 ? [] : events.flatMap((event, i) => fieldRows(event, rows[i] ?? [], tracked));
        const bundle: LeadWriteBundle = {
          ...(lead ? { lead } : {}),
          events,
          rollups: rows.flat() as RollupRow[],
          ...(fieldRollups.length > 0 ? { fieldRollups } : {}),
          ...(source ? { search: searchDocument(source) } : {}),
        };
        return storage.leadWrites ? storage.leadWrites.commit(bundle) : oneByOne(bundle);
      }),
    );
  };
  const told = (events: readonly StoredEvent[]): ResultAsync<void, LeadrouteError> =>
    observers.length === 0 ? okAsync(undefined) : ResultAsync.fromSafePromise(notify(events));

  return {
    record: (event) => store(undefined, [event]).andThen(() => told([event])),
    unit() {
      const events: StoredEvent[] = [];
      let fields: ResultAsync<readonly TrackedField[], LeadrouteError> | undefined;
      const announced: string[] = [];
      let settle: () => void = () => undefined;
      const done = new Promise<void>((resolve) => (settle = resolve));
      const finish = () => {
        for (const id of announced) pending.delete(id);
        settle();
      };
      return {
        expect(eventId) {
          announced.push(eventId);
          pending.set(eventId, done);
        },
        add: (event) => {
          // The account's rolled-up fields are asked with the first event, while the lead's steps run.
          fields ??= fieldsOf([event]);
          events.push(event);
        },
        // Feedback waiting on an event is let go as soon as the unit is stored (or refused), not after the observers.
        commit: (lead) =>
          orElseAsync(mapAsync(store(lead, events, fields), finish), (e) => {
            finish();
            // Its recipients may have the lead already, and nothing records that they do: what an operator reconciles
            // once storage is back (the source was answered with the error, and may send the lead again).
            if (announced.length > 0)
              deps.logger.error(
                { lead_id: lead.id, account_id: lead.account_id, deliveries: [...announced], err: e },
                'lead delivered but not recorded',
              );
            return errAsync(e);
          }).andThen(() => told(events)),
        abandon: finish,
      };
    },
    settled: (eventId) => pending.get(eventId),
    observe: (observer) => {
      observers.push(observer);
    },
  };
}
