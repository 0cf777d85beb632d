import { SEARCH_FIELDS, type SearchDocument, type SearchField } from '../ports/search';
import { fieldTerms, holdsPhrase, normalizeText, type ParsedSearch } from './tokens';

const WORD = /\p{L}+|\p{N}+/gu;
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * What matched, per field: the words of the field (as written) that a term
 * prefixes, the whole number of a matched phone, and the text of a matched
 * phrase. Fields with no match are left out.
 */
export function highlight(doc: SearchDocument, parsed: ParsedSearch): Partial<Record<SearchField, string[]>> {
  const out: Partial<Record<SearchField, string[]>> = {};
  for (const field of SEARCH_FIELDS) {
    const value = doc.fields[field];
    if (value === '') continue;
    const found = new Set<string>();
    const phone = field === 'phone_1' || field === 'phone_2';
    if (phone) {
      const terms = fieldTerms(field, value);
      if (parsed.terms.some((t) => terms.some((x) => x.startsWith(t)))) found.add(value);
    } else {
      for (const word of value.match(WORD) ?? []) {
        const norm = normalizeText(word);
        if (parsed.terms.some((t) => norm.startsWith(t))) found.add(word);
      }
    }
    for (const phrase of parsed.phrases) {
      if (!holdsPhrase(field, value, phrase)) continue;
      const written = new RegExp(phrase.tokens.map(escapeRegExp).join('[^\\p{L}\\p{N}]*'), 'iu').exec(value);
      found.add(phone ? value : (written?.[0] ?? phrase.text));
    }
    if (found.size > 0) out[field] = [...found];
  }
  return out;
}
