import {
  documentTerms,
  phraseText,
  SEARCH_FIELDS,
  SEARCH_SORT_FIELDS,
  type SearchDocument,
  searchSortKey,
} from '@leadroute/core';
import { toDate } from './documents';
import type { SearchDoc } from './records-work';

/**
 * Every field's phrase text (core's `phraseText`: ` w1 w2 `), fields apart by a line
 * break: a phrase (words joined by single spaces) is held by a field exactly when
 * ` <phrase> ` occurs in this text.
 */
export const documentPhraseText = (doc: SearchDocument): string =>
  SEARCH_FIELDS.map((field) => phraseText(field, doc.fields[field])).join('\n');

/** The key each sortable field sorts by: normalized text, '' when the lead has none. */
export function sortKeys(doc: SearchDocument): Record<string, string> {
  const keys: Record<string, string> = {};
  for (const field of SEARCH_SORT_FIELDS) keys[field] = searchSortKey(doc, field);
  return keys;
}

/** The lead's index entry; `seq` is its place in the order indexed (a re-indexed lead becomes the newest). */
export const searchDocument = (doc: SearchDocument, seq: number): SearchDoc => ({
  _id: { account_id: doc.account_id, lead_id: doc.lead_id },
  account_id: doc.account_id,
  terms: documentTerms(doc),
  phrase_text: documentPhraseText(doc),
  sort_keys: sortKeys(doc),
  seq,
  expires_at: toDate(doc.expires_at),
  document: { ...doc, fields: { ...doc.fields } },
});

export const toSearchDocument = (d: SearchDoc): SearchDocument => ({ ...d.document, fields: { ...d.document.fields } });
