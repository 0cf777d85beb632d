import { describe, expect, it } from 'vitest';
import type { Rhv } from '../../domain/rules';
import { decide, typed } from './decide.test-helper';

type Case = readonly [label: string, value: unknown, rhv: Rhv, expected: boolean];

/** Each case is decided by `op` and by its exact complement `negation`. */
function table(op: string, negation: string, cases: readonly Case[]) {
  describe(op, () => {
    it.each(cases)('%s', (_label, value, rhv, expected) => {
      expect(decide(value, op, rhv)).toBe(expected);
      expect(decide(value, negation, rhv)).toBe(!expected);
    });
  });
}

table('is included in', 'is not included in', [
  ['array rhv, any case', 'tx', ['TX', 'CA'], true],
  ['comma text rhv', 'CA', 'TX, CA', true],
  ['not a member', 'FL', 'TX,CA', false],
  ['substring is not membership', 'T', 'TX,CA', false],
  ['number in numeric text', 5, '1,5,9', true],
  ['numeric text in numbers', '9', [1, 5, 9], true],
  ['typed state by name', typed('state', 'Texas'), ['TX', 'CA'], true],
  ['rhv names read as states', typed('state', 'TX'), 'Texas, California', true],
  ['typed phone', typed('phone', '212-555-0123'), ['(212) 555-0123'], true],
  ['list value wholly included', ['TX', 'ca'], 'TX,CA,FL', true],
  ['list value partly included', ['TX', 'NY'], 'TX,CA,FL', false],
  ['empty list', [], 'TX', false],
  ['blank', undefined, 'TX', false],
  ['blank text', '  ', 'TX', false],
  ['dates by calendar day', typed('date', '2024-06-15T20:00:00-04:00'), ['2024-06-15', '2024-06-16'], true],
]);

table('includes', 'does not include', [
  ['list membership', ['red', 'Green'], 'green', true],
  ['list without it', ['red'], 'green', false],
  ['list, any of several', ['red'], ['green', 'red'], true],
  ['list of numbers vs numeric text', [1, 2], '2', true],
  ['substring, any case', 'Hello World', 'WORLD', true],
  ['substring absent', 'Hello', 'bye', false],
  ['any of several substrings', 'Hello', ['x', 'ell'], true],
  ['typed email domain', typed('email', 'Bob@Gmail.com'), '@gmail.', true],
  ['typed phone digits', typed('phone', '(212) 555-0123'), '555', true],
  ['number as text', 12345, '234', true],
  ['blank', undefined, 'a', false],
]);

table('matches pattern', 'does not match pattern', [
  ['#19.3 an unslashed pattern is a regular expression', 'AB-123', '^AB-\\d{3}$', true],
  ["#19.3 anchors are the pattern's own", 'AB-1234', '^AB-\\d{3}$', false],
  ['#19.3 unanchored, it searches the text', 'ref AB-123 ok', 'AB-\\d{3}', true],
  ['#19.3 /…/i flag', 'AB', '/ab/i', true],
  ['#19.3 case-sensitive unless flagged', 'AB', '/ab/', false],
  ['#19.3 inline (?i) flag', 'AB', '(?i)^ab$', true],
  ['#19.3 s flag lets . match a newline', 'a\nb', '/^a.b$/s', true],
  ['#19.3 m flag anchors lines', 'x\nab', '/^ab$/m', true],
  ['#19.3 . is a regex metacharacter, not a literal', 'axb', 'a.b', true],
  ['#19.3 JavaScript \\u escapes', 'A', '^\\u0041$', true],
  ['regex with flags', 'abc-123', '/^[A-Z]{3}-\\d+$/i', true],
  ['any of several patterns', 'x@yahoo.com', ['@gmail\\.com$', '@yahoo\\.com$'], true],
  ['list value, any element', ['a', 'bb'], '/^b+$/', true],
  ['typed value matches its normal form', typed('phone', '(212) 555-0123'), '^\\+1212', true],
  ['component path value', typed('email', 'bob@gmail.com').domain, '^gmail\\.', true],
  ['number as text', 12345, '^123', true],
  ['blank against .*', undefined, '.*', true],
  ['blank against text', undefined, 'a', false],
]);

table('matches glob', 'does not match glob', [
  ['#19.3 glob, any case', 'Bob@GMAIL.com', '*@gmail.com', true],
  ['#19.3 glob is anchored', 'Bob@gmail.com.evil', '*@gmail.com', false],
  ['#19.3 glob ?', 'cat', 'c?t', true],
  ['#19.3 glob . is literal', 'axb', 'a.b', false],
  ['glob escapes regex characters', 'a+b(c)', 'a+b(c)', true],
  ['any of several globs', 'x@yahoo.com', ['*@gmail.com', '*@yahoo.com'], true],
  ['typed value matches its normal form', typed('phone', '(212) 555-0123'), '+1212*', true],
  ['blank against *', undefined, '*', true],
]);

type UnaryCase = readonly [label: string, value: unknown, expected: boolean];

function unary(op: string, negation: string, cases: readonly UnaryCase[]) {
  describe(op, () => {
    it.each(cases)('%s', (_label, value, expected) => {
      expect(decide(value, op)).toBe(expected);
      expect(decide(value, negation)).toBe(!expected);
    });
  });
}

unary('is blank', 'is not blank', [
  ['missing', undefined, true],
  ['null', null, true],
  ['empty text', '', true],
  ['whitespace', '   ', true],
  ['empty list', [], true],
  ['typed blank', typed('email', ''), true],
  ['typed invalid is not blank', typed('email', 'nope'), false],
  ['zero', 0, false],
  ['false', false, false],
  ['text', 'a', false],
]);

unary('is true', 'is not true', [
  ['true', true, true],
  ['yes', 'Yes', true],
  ['y', 'y', true],
  ['t', 'T', true],
  ['1', 1, true],
  ['typed boolean', typed('boolean', 'TRUE'), true],
  ['false', 'no', false],
  ['blank is not true', undefined, false],
  ['other text', 'maybe', false],
]);

unary('is false', 'is not false', [
  ['false', false, true],
  ['no', 'NO', true],
  ['n', 'n', true],
  ['f', 'f', true],
  ['0', '0', true],
  ['typed boolean', typed('boolean', 'false'), true],
  ['true', 'yes', false],
  ['blank is not false', '', false],
]);

unary('format is valid', 'format is invalid', [
  ['valid email', typed('email', 'a@b.com'), true],
  ['invalid email', typed('email', 'a@b'), false],
  ['valid phone', typed('phone', '2125550123'), true],
  ['invalid phone', typed('phone', '555-1234'), false],
  ['valid zip', typed('postal_code', '12345'), true],
  ['invalid state', typed('state', 'XX'), false],
  ['valid dob', typed('dob', '1990-01-01'), true],
  ['invalid date', typed('date', 'someday'), false],
  ['valid range', typed('range', '1-2'), true],
  ['valid ip', typed('ip', '10.0.0.1'), true],
  ['invalid ssn', typed('ssn', '000-12-3456'), false],
  ['valid url', typed('url', 'https://example.com'), true],
  ['blank typed', typed('phone', ''), false],
  ['untyped text', 'x', true],
  ['untyped blank', undefined, false],
]);

unary('is obscene', 'is not obscene', [
  ['profanity', 'what the fuck', true],
  ['obfuscated', 'sh1t', true],
  ['typed value', typed('string', 'Shit Head'), true],
  ['clean', 'hello there', false],
  ['Scunthorpe problem avoided', 'Scunthorpe', false],
  ['blank', undefined, false],
  ['list with one obscene element', ['fine', 'fuck'], true],
]);
