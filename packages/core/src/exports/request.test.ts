import { describe, expect, it } from 'vitest';
import { EXPORTS_DEFAULT_LIMIT, parseExportInstant, parseExportList, parseExportRequest } from './request';

const NY = 'America/New_York';

describe('parseExportInstant', () => {
  it('reads offsets as given and wall times in the account zone', () => {
    expect(parseExportInstant('2026-03-01T00:00:00Z', NY)).toBe(Date.UTC(2026, 2, 1));
    expect(parseExportInstant('2026-03-01T00:00:00+02:00', NY)).toBe(Date.UTC(2026, 1, 28, 22));
    expect(parseExportInstant('2026-03-01', NY)).toBe(Date.UTC(2026, 2, 1, 5));
    expect(parseExportInstant('2026-07-01T08:30', NY)).toBe(Date.UTC(2026, 6, 1, 12, 30));
    expect(parseExportInstant('2026-07-01 08:30:00', NY)).toBe(Date.UTC(2026, 6, 1, 12, 30));
  });

  it('refuses what is not a date', () => {
    for (const bad of [
      '',
      'yesterday',
      '2026-13-01',
      '2026-02-30T00:00:00Z',
      1772323200000,
      null,
      '2026-03-01T25:00:00Z',
    ])
      expect(parseExportInstant(bad, NY), String(bad)).toBeUndefined();
  });
});

describe('parseExportRequest', () => {
  const base = { start: '2026-03-01T00:00:00Z', end: '2026-03-02T00:00:00Z', fields: ['id'] };

  it('keeps only the readable fields, with defaults', () => {
    const parsed = parseExportRequest(
      { ...base, status: 'complete', id: 'x', fields: [' id ', 'lead.email'], email_to: ['a@b.co', 'a@b.co'] },
      NY,
    )._unsafeUnwrap();
    expect(parsed).toEqual({
      start: Date.UTC(2026, 2, 1),
      end: Date.UTC(2026, 2, 2),
      fields: ['id', 'lead.email'],
      filter_rules: [],
      email_to: ['a@b.co'],
      standard_dates: false,
    });
  });

  it('gives rules IDs and validates them', () => {
    const parsed = parseExportRequest(
      { ...base, filter_rules: [{ lhv: 'lead.state', op: 'is equal to', rhv: 'TX' }], standard_dates: true },
      NY,
    )._unsafeUnwrap();
    expect(parsed.filter_rules[0]).toMatchObject({
      lhv: 'lead.state',
      rhv: 'TX',
      id: expect.stringMatching(/^[0-9a-zA-Z]{6}$/),
    });
    expect(parsed.standard_dates).toBe(true);
  });

  it('reports every problem with its path', () => {
    const issues = parseExportRequest(
      { start: 'x', end: '2026-03-02', fields: [], email_to: 'a@b.co', filter_rules: {}, standard_dates: 1 },
      NY,
    )._unsafeUnwrapErr();
    expect(issues.map((i) => i.path).sort()).toEqual([
      '/email_to',
      '/fields',
      '/filter_rules',
      '/standard_dates',
      '/start',
    ]);
    expect(parseExportRequest({ ...base, end: base.start }, NY)._unsafeUnwrapErr()).toEqual([
      { path: '/end', message: expect.stringContaining('after start') },
    ]);
    expect(
      parseExportRequest({ ...base, fields: Array.from({ length: 501 }, (_, i) => `f${i}`) }, NY)._unsafeUnwrapErr()[0]
        ?.path,
    ).toBe('/fields');
    expect(parseExportRequest('{}', NY)._unsafeUnwrapErr()[0]?.path).toBe('');
  });
});

describe('parseExportList', () => {
  const q = (s: string) => parseExportList(new URLSearchParams(s));
  it('defaults the page size and reads IDs in lower case', () => {
    expect(q('')._unsafeUnwrap()).toEqual({ limit: EXPORTS_DEFAULT_LIMIT });
    expect(q(`limit=100&before_id=${'A'.repeat(24)}&after_id=${'b'.repeat(24)}`)._unsafeUnwrap()).toEqual({
      limit: 100,
      before_id: 'a'.repeat(24),
      after_id: 'b'.repeat(24),
    });
    expect(q('limit=1')._unsafeUnwrap().limit).toBe(1);
  });
  it('refuses limits outside 1..100, repeated parameters and malformed IDs', () => {
    for (const bad of [
      'limit=0',
      'limit=101',
      'limit=-1',
      'limit=1.5',
      'limit=',
      'limit=1&limit=1',
      'before_id=1',
      'after_id=',
    ])
      expect(q(bad).isErr(), bad).toBe(true);
  });
});
