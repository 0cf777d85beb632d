import { describe, expect, it } from 'vitest';
import { MAX_REASON_LENGTH, parseOccurredAt, validateFeedback } from './input';

const NOW = Date.parse('2026-03-01T12:00:00Z');

describe('parseOccurredAt', () => {
  it.each([
    ['2026-01-15T10:00:00Z', '2026-01-15T10:00:00.000Z'],
    ['2026-01-15T10:00:00+05:30', '2026-01-15T04:30:00.000Z'],
    ['2026-01-15T10:00:00-0800', '2026-01-15T18:00:00.000Z'],
    ['2026-01-15T10:00:00', '2026-01-15T10:00:00.000Z'],
    ['2026-01-15 10:00:00', '2026-01-15T10:00:00.000Z'],
    ['2026-01-15', '2026-01-15T00:00:00.000Z'],
    ['20260115', '2026-01-15T00:00:00.000Z'],
    ['  2026-01-15T10:00Z ', '2026-01-15T10:00:00.000Z'],
  ])('reads %s as %s (no offset means UTC)', (text, iso) => {
    expect(new Date(parseOccurredAt(text) as number).toISOString()).toBe(iso);
  });

  it.each(['', 'yesterday', '2026-02-30', '2026-13-01', '2026-01-15T25:00', '01/15/2026', '2026-01-15T10:00:00+25:00'])(
    'cannot read %j',
    (text) => {
      expect(parseOccurredAt(text)).toBeUndefined();
    },
  );

  it.each([1_736_935_200_000, null, {}, ['2026-01-15']])('reads no non-string such as %j', (value) => {
    expect(parseOccurredAt(value)).toBeUndefined();
  });
});

describe('validateFeedback', () => {
  it('accepts the two types, trimmed and in any case, with the receipt time by default', () => {
    expect(validateFeedback({ type: ' Return ', reason: ' Bad phone ' }, NOW)._unsafeUnwrap()).toEqual({
      type: 'return',
      reason: 'Bad phone',
      occurred_at: '2026-03-01T12:00:00.000Z',
    });
    expect(validateFeedback({ type: 'conversion', reason: 7 }, NOW)._unsafeUnwrap()).toMatchObject({
      type: 'conversion',
      reason: '7',
    });
    expect(validateFeedback({ type: 'conversion', reason: null, occurred_at: '' }, NOW)._unsafeUnwrap()).toEqual({
      type: 'conversion',
      reason: '',
      occurred_at: '2026-03-01T12:00:00.000Z',
    });
  });

  it.each([
    [{}, 'type is required: conversion or return.'],
    [{ type: '' }, 'type is required: conversion or return.'],
    [{ type: 'refund' }, 'type must be conversion or return.'],
    [{ type: ['return', 'return'] }, 'type must be conversion or return.'],
    [{ type: 'return', reason: { x: 1 } }, 'reason must be a string.'],
    [{ type: 'return', reason: ['a', 'b'] }, 'reason must be a string.'],
  ])('refuses %j', (input, message) => {
    expect(validateFeedback(input, NOW)._unsafeUnwrapErr()).toBe(message);
  });

  it('#19.11 keeps the first 1,000 characters of a longer reason and says how long it was, never splitting a character', () => {
    const long = validateFeedback({ type: 'return', reason: 'x'.repeat(MAX_REASON_LENGTH + 500) }, NOW)._unsafeUnwrap();
    expect(long).toMatchObject({ reason: 'x'.repeat(MAX_REASON_LENGTH), reasonCutFrom: MAX_REASON_LENGTH + 500 });
    expect(
      validateFeedback({ type: 'return', reason: 'x'.repeat(MAX_REASON_LENGTH) }, NOW)._unsafeUnwrap(),
    ).not.toHaveProperty('reasonCutFrom');
    // An emoji (two UTF-16 units) across the cut is dropped whole, not halved.
    const emoji = validateFeedback(
      { type: 'return', reason: `${'x'.repeat(MAX_REASON_LENGTH - 1)}😀tail` },
      NOW,
    )._unsafeUnwrap();
    expect(emoji.reason).toBe('x'.repeat(MAX_REASON_LENGTH - 1));
  });

  it('keeps a readable occurred_at and warns about an unreadable one, using the receipt time', () => {
    expect(validateFeedback({ type: 'return', occurred_at: '2026-02-01' }, NOW)._unsafeUnwrap()).toEqual({
      type: 'return',
      reason: '',
      occurred_at: '2026-02-01T00:00:00.000Z',
    });
    const warned = validateFeedback({ type: 'return', occurred_at: 'last tuesday' }, NOW)._unsafeUnwrap();
    expect(warned.occurred_at).toBe('2026-03-01T12:00:00.000Z');
    expect(warned.warning).toBe('occurred_at last tuesday is not an ISO 8601 time; the time of receipt was used.');
    expect(validateFeedback({ type: 'return', occurred_at: 5 }, NOW)._unsafeUnwrap().warning).toMatch(
      /^occurred_at 5 is not/,
    );
  });
});
