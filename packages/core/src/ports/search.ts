import type { ResultAsync } from 'neverthrow';
import type { Id } from '../ids';
import type { LeadRecord } from './leads';
import type { StoreError } from './store-error';

/** The lead fields search matches and sorts on (DESIGN.md "Search"). */
export const SEARCH_FIELDS = [
  'first_name',
  'last_name',
  'email',
  'phone_1',
  'phone_2',
  'address_1',
  'city',
  'state',
  'postal_code',
  'reference',
] as const;
export type SearchField = (typeof SEARCH_FIELDS)[number];

/** What results can be ordered by besides relevance. */
export const SEARCH_SORT_FIELDS = ['lead_id', 'submission_timestamp', ...SEARCH_FIELDS] as const;
export type SearchSortField = (typeof SEARCH_SORT_FIELDS)[number];

/** One lead as the index holds it: what a hit shows besides its latest event. */
export interface SearchDocument
  extends Pick<
    LeadRecord,
    'account_id' | 'flow_id' | 'flow_name' | 'source_id' | 'source_name' | 'submission_timestamp'
  > {
  readonly lead_id: Id;
  /** Each search field as text ('' when the lead has none). */
  readonly fields: Readonly<Record<SearchField, string>>;
  /** The event the lead was indexed from (its source event). */
  readonly event_id: Id;
  readonly expires_at: string;
}

/**
 * A phrase: its normalized tokens (each must match a whole term) and its normalized text (matched at word boundaries).
 */
export interface SearchPhrase {
  readonly tokens: readonly string[];
  readonly text: string;
}

/**
 * A query as core hands it to the index: tokens already normalized by
 * `searchTokens` (see `search/tokens.ts`), so every adapter matches alike.
 */
export interface SearchIndexQuery {
  readonly account_id: Id;
  /** Each must prefix some term of the lead (AND). None: every lead of the account. */
  readonly terms: readonly string[];
  /** Each must occur as written in one field (AND). */
  readonly phrases: readonly SearchPhrase[];
  /** Absent: relevance (more terms matching a whole term first), then newest first. */
  readonly sort?: { readonly field: SearchSortField; readonly dir: 'asc' | 'desc' };
  readonly from: number;
  readonly limit: number;
}

/** One page of matches and how many there are, counted up to `SEARCH_MAX_REACHABLE`. */
export interface SearchIndexPage {
  /**
   * How many leads match, up to `SEARCH_MAX_REACHABLE` (1,000, the spec's "search total
   * reachable results"): an index stops counting there (the testkit's SearchIndex suite holds it to that).
   */
  readonly total: number;
  readonly documents: SearchDocument[];
}

/**
 * The lead search index: per account, follows leads as their source events are
 * recorded. Memory uses MiniSearch's radix tree; PostgreSQL `tsvector` prefix
 * queries; MongoDB an indexed array of the same normalized terms.
 */
export interface SearchIndex {
  /** Adds a lead, or replaces the document of a lead already indexed. */
  index(document: SearchDocument): ResultAsync<void, StoreError>;
  search(query: SearchIndexQuery): ResultAsync<SearchIndexPage, StoreError>;
  /** Forgets leads whose `expires_at` is before `before`; the number forgotten. */
  purgeExpired(before: string): ResultAsync<number, StoreError>;
}
