export { highlight } from './highlight';
export {
  parseSearchQuery,
  SEARCH_DEFAULT_LIMIT,
  SEARCH_MAX_LIMIT,
  SEARCH_MAX_REACHABLE,
  type SearchQuery,
} from './params';
export { createSearchApi, type SearchApi, type SearchHit, type SearchResult, searchDocument } from './service';
export {
  documentTerms,
  documentTokens,
  fieldTerms,
  fieldTokens,
  holdsPhrase,
  normalizeText,
  type ParsedSearch,
  parseSearchText,
  phoneDigits,
  phraseText,
  searchSortKey,
  words,
} from './tokens';
