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
  documentTokens,
  fieldTerms,
  fieldTokens,
  holdsPhrase,
  normalizeText,
  type ParsedSearch,
  parseSearchText,
  phoneDigits,
  phraseLines,
  phraseText,
  searchSortKey,
  words,
} from './tokens';
