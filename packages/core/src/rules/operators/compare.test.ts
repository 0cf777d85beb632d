import { describe, expect, it } from 'vitest';
import type { Rhv } from '../../domain/rules';
import { decide, ENV, NOW, typed } from './decide.test-helper';

type Case = readonly [label: string, value: unknown, rhv: Rhv, expected: boolean];

/** Each case is decided by `op`, and by its exact complement `negation` when there is one. */
function table(op: string, negation: string | null, cases: readonly Case[]) {
  describe(op, () => {
    it.each(cases)('%s', (_label, value, rhv, expected) => {
      expect(decide(value, op, rhv)).toBe(expected);
      if (negation) expect(decide(value, negation, rhv)).toBe(!expected);
    });
  });
}

table('is equal to', 'is not equal to', [
  ['text, any case', 'Hello', 'hELLO', true],
  ['text differs', 'Hello', 'help', false],
  ['text trimmed', ' a ', 'a', true],
  ['numeric text equals number', '42', 42, true],
  ['number equals numeric text', 42, '42.0', true],
  ['leading-zero text stays text', '01234', 1234, false],
  ['typed number with commas', typed('number', '1,000'), '1000', true],
  ['boolean typed reads yes', typed('boolean', 'Y'), 'yes', true],
  ['boolean typed vs false', typed('boolean', 'Y'), false, false],
  ['blank equals blank', undefined, '', true],
  ['blank vs text', undefined, 'x', false],
  ['state code vs name', typed('state', 'TX'), 'texas', true],
  ['state name vs code', typed('state', 'Texas'), 'tx', true],
  ['invalid state compares as text', typed('state', 'Narnia'), 'narnia', true],
  ['phone formats', typed('phone', '(212) 555-0123'), '212.555.0123', true],
  ['phone differs', typed('phone', '(212) 555-0123'), '2125550124', false],
  ['email case', typed('email', 'Bob@Example.com'), 'BOB@example.COM', true],
  ['zip+4 vs zip', typed('postal_code', '12345-6789'), '12345', true],
  ['gender words', typed('gender', 'Female'), 'f', true],
  ['street abbreviations', typed('street', '1 Main Street'), '1 main st', true],
  ['range by its normal form', typed('range', '18 - 24'), '18-24', true],
  ['date by calendar day in the zone', typed('date', '2024-06-15T03:00:00Z'), '2024-06-14', true],
  ['date by instant when rhv has a time', typed('date', '2024-06-15T03:00:00Z'), '2024-06-14 23:00', true],
  ['date instant differs', typed('date', '2024-06-15T03:00:00Z'), '2024-06-14 23:01', false],
  ['component path value', typed('phone', '2125550123').area, 212, true],
  ['arrays unordered', ['b', 'A'], ['a', 'B'], true],
  ['arrays of different length', ['a'], ['a', 'b'], false],
  ['array vs comma text', ['a', 'b'], 'b, a', true],
  ['typed array', typed('state', ['Texas', 'CA']), ['ca', 'tx'], true],
]);

table('is less than', null, [
  ['numbers', 5, 10, true],
  ['equal numbers', 10, 10, false],
  ['numeric text', '9', '10', true],
  ['money text', '$1,500', 2000, true],
  ['typed number', typed('number', '1,500'), 1000, false],
  ['range compares its average', typed('range', '10-20'), 16, true],
  ['dob against a number is age', typed('dob', '2010-01-01'), 18, true],
  ['dates', typed('date', '2024-01-01'), '2024-02-01', true],
  ['dates across zones', typed('date', '2024-01-01T04:00:00Z'), '2024-01-01T00:00:00-05:00', true],
  ['plain date text', '2024-03-01', '2024-02-01', false],
  ['times of day', typed('time', '9:00 AM'), '13:00', true],
  ['text alphabetically', 'apple', 'Banana', true],
  ['blank never compares', undefined, 10, false],
  ['invalid number never compares', typed('number', 'abc'), 10, false],
]);

// Ordering operators have no exact complement: a blank or incomparable value fails both sides.
table('is less than or equal to', null, [
  ['equal', 10, '10', true],
  ['less', 9, 10, true],
  ['greater', 11, 10, false],
  ['range average equal', typed('range', '10-20'), 15, true],
  ['dates equal', typed('date', '2024-01-01T00:00:00Z'), '2024-01-01T00:00:00Z', true],
]);

table('is greater than or equal to', null, [
  ['equal', 10, 10, true],
  ['greater numeric text', '11', 10, true],
  ['less', 9, 10, false],
  ['dob age 18 today', typed('dob', '2006-06-15'), 18, true],
]);

table('is greater than', null, [
  ['numbers', 11, 10, true],
  ['numeric text vs number', '9.5', 9, true],
  ['equal', 10, 10, false],
  ['range average', typed('range', '$50k-$100k'), 70000, true],
  ['dates', typed('date', '2024-06-15'), '2024-06-14', true],
]);

table('is between', 'is not between', [
  ['inside min-max text', 30, '18-65', true],
  ['inclusive low', 18, '18-65', true],
  ['inclusive high', '65', '18-65', true],
  ['outside', 66, '18-65', false],
  ['two-element array', 5, [1, 10], true],
  ['reversed bounds', 5, [10, 1], true],
  ['negative bounds', -5, '-10 - 0', true],
  ['money range', '$60,000', '$50,000-$75,000', true],
  ['range average', typed('range', '60-90'), '18-65', false],
  ['dates', typed('date', '2024-06-01'), ['2024-05-01', '2024-07-01'], true],
  ['dates outside', typed('date', '2024-08-01'), ['2024-05-01', '2024-07-01'], false],
  ['blank', '', '1-10', false],
]);

table('is before', null, [
  ['earlier', typed('date', '2024-01-01'), '2024-01-02', true],
  ['later', typed('date', '2024-01-03'), '2024-01-02', false],
  ['zone matters: New York midnight is 05:00Z in winter', typed('date', '2024-01-02T04:30:00Z'), '2024-01-02', true],
  ['just after New York midnight', typed('date', '2024-01-02T05:30:00Z'), '2024-01-02', false],
  ['plain text date', '2023-12-31', '2024-01-01', true],
  ['US format', '12/31/2023', '2024-01-01T00:00:00Z', true],
  ['blank', undefined, '2024-01-01', false],
]);

table('is after', null, [
  ['later', typed('date', '2024-01-03'), '2024-01-02', true],
  ['earlier', typed('date', '2023-01-03'), '2024-01-02', false],
  ['epoch seconds', 1_718_452_800, '2024-06-01', true],
  ['invalid date', typed('date', 'soon'), '2024-01-02', false],
]);

table('is within the last', 'is not within the last', [
  ['30 minutes ago within 1 hour', new Date(NOW - 30 * 60_000).toISOString(), '1 hour', true],
  ['2 hours ago not within 1 hour', new Date(NOW - 2 * 3_600_000).toISOString(), '1 hour', false],
  ['yesterday within 2 days', typed('date', '2024-06-14'), '2 days', true],
  ['a month ago not within 3 weeks', typed('date', '2024-05-15'), '3 weeks', false],
  ['a month ago within 2 months', typed('date', '2024-05-15'), '2 months', true],
  ['a minor is born within the last 18 years', typed('dob', '2010-01-01'), '18 years', true],
  ['an adult is not', typed('dob', '2000-01-01'), '18 years', false],
  ['18 today is not within 18 years', typed('dob', '2006-06-15'), '18 years', false],
  ['future dates are not within', typed('date', '2024-07-01'), '1 year', false],
  ['blank', '', '30 days', false],
]);

describe('relative dates need the service clock', () => {
  it('matches nothing without now', () => {
    const env = { now: Number.NaN, timeZone: 'UTC' };
    expect(decide(typed('date', '2024-06-14'), 'is within the last', '2 days', env)).toBe(false);
    expect(decide(typed('date', '2024-06-14'), 'is not within the last', '2 days', env)).toBe(true);
  });

  it('steps calendar units in the zone across a DST change', () => {
    // 2024-03-10 is the spring-forward day in New York: one calendar day is 23 hours.
    const env = { now: Date.parse('2024-03-11T12:00:00-04:00'), timeZone: ENV.timeZone };
    expect(decide('2024-03-10T12:30:00-04:00', 'is within the last', '1 day', env)).toBe(true);
    expect(decide('2024-03-10T11:30:00-04:00', 'is within the last', '1 day', env)).toBe(false);
  });
});
