import { errAsync, okAsync, ResultAsync } from 'neverthrow';
import type { Principal } from '../context';
import { errors, type LeadrouteError } from '../errors';
import { isId } from '../ids';
import type { Clock } from '../ports/clock';
import type { Storage } from '../ports/storage';
import { type CompiledRuleSet, compileRules } from '../rules';
import { isoTime } from '../time';
import { timeSlices } from '../turns';
import { project } from './project';
import { type EventQuery, parseEventQuery } from './query';
import type { EventRecord, StoredEvent } from '../domain/events';
import type { EventQueryBody, EventQueryParams } from '../schemas/events';

/** The `events` sub-API: the account's event records. */
export interface EventsApi {
  /**
   * Events matching the query (GET /events parameters or a POST /events body), by ID order. The query
   * is typed by its schemas (schemas/events.ts) and checked here: 400 names every bad parameter.
   */
  list(
    principal: Principal,
    query: EventQueryBody | EventQueryParams,
    options?: { readonly signal?: AbortSignal },
  ): ResultAsync<Record<string, unknown>[], LeadrouteError>;
  get(principal: Principal, id: string): ResultAsync<EventRecord, LeadrouteError>;
  /** Deletes events, leads and their search entries past the 90-day retention; what was deleted. */
  purgeExpired(): ResultAsync<{ events: number; leads: number; searchEntries: number }, LeadrouteError>;
}

/** The API view of a stored event. */
export function toEventRecord(event: StoredEvent): EventRecord {
  const { account_id: _account, ...record } = event;
  return record;
}

const PAGE = 500;

export function createEventsApi(deps: { storage: Storage; clock: Clock }): EventsApi {
  const { storage, clock } = deps;

  /** Pages through the store until `limit` events pass the rule filters (or the store runs out). */
  const collect = (
    principal: Principal,
    q: EventQuery,
    filter: CompiledRuleSet | undefined,
    signal?: AbortSignal,
  ): ResultAsync<StoredEvent[], LeadrouteError> => {
    const found: StoredEvent[] = [];
    const now = clock.now();
    const env = { now, timeZone: principal.account.time_zone };
    // A filter that matches little pages through the whole store: between pages the event loop turns every slice
    // (memory storage never yields), which also lets a hang-up be heard, and a listing nobody will read stops.
    const slices = timeSlices();
    const heard = (): ResultAsync<void, LeadrouteError> =>
      (slices.due() ? ResultAsync.fromSafePromise(slices.pause()) : okAsync(undefined)).andThen(() =>
        signal?.aborted ? errAsync(errors.aborted()) : okAsync(undefined),
      );
    const page = (cursor: { after_id?: string; before_id?: string }): ResultAsync<StoredEvent[], LeadrouteError> =>
      heard().andThen(() =>
        storage.events
          .query({
            account_id: principal.account.id,
            ...cursor,
            ...(q.start !== undefined ? { start: q.start } : {}),
            ...(q.end !== undefined ? { end: q.end } : {}),
            ...(q.types ? { types: q.types } : {}),
            live_at: isoTime(now),
            sort: q.sort,
            limit: filter ? PAGE : q.limit,
          })
          .andThen((batch) => {
            for (const event of batch) {
              if (!filter || filter(event as unknown as Record<string, unknown>, env).pass) found.push(event);
              if (found.length === q.limit) return okAsync(found);
            }
            const last = batch[batch.length - 1];
            if (!filter || batch.length < PAGE || !last) return okAsync(found);
            return page(q.sort === 'desc' ? { ...cursor, before_id: last.id } : { ...cursor, after_id: last.id });
          }),
      );
    return page({
      ...(q.after_id ? { after_id: q.after_id } : {}),
      ...(q.before_id ? { before_id: q.before_id } : {}),
    });
  };

  return {
    list(principal, input, options = {}) {
      const parsed = parseEventQuery(input as Record<string, unknown>);
      if (parsed.isErr()) return errAsync(errors.badRequest('The events query is not valid.', parsed.error));
      const q = parsed.value;
      const filter = q.rules.length > 0 ? compileRules(q.rules, 'and') : undefined;
      return collect(principal, q, filter, options.signal).map((events) =>
        events.map((e) => project(toEventRecord(e) as unknown as Record<string, unknown>, q.include, q.exclude)),
      );
    },
    get(principal, id) {
      if (!isId(id)) return errAsync(errors.notFound('event', id));
      return storage.events.get(id.toLowerCase()).andThen((event) =>
        // Another account's event, and one past retention, answer as unknown.
        event && event.account_id === principal.account.id && event.expires_at > isoTime(clock.now())
          ? okAsync(toEventRecord(event))
          : errAsync(errors.notFound('event', id)),
      );
    },
    purgeExpired() {
      const before = isoTime(clock.now());
      return storage.events
        .purgeExpired(before)
        .andThen((events) => storage.leads.purgeExpired(before).map((leads) => ({ events, leads })))
        .andThen((done) => storage.search.purgeExpired(before).map((searchEntries) => ({ ...done, searchEntries })));
    },
  };
}
