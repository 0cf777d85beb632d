import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SEARCH_FIELDS } from '../ports/search';
import { fieldTerms, fieldTokens, phraseText } from './tokens';

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
