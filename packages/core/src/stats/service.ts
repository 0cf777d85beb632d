import { errAsync, okAsync, ResultAsync } from 'neverthrow';
import type { Principal } from '../context';
import { errors, type LeadrouteError } from '../errors';
import type { StoredEvent } from '../domain/events';
import type { Clock } from '../ports/clock';
import type { TrackedField } from '../ports/field-rollups';
import type { RollupKind, RollupRow } from '../ports/rollups';
import type { Storage } from '../ports/storage';
import { compileRules } from '../rules';
import { isoTime } from '../time';
import { timeSlices } from '../turns';
import { bucketStart, wholeUtcDays, zonedIso } from './buckets';
import { eventRows } from './cells';
import { fieldValue, nextTracked, trackedFields, validateRollupFields } from './fields';
import { pingWon } from './observer';
import { type MAX_STATS_RANGE_DAYS, parseStatsQuery, ROLLUP_KEYS, type StatsQuery } from './params';
import { groupRollupCells } from './rollup-groups';
import { addToGroup, groupRow, groupRows, newGroup, type StatsGroup, type StatsRow } from './rows';

/** A statistics answer: its rows, the column order (for CSV), and where the counts came from. */
export interface StatsResult {
  readonly rows: StatsRow[];
  readonly columns: string[];
  /** `rollups` when hourly counters could answer; `events` when the query needed the events themselves. */
  readonly source: 'rollups' | 'events';
}

/** The `stats` sub-API: event statistics (GET /events/stats). */
export interface StatsApi {
  /**
   * Counts the account's events: one row per group (one row of totals without
   * `group_by`), each with the counters of {@link groupRow}. Group keys from
   * rollups (flow_id, source_id, recipient_id, time) are answered from hourly
   * rollups; lead fields, rule filters, minutely intervals, ranges not on the
   * hour and intervals whose boundaries fall inside a stored hour (a zone off a
   * whole-hour offset) aggregate the events in range. A range longer than
   * {@link MAX_STATS_RANGE_DAYS} days is refused (400).
   */
  compute(
    principal: Principal,
    params: URLSearchParams | Record<string, string | readonly string[]>,
    options?: { readonly signal?: AbortSignal },
  ): ResultAsync<StatsResult, LeadrouteError>;
  /**
   * The lead fields the account rolls up (statistics grouped by one of them read hourly cells), each with the
   * instant from which its cells hold every event; `['state']` from the start until the account sets its own.
   */
  rollupFields(principal: Principal): ResultAsync<readonly TrackedField[], LeadrouteError>;
  /**
   * Sets the lead fields the account rolls up (at most 10; 400 for a bad name). A field kept keeps its start; a
   * new one is counted from the next hour on: earlier ranges are answered from events.
   */
  setRollupFields(principal: Principal, fields: unknown): ResultAsync<readonly TrackedField[], LeadrouteError>;
}

const EVENT_TYPES: Record<RollupKind, string> = {
  source: 'source',
  recipient: 'recipient',
  filter: 'filter',
  ping: 'ping',
  'return-received': 'feedback-received',
  'conversion-received': 'feedback-received',
  'return-sent': 'feedback-sent',
  'conversion-sent': 'feedback-sent',
};
const PAGE = 1000;
const HOUR = 3_600_000;

export { fieldValue };

/** The answer from summed groups: one row each (one row of zeros for totals of nothing), sorted by their keys. */
function result(q: StatsQuery, groups: StatsGroup[], source: StatsResult['source']): StatsResult {
  if (q.groupBy.length === 0 && groups.length === 0) groups.push(newGroup({}));
  const rows = groupRows(groups, q.groupBy);
  const columns = rows[0] ? Object.keys(rows[0]) : [...q.groupBy, ...Object.keys(groupRow(newGroup({}), []))];
  return { rows, columns, source };
}

function toParams(input: URLSearchParams | Record<string, string | readonly string[]>): URLSearchParams {
  if (input instanceof URLSearchParams) return input;
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(input)) for (const one of typeof v === 'string' ? [v] : v) p.append(k, one);
  return p;
}

export function createStatsApi(deps: { storage: Storage; clock: Clock }): StatsApi {
  const { storage, clock } = deps;

  // Groups of the events path: any group key, lead fields included.
  const groupsOf = (q: StatsQuery) => {
    const groups = new Map<string, StatsGroup>();
    const keyOf = (k: string, row: RollupRow, event: StoredEvent, time: number): string | null => {
      if (k === 'time') return zonedIso(time, q.zone);
      if (k === 'flow_id' || k === 'source_id' || k === 'recipient_id') return row[k] === '' ? null : row[k];
      return fieldValue(event, k);
    };
    // Called once per event row: the group is found by a key string built without objects; its keys object is made
    // once.
    const add = (row: RollupRow, event: StoredEvent) => {
      if (!q.kinds.has(row.kind)) return;
      const time = q.interval ? bucketStart(event.start_timestamp, q.interval, q.zone) : 0;
      let id = '';
      for (const k of q.groupBy) {
        const v =
          k === 'time'
            ? String(time)
            : k === 'flow_id' || k === 'source_id' || k === 'recipient_id'
              ? row[k]
              : fieldValue(event, k);
        id += `${v ?? '\u0001'}\u0000`;
      }
      let g = groups.get(id);
      if (!g) {
        const keys: Record<string, string | null> = {};
        for (const k of q.groupBy) keys[k] = keyOf(k, row, event, time);
        groups.set(id, (g = newGroup(keys, time)));
      }
      addToGroup(g, row);
    };
    return { add, finish: () => result(q, [...groups.values()], 'events') };
  };

  const fromRollups = (principal: Principal, q: StatsQuery, signal?: AbortSignal) =>
    storage.rollups
      .query({ account_id: principal.account.id, from: isoTime(q.start), to: isoTime(q.end), kinds: [...q.kinds] })
      .andThen((cells) => {
        if (signal?.aborted) return errAsync(errors.aborted());
        const groups = groupRollupCells(cells, q);
        return groups ? okAsync(result(q, groups, 'rollups')) : fromEvents(principal, q, signal);
      });

  /**
   * Grouped by one lead field the account rolls up (plus rollup keys), over a range its cells cover whole: the
   * field's cells answer; otherwise the events.
   */
  const fromFieldRollups = (principal: Principal, q: StatsQuery, field: string, signal?: AbortSignal) => {
    const store = storage.fieldRollups;
    if (!store) return fromEvents(principal, q, signal);
    return trackedFields(storage, principal.account.id).andThen((tracked) => {
      const t = tracked.find((one) => one.field === field);
      if (!t || q.start < t.since) return fromEvents(principal, q, signal);
      return store
        .query({
          account_id: principal.account.id,
          from: isoTime(q.start),
          to: isoTime(q.end),
          kinds: [...q.kinds],
          field,
          // Only the columns the groups read: a store may sum cells over the rest.
          keep: [
            ...(q.interval ? (['hour'] as const) : []),
            ...(['flow_id', 'source_id', 'recipient_id'] as const).filter((k) => q.groupBy.includes(k)),
          ],
          // Days inside one interval each: a store may read them from cells per day.
          days: wholeUtcDays(q.start, q.end, q.interval, q.zone).map((run) => ({
            from: isoTime(run.from),
            to: isoTime(run.to),
          })),
        })
        .andThen((cells) => {
          if (signal?.aborted) return errAsync(errors.aborted());
          const groups = groupRollupCells(cells, q, field);
          return groups ? okAsync(result(q, groups, 'rollups')) : fromEvents(principal, q, signal);
        });
    });
  };

  const fromEvents = (
    principal: Principal,
    q: StatsQuery,
    signal?: AbortSignal,
  ): ResultAsync<StatsResult, LeadrouteError> => {
    const g = groupsOf(q);
    const filter = q.rules.length > 0 ? compileRules(q.rules, 'and') : undefined;
    const now = clock.now();
    const env = { now, timeZone: principal.account.time_zone };
    // Pings are won by posts: with pings counted, source events are read for their wins.
    const types = [
      ...new Set([...q.kinds, ...(q.kinds.has('ping') ? (['source'] as const) : [])].map((k) => EVENT_TYPES[k])),
    ];
    const run = async (): Promise<StatsResult> => {
      let after: string | undefined;
      // Storage may answer from memory without ever yielding: the event loop turns every slice, which also lets a
      // hang-up be heard, and work nobody will read stops (read-only, so nothing is left half done).
      const slices = timeSlices();
      for (;;) {
        if (slices.due()) await slices.pause();
        if (signal?.aborted) throw errors.aborted();
        const page = await storage.events.query({
          account_id: principal.account.id,
          start: q.start,
          end: q.end,
          types,
          live_at: isoTime(now),
          sort: 'asc',
          limit: PAGE,
          ...(after ? { after_id: after } : {}),
        });
        if (page.isErr()) throw page.error;
        for (const event of page.value) {
          if (filter && !filter(event as unknown as Record<string, unknown>, env).pass) continue;
          let won = false;
          if (q.kinds.has('ping')) {
            const result = await pingWon(storage, event, now);
            if (result.isErr()) throw result.error;
            won = result.value;
          }
          for (const row of eventRows(event, won)) g.add(row, event);
        }
        const last = page.value[page.value.length - 1];
        if (page.value.length < PAGE || !last) return g.finish();
        after = last.id;
      }
    };
    return ResultAsync.fromPromise(run(), (e) =>
      e && typeof e === 'object' && 'type' in e
        ? (e as LeadrouteError)
        : errors.storageFailure('Cannot read events for statistics.', e),
    );
  };

  return {
    compute(principal, input, options = {}) {
      const parsed = parseStatsQuery(toParams(input), principal.account.time_zone, clock.now());
      if (parsed.isErr()) return errAsync(errors.badRequest('The statistics query is not valid.', parsed.error));
      const q = parsed.value;
      // Whether the zone's intervals split a stored hour is asked of the stored hours (in
      // groupRollupCells), not of every hour in the range: the cost follows the data.
      const fields = q.groupBy.filter((k) => !(ROLLUP_KEYS as readonly string[]).includes(k));
      const needsEvents = q.rules.length > 0 || q.interval === 'minutely' || q.start % HOUR !== 0 || q.end % HOUR !== 0;
      if (needsEvents || fields.length > 1) return fromEvents(principal, q, options.signal);
      if (fields.length === 1) return fromFieldRollups(principal, q, fields[0] as string, options.signal);
      return fromRollups(principal, q, options.signal);
    },
    rollupFields(principal) {
      return trackedFields(storage, principal.account.id);
    },
    setRollupFields(principal, input) {
      const store = storage.fieldRollups;
      const valid = validateRollupFields(input);
      if (valid.isErr()) return errAsync(errors.badRequest('The rolled-up fields are not valid.', valid.error));
      if (!store) return errAsync(errors.badRequest('This storage keeps no field rollups.', []));
      return trackedFields(storage, principal.account.id)
        .map((prior) => nextTracked(prior, valid.value, clock.now()))
        .andThen((next) => store.setFields(principal.account.id, next).map(() => next));
    },
  };
}
