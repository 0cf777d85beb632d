import { documentTokens, phraseLines, SEARCH_SORT_FIELDS, type SearchDocument, searchSortKey } from '@leadroute/core';
import { toDate } from './documents';
import type { SearchDoc } from './records-work';

/** The key each sortable field sorts by: normalized text, '' when the lead has none. */
export function sortKeys(doc: SearchDocument): Record<string, string> {
  const keys: Record<string, string> = {};
  for (const field of SEARCH_SORT_FIELDS) keys[field] = searchSortKey(doc, field);
  return keys;
}

/** The lead's index entry; `seq` is its place in the order indexed (a re-indexed lead becomes the newest). */
export function searchDocument(doc: SearchDocument, seq: number): SearchDoc {
  // The fields are read once for both the terms and the phrase text (core's `phraseLines`).
  const { terms, words } = documentTokens(doc);
  return {
    _id: { account_id: doc.account_id, lead_id: doc.lead_id },
    account_id: doc.account_id,
    terms,
    phrase_text: phraseLines(words),
    sort_keys: sortKeys(doc),
    seq,
    expires_at: toDate(doc.expires_at),
    document: { ...doc, fields: { ...doc.fields } },
  };
}

export const toSearchDocument = (d: SearchDoc): SearchDocument => ({ ...d.document, fields: { ...d.document.fields } });
