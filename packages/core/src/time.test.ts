import { afterEach, describe, expect, it } from 'vitest';
import {
  canonicalTimeZone,
  formatInZone,
  isTimeZone,
  timeZoneCacheSize,
  wallTime,
  ZONE_CACHE_LIMIT,
  zonedInstant,
} from './time';

describe('time zones', () => {
  it('#18.14 200,000 bogus zone names leave the zone cache bounded, and real zones still answer', () => {
    // Made-up areas are refused without Intl; one name in a hundred is in a real area and is asked (and remembered).
    let accepted = 0;
    for (let i = 0; i < 200_000; i++)
      if (isTimeZone(i % 100 === 0 ? `America/Bogus_${i}` : `Bogus/Zone_${i}`)) accepted++;
    expect(accepted).toBe(0);
    expect(timeZoneCacheSize()).toBeLessThanOrEqual(ZONE_CACHE_LIMIT);
    // Valid names in any case are kept by their canonical spelling only.
    for (let i = 0; i < 5000; i++) isTimeZone(i % 2 ? 'america/new_york' : `AMERICA/NEW_YORK${'/x'.repeat(i % 3)}`);
    expect(timeZoneCacheSize()).toBeLessThanOrEqual(ZONE_CACHE_LIMIT);
    expect(canonicalTimeZone('america/new_york')).toBe('America/New_York');
    expect(isTimeZone('Europe/London')).toBe(true);
  });
});

describe('#18.14 zone arithmetic whatever the process time zone', () => {
  const saved = process.env.TZ;
  afterEach(() => {
    if (saved === undefined) delete process.env.TZ;
    else process.env.TZ = saved;
  });

  it.each(['America/New_York', 'Europe/London', 'Australia/Lord_Howe', 'UTC'])(
    '#18.14 wall times become the same instants with process.env.TZ=%s',
    (zone) => {
      const processZone = zone;
      process.env.TZ = processZone;
      // Repeated: the first occurrence; skipped: read with the offset before the change.
      expect(new Date(zonedInstant('Europe/London', 2024, 10, 27, 1, 30)).toISOString()).toBe(
        '2024-10-27T00:30:00.000Z',
      );
      expect(new Date(zonedInstant('America/New_York', 2024, 11, 3, 1, 30)).toISOString()).toBe(
        '2024-11-03T05:30:00.000Z',
      );
      expect(new Date(zonedInstant('America/New_York', 2024, 3, 10, 2, 30)).toISOString()).toBe(
        '2024-03-10T07:30:00.000Z',
      );
      expect(new Date(zonedInstant('Europe/London', 2024, 3, 31, 1, 30)).toISOString()).toBe(
        '2024-03-31T01:30:00.000Z',
      );
      expect(new Date(zonedInstant('UTC', 2024, 10, 6, 2, 15)).toISOString()).toBe('2024-10-06T02:15:00.000Z');
      // Lord Howe skips half an hour (02:00 → 02:30 local): 02:15 is read as 02:45.
      expect(new Date(zonedInstant('Australia/Lord_Howe', 2024, 10, 6, 2, 15)).toISOString()).toBe(
        '2024-10-05T15:45:00.000Z',
      );
      // Every half hour from March to November 2024 in London and New York reads back to
      // itself, but for the second occurrence of a repeated time, which reads back an hour earlier.
      const misread: string[] = [];
      for (const zone of ['Europe/London', 'America/New_York']) {
        for (let t = Date.UTC(2024, 2, 1); t < Date.UTC(2024, 10, 10); t += 30 * 60_000) {
          const w = wallTime(t, zone);
          const back = zonedInstant(zone, w.year, w.month, w.day, w.hour, w.minute);
          if (back !== t) misread.push(`${zone} ${new Date(t).toISOString()} ${(t - back) / 60_000} min`);
        }
      }
      expect(misread).toEqual([
        'Europe/London 2024-10-27T01:00:00.000Z 60 min',
        'Europe/London 2024-10-27T01:30:00.000Z 60 min',
        'America/New_York 2024-11-03T06:00:00.000Z 60 min',
        'America/New_York 2024-11-03T06:30:00.000Z 60 min',
      ]);
      expect(formatInZone(Date.parse('2024-03-31T01:30:00Z'), 'Europe/London', "yyyy-MM-dd'T'HH:mm:ssXXX")).toBe(
        '2024-03-31T02:30:00+01:00',
      );
      expect(wallTime(Date.parse('2024-03-10T07:30:00Z'), 'America/New_York')).toMatchObject({
        year: 2024,
        month: 3,
        day: 10,
        hour: 3,
        minute: 30,
        weekday: 7,
      });
    },
  );
});
