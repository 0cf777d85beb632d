import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { StoredEvent } from '../domain/events';
import { compileRules } from '../rules';
import { compileColumns, eventPath, formatInstant, rulesOnEvents } from './columns';

const ZONES = [
  'America/New_York',
  'Europe/London',
  'Australia/Lord_Howe',
  'Asia/Kathmandu',
  'Pacific/Chatham',
  'America/St_Johns',
  'UTC',
  'Asia/Tehran',
];

describe('formatInstant', () => {
  // Intl's wall clock is the oracle: date-fns-tz's formatInTimeZone reads the process zone
  // (under TZ=America/New_York it writes London's 02:00 of 2026-03-08 as 03:00).
  const wall = (ms: number, timeZone: string) =>
    new Intl.DateTimeFormat('sv-SE', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    }).format(ms);

  it('writes legacy dates exactly as Intl shows the wall clock, across DST changes in odd zones', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: Date.UTC(2020, 0, 1), max: Date.UTC(2030, 0, 1) }),
        fc.constantFrom(...ZONES),
        (ms, timeZone) => {
          expect(formatInstant(ms, { format: 'legacy', timeZone })).toBe(wall(ms, timeZone));
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('is right on both sides of a transition', () => {
    const springForward = Date.UTC(2026, 2, 8, 7); // 03:00 EDT, a second after 01:59:59 EST
    const style = { format: 'legacy', timeZone: 'America/New_York' } as const;
    expect(formatInstant(springForward - 1000, style)).toBe('2026-03-08 01:59:59');
    expect(formatInstant(springForward, style)).toBe('2026-03-08 03:00:00');
    expect(formatInstant(springForward, { format: 'standard', timeZone: 'America/New_York' })).toBe(
      '2026-03-08T07:00:00.000Z',
    );
  });
});

describe('compileColumns', () => {
  const event = {
    id: 'a'.repeat(24),
    type: 'source',
    outcome: 'success',
    account_id: 'b'.repeat(24),
    start_timestamp: Date.UTC(2026, 0, 1),
    vars: {
      lead: { email: 'x@y.co', n: 0, ok: false, at: '2026-01-01T00:00:00+01:00', day: '2026-01-01' },
      outcome: 'shadowed',
    },
  } as unknown as StoredEvent;
  const row = (fields: string[]) => compileColumns(fields, { format: 'standard', timeZone: 'UTC' })(event);

  it('reads event fields first and vars otherwise, the same value by either path', () => {
    expect(row(['outcome', 'lead.email', 'vars.lead.email', 'vars.outcome'])).toEqual([
      'success',
      'x@y.co',
      'x@y.co',
      'shadowed',
    ]);
  });

  it('writes zero, false, missing values, date-times and dates as they should read', () => {
    expect(row(['lead.n', 'lead.ok', 'lead.none', 'nothing.at.all', 'lead.at', 'lead.day', 'start_timestamp'])).toEqual(
      ['0', 'false', '', '', '2025-12-31T23:00:00.000Z', '2026-01-01', '2026-01-01T00:00:00.000Z'],
    );
  });

  it('never shows the account ID, and inherited members are not fields', () => {
    expect(row(['account_id', 'lead.constructor', 'lead.email.length'])).toEqual(['', '', '']);
  });

  it('gives rules the event fields, and vars under bare paths, through nested sets', () => {
    const rules = rulesOnEvents([
      { id: 'aaaaaa', lhv: 'lead.email', op: 'is equal to', rhv: 'x@y.co' },
      {
        id: 'bbbbbb',
        op: 'or',
        rules: [
          {
            id: 'cccccc',
            lhv: 'outcome',
            op: 'is equal to',
            rhv: 'success',
            rule_set: { id: 'dddddd', op: 'and', rules: [{ id: 'eeeeee', lhv: 'vars.outcome', op: 'is blank' }] },
          },
        ],
      },
      { id: 'ffffff', lhv: '{{lead.email}}', op: 'is blank' },
    ]);
    expect(JSON.stringify(rules)).toContain('"lhv":"vars.lead.email"');
    expect(JSON.stringify(rules)).toContain('"lhv":"outcome"');
    expect(JSON.stringify(rules)).toContain('"lhv":"vars.outcome"');
    expect(JSON.stringify(rules)).toContain('"lhv":"{{lead.email}}"');
    expect(compileRules(rules.slice(0, 1), 'and')(event as unknown as Record<string, unknown>).pass).toBe(true);
    expect(eventPath('account_id')).toBe('vars.account_id');
  });
});
