import { err, ok, type Result } from 'neverthrow';
import type { Issue } from '../errors';
import { SEARCH_SORT_FIELDS, type SearchSortField } from '../ports/search';
import { type ParsedSearch, parseSearchText } from './tokens';

export const SEARCH_DEFAULT_LIMIT = 10;
export const SEARCH_MAX_LIMIT = 100;
/** Spec: at most 1,000 results are reachable by paging; `from + limit` beyond it is a 400. */
export const SEARCH_MAX_REACHABLE = 1000;
const MAX_QUERY = 1000;
const MAX_TERMS = 32;
const PARAMS = new Set(['query', 'sort_by', 'sort_dir', 'from', 'limit']);

/** A validated GET /search/leads query. */
export interface SearchQuery {
  readonly text: string;
  readonly parsed: ParsedSearch;
  readonly sort?: { readonly field: SearchSortField; readonly dir: 'asc' | 'desc' };
  readonly from: number;
  readonly limit: number;
}

/** Validates search parameters, naming every bad one (400). */
export function parseSearchQuery(params: URLSearchParams): Result<SearchQuery, Issue[]> {
  const issues: Issue[] = [];
  const bad = (name: string, message: string) => issues.push({ path: `/${name}`, message: `${name} ${message}.` });
  for (const key of new Set(params.keys())) {
    if (!PARAMS.has(key)) bad(key, `is not a search parameter (use ${[...PARAMS].join(', ')})`);
    else if (params.getAll(key).length > 1) bad(key, 'must be given once');
  }
  const text = params.get('query') ?? '';
  if (text.length > MAX_QUERY) bad('query', `must be at most ${MAX_QUERY} characters`);
  const parsed = parseSearchText(text.slice(0, MAX_QUERY));
  if (parsed.terms.length + parsed.phrases.length > MAX_TERMS)
    bad('query', `may hold at most ${MAX_TERMS} terms and phrases`);

  const int = (name: string, fallback: number, min: number, max: number): number => {
    const v = params.get(name);
    if (v === null) return fallback;
    if (!/^\d{1,7}$/.test(v) || Number(v) < min || Number(v) > max) {
      bad(name, `must be an integer from ${min} to ${max}`);
      return fallback;
    }
    return Number(v);
  };
  const from = int('from', 0, 0, SEARCH_MAX_REACHABLE - 1);
  const limit = int('limit', SEARCH_DEFAULT_LIMIT, 1, SEARCH_MAX_LIMIT);
  if (from + limit > SEARCH_MAX_REACHABLE && issues.length === 0)
    bad(
      'from',
      `plus limit must be at most ${SEARCH_MAX_REACHABLE}: only the first ${SEARCH_MAX_REACHABLE} results are reachable`,
    );

  const sortBy = params.get('sort_by');
  const sortDir = params.get('sort_dir');
  if (sortBy !== null && !(SEARCH_SORT_FIELDS as readonly string[]).includes(sortBy))
    bad('sort_by', `must be one of ${SEARCH_SORT_FIELDS.join(', ')}`);
  if (sortDir !== null && sortDir !== 'asc' && sortDir !== 'desc') bad('sort_dir', 'must be asc or desc');
  if (sortDir !== null && sortBy === null) bad('sort_dir', 'needs sort_by (relevance has one order)');

  if (issues.length > 0) return err(issues);
  return ok({
    text,
    parsed,
    ...(sortBy !== null
      ? { sort: { field: sortBy as SearchSortField, dir: sortDir === 'desc' ? 'desc' : 'asc' } }
      : {}),
    from,
    limit,
  });
}
