import { errAsync, ResultAsync } from 'neverthrow';
import type { Principal } from '../context';
import { errors, type LeadrouteError } from '../errors';
import { toEventRecord } from '../events/service';
import type { EventRecord, StoredEvent } from '../domain/events';
import type { Clock } from '../ports/clock';
import { SEARCH_FIELDS, type SearchDocument, type SearchField } from '../ports/search';
import type { Storage } from '../ports/storage';
import { isoTime } from '../time';
import { highlight } from './highlight';
import { parseSearchQuery } from './params';

/** One search hit (spec "Lead search result"). */
export interface SearchHit extends Record<SearchField, string> {
  readonly lead_id: string;
  readonly flow_id: string;
  readonly flow_name: string;
  readonly source_id: string;
  readonly source_name: string;
  readonly submission_timestamp: string;
  /** Matched text per field (see `highlight`). */
  readonly highlight: Partial<Record<SearchField, string[]>>;
  /** The lead's latest event, or null once it is past retention. */
  readonly latest_event: EventRecord | null;
}

/** The search answer: how many leads match (up to the 1,000 reachable) and one page of hits. */
export interface SearchResult {
  /** Matching leads, counted up to `SEARCH_MAX_REACHABLE` (the index's count): 1,000 means 1,000 or more. */
  readonly total: number;
  readonly hits: SearchHit[];
}

/** The `search` sub-API: full-text lead search (GET /search/leads). */
export interface SearchApi {
  /**
   * The account's leads matching `query`: every term by prefix (AND), quoted
   * phrases as written, case-insensitive; by relevance unless `sort_by`. `from`
   * and `limit` (default 10, at most 100) page through the first 1,000 matches.
   */
  leads(
    principal: Principal,
    params: URLSearchParams | Record<string, string>,
    options?: { readonly signal?: AbortSignal },
  ): ResultAsync<SearchResult, LeadrouteError>;
  /** Forgets leads past retention; how many. */
  purgeExpired(): ResultAsync<number, LeadrouteError>;
}

const text = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');
const obj = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' ? (v as Record<string, unknown>) : {});

/** The search document of a lead, from its source event (a full snapshot of the lead as submitted). */
export function searchDocument(event: StoredEvent): SearchDocument {
  const lead = obj(event.vars.lead);
  const fields = {} as Record<SearchField, string>;
  for (const f of SEARCH_FIELDS) fields[f] = text(lead[f]).trim();
  const submitted = text(obj(event.vars.submission).timestamp);
  return {
    lead_id: event.lead_id,
    account_id: event.account_id,
    flow_id: event.flow_id,
    flow_name: text(obj(event.vars.flow).name),
    source_id: event.source_id,
    source_name: text(obj(event.vars.source).name),
    submission_timestamp: submitted || isoTime(event.start_timestamp),
    fields,
    event_id: event.id,
    expires_at: event.expires_at,
  };
}

export function createSearchApi(deps: { storage: Storage; clock: Clock }): SearchApi {
  const { storage, clock } = deps;
  const latest = (doc: SearchDocument, now: string): ResultAsync<EventRecord | null, LeadrouteError> =>
    storage.leads
      .get(doc.lead_id)
      .andThen((lead) =>
        storage.events.get(lead && lead.account_id === doc.account_id ? lead.latest_event_id : doc.event_id),
      )
      .map((event) =>
        event && event.account_id === doc.account_id && event.expires_at > now ? toEventRecord(event) : null,
      );
  return {
    leads(principal, input, options = {}) {
      const parsed = parseSearchQuery(input instanceof URLSearchParams ? input : new URLSearchParams(input));
      if (parsed.isErr()) return errAsync(errors.badRequest('The search query is not valid.', parsed.error));
      const q = parsed.value;
      const now = isoTime(clock.now());
      return storage.search
        .search({
          account_id: principal.account.id,
          terms: q.parsed.terms,
          phrases: q.parsed.phrases,
          ...(q.sort ? { sort: q.sort } : {}),
          from: q.from,
          limit: q.limit,
        })
        .andThen((page) =>
          // Up to 100 lookups per page follow: skip them when the client has gone.
          options.signal?.aborted
            ? errAsync(errors.aborted())
            : ResultAsync.combine(
                page.documents
                  // The index is per account; checking again costs nothing and no adapter bug can leak a lead.
                  .filter((doc) => doc.account_id === principal.account.id)
                  .map((doc) =>
                    latest(doc, now).map(
                      (latest_event): SearchHit => ({
                        lead_id: doc.lead_id,
                        flow_id: doc.flow_id,
                        flow_name: doc.flow_name,
                        source_id: doc.source_id,
                        source_name: doc.source_name,
                        ...doc.fields,
                        submission_timestamp: doc.submission_timestamp,
                        highlight: highlight(doc, q.parsed),
                        latest_event,
                      }),
                    ),
                  ),
              ).map((hits) => ({ total: page.total, hits })),
        );
    },
    purgeExpired() {
      return storage.search.purgeExpired(isoTime(clock.now()));
    },
  };
}
