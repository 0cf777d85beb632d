import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SEARCH_FIELDS, type SearchDocument } from '../ports/search';
import { documentTokens, fieldTerms, fieldTokens, phraseLines, phraseText } from './tokens';

describe('fieldTokens', () => {
  it('#22 reads a field once into exactly its terms and its phrase words', () => {
    const text = fc.oneof(
      fc.string(),
      fc.string({ unit: 'grapheme' }),
      fc.constantFrom('', '(512) 555-0142', '+1 512 555 0142', 'José Núñez', 'ada.lovelace@example.com', '  '),
    );
    fc.assert(
      fc.property(fc.constantFrom(...SEARCH_FIELDS), text, (field, value) => {
        const { terms, words } = fieldTokens(field, value);
        expect(terms).toEqual(fieldTerms(field, value));
        expect(` ${words.join(' ')} `).toBe(phraseText(field, value));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('phraseLines', () => {
  it("is each field's phraseText, one field a line, from the words documentTokens read", () => {
    const fields = Object.fromEntries(SEARCH_FIELDS.map((f) => [f, ''])) as SearchDocument['fields'];
    const doc: SearchDocument = {
      lead_id: 'a'.repeat(24),
      account_id: 'b'.repeat(24),
      flow_id: 'c'.repeat(24),
      flow_name: 'F',
      source_id: 'd'.repeat(24),
      source_name: 'S',
      submission_timestamp: '2026-01-01T00:00:00.000Z',
      event_id: 'e'.repeat(24),
      expires_at: '2027-01-01T00:00:00.000Z',
      fields: { ...fields, first_name: 'José  Núñez', phone_1: '(512) 555-0142', email: 'ada.lovelace@example.com' },
    };
    const text = phraseLines(documentTokens(doc).words);
    expect(text).toBe(SEARCH_FIELDS.map((f) => phraseText(f, doc.fields[f])).join('\n'));
    expect(text.split('\n')).toHaveLength(SEARCH_FIELDS.length);
  });
});
