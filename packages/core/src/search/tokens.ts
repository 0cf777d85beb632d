import {
  SEARCH_FIELDS,
  type SearchDocument,
  type SearchField,
  type SearchPhrase,
  type SearchSortField,
} from '../ports/search';

/** Runs of letters or of digits: `smith123` is two words, so an e-mail address is not one unique term. */
const WORD = /\p{L}+|\p{N}+/gu;

/** Lower case without diacritics: what every term and query token is compared in. */
export function normalizeText(text: string): string {
  // Most lead data is ASCII, which has nothing to decompose.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the whole ASCII range, control characters included.
  return /^[\x00-\x7f]*$/.test(text) ? text.toLowerCase() : text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
}

/** The words of a text, normalized, in order. */
export function words(text: string): string[] {
  return normalizeText(text).match(WORD) ?? [];
}

/** A phone's digits without a leading US country code. */
export function phoneDigits(text: string): string {
  const digits = text.replace(/\D/g, '');
  return digits.length === 11 && digits.startsWith('1') ? digits.slice(1) : digits;
}

/**
 * The terms a field is indexed under. Phones are digits, not prose: the whole
 * number and its exchange and line parts, so `555 123` and `(555) 123-4567` both
 * find 5551234567 by prefix. E-mails index their words (`john.smith@example.com`
 * is john, smith, example, com) rather than one unique term per address, which
 * would make every short prefix expand to a term per lead.
 */
export function fieldTerms(field: SearchField, value: string): string[] {
  if (value === '') return [];
  if (field === 'phone_1' || field === 'phone_2') {
    const d = phoneDigits(value);
    if (d.length === 0) return words(value);
    return d.length === 10 ? [d, d.slice(3), d.slice(6)] : [d];
  }
  return words(value);
}

/** The parts of a query: prefix terms (all must match) and exact phrases. */
export interface ParsedSearch {
  readonly terms: string[];
  readonly phrases: SearchPhrase[];
}

/**
 * Reads a search query: double-quoted phrases match as written (case- and
 * accent-insensitive, at word boundaries); every other word is a prefix term.
 * Punctuation separates words (`555-123` is two terms), an unpaired quote is
 * punctuation.
 */
export function parseSearchText(query: string): ParsedSearch {
  const phrases: SearchPhrase[] = [];
  const rest = query.replace(/"([^"]*)"/g, (_m, inner: string) => {
    const tokens = words(inner);
    if (tokens.length > 0) phrases.push({ tokens, text: tokens.join(' ') });
    return ' ';
  });
  return { terms: [...new Set(words(rest))], phrases };
}

/**
 * Whether a field's text holds a phrase at word boundaries: the field's words,
 * joined by single spaces, contain the phrase's words in order.
 */
export function holdsPhrase(field: SearchField, value: string, phrase: SearchPhrase): boolean {
  return phraseText(field, value).includes(` ${phrase.text} `);
}

/** A field's words as phrases are matched in: between single spaces, and a space at each end (see {@link holdsPhrase}). */
const spaced = (words: readonly string[]): string => ` ${words.join(' ')} `;

/** A field's text as phrases are matched in: its words between single spaces; an index can keep it per lead. */
export function phraseText(field: SearchField, value: string): string {
  return spaced(fieldWords(field, value));
}

/** A field's words for phrases: a phone's digits as one word (as well as its written groups). */
function fieldWords(field: SearchField, value: string): string[] {
  return field === 'phone_1' || field === 'phone_2' ? [phoneDigits(value), '|', ...words(value)] : words(value);
}

/**
 * A field's terms ({@link fieldTerms}) and its words for phrases (what {@link phraseText} joins), its text read once:
 * beside a phone's, they are the same words.
 */
export function fieldTokens(field: SearchField, value: string): { terms: string[]; words: string[] } {
  if (field === 'phone_1' || field === 'phone_2')
    return { terms: fieldTerms(field, value), words: fieldWords(field, value) };
  const same = words(value);
  return { terms: same, words: same };
}

/**
 * A lead's search terms, each once (its lead ID, lower-cased, and each field's terms), and each field's words for
 * phrases, its fields read once: what every index finds a lead by.
 */
export function documentTokens(doc: SearchDocument): { terms: string[]; words: string[][] } {
  const terms = new Set<string>([doc.lead_id.toLowerCase()]);
  const words: string[][] = [];
  for (const field of SEARCH_FIELDS) {
    const tokens = fieldTokens(field, doc.fields[field]);
    for (const t of tokens.terms) terms.add(t);
    words.push(tokens.words);
  }
  return { terms: [...terms], words };
}

/**
 * A lead's phrase text from its fields' words ({@link documentTokens}): each field's as {@link phraseText} has it
 * (` w1 w2 `), fields apart by a line break. A phrase (words joined by single spaces, never a line break) is held by a
 * field exactly when ` <phrase> ` occurs in this text, as {@link holdsPhrase} has it.
 */
export const phraseLines = (words: readonly (readonly string[])[]): string => words.map(spaced).join('\n');

/**
 * What a lead sorts by on `field`: its lead ID and submission time as they are, a field's text normalized and trimmed
 * ('' when it has none, which every index puts last).
 */
export function searchSortKey(doc: SearchDocument, field: SearchSortField): string {
  return field === 'lead_id' || field === 'submission_timestamp' ? doc[field] : normalizeText(doc.fields[field]).trim();
}
