import { err, ok, type Result } from 'neverthrow';
import type { Issue } from '../errors';
import type { SearchSortField } from '../ports/search';
import { queryValidator } from '../schemas/define';
import { SEARCH_DEFAULT_LIMIT, SEARCH_MAX_REACHABLE, SearchQueryParams } from '../schemas/queries';
import { type ParsedSearch, parseSearchText } from './tokens';

export {
  SEARCH_DEFAULT_LIMIT,
  SEARCH_MAX_LIMIT,
  SEARCH_MAX_REACHABLE,
} from '../schemas/queries';
const MAX_TERMS = 32;
const checkParams = queryValidator(
  SearchQueryParams,
  `is not a search parameter (use ${Object.keys(SearchQueryParams.properties).join(', ')})`,
);

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
  const checked = checkParams(params);
  if (checked.isErr()) return err(checked.error);
  const { query: text = '', sort_by, sort_dir, from = 0, limit = SEARCH_DEFAULT_LIMIT } = checked.value;
  const issues: Issue[] = [];
  const bad = (name: string, message: string) => issues.push({ path: `/${name}`, message: `${name} ${message}.` });
  const parsed = parseSearchText(text);
  if (parsed.terms.length + parsed.phrases.length > MAX_TERMS)
    bad('query', `may hold at most ${MAX_TERMS} terms and phrases`);
  if (from + limit > SEARCH_MAX_REACHABLE)
    bad(
      'from',
      `plus limit must be at most ${SEARCH_MAX_REACHABLE}: only the first ${SEARCH_MAX_REACHABLE} results are reachable`,
    );
  if (sort_dir !== undefined && sort_by === undefined) bad('sort_dir', 'needs sort_by (relevance has one order)');
  if (issues.length > 0) return err(issues);
  return ok({
    text,
    parsed,
    ...(sort_by !== undefined ? { sort: { field: sort_by, dir: sort_dir ?? 'asc' } } : {}),
    from,
    limit,
  });
}
