import fc from 'fast-check';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { describe, expect, it } from 'vitest';
import { typeLead } from '../lead';
import { isEmailAddress } from './email';
import { parseValue } from './parse';
import { parsePhone } from './phone';

const NOW = Date.UTC(2024, 5, 15, 12); // 2024-06-15T12:00Z

describe('parseValue', () => {
  it.each([
    ['string', '  hello ', true, 'hello'],
    ['string', '', false, ''],
    ['number', '1,234.50', true, 1234.5],
    ['number', '$1,000', true, 1000],
    ['number', 42, true, 42],
    ['number', 'abc', false, null],
    ['boolean', 'Yes', true, true],
    ['boolean', 't', true, true],
    ['boolean', '1', true, true],
    ['boolean', 'NO', true, false],
    ['boolean', 'f', true, false],
    ['boolean', 0, true, false],
    ['boolean', 'maybe', false, null],
    ['email', ' Bob@Example.COM ', true, 'bob@example.com'],
    ['email', 'bob@example', false, 'bob@example'],
    ['email', 'not an email', false, 'not an email'],
    ['phone', '(212) 555-0123', true, '+12125550123'],
    ['phone', '555-1234', false, '+15551234'],
    ['phone', 'call me', false, ''],
    ['postal_code', '12345-6789', true, '12345'],
    ['postal_code', 'k1a0b1', true, 'K1A 0B1'],
    ['postal_code', 'sw1a1aa', true, 'SW1A 1AA'],
    ['postal_code', '1234', false, '1234'],
    ['state', 'Texas', true, 'TX'],
    ['state', 'tx', true, 'TX'],
    ['state', 'British Columbia', true, 'BC'],
    ['state', 'Narnia', false, 'NARNIA'],
    ['street', '123 Main Street.', true, '123 MAIN ST'],
    ['gender', 'female', true, 'F'],
    ['gender', 'M', true, 'M'],
    ['gender', 'unknown', false, 'unknown'],
    ['ip', '192.168.0.1', true, '192.168.0.1'],
    ['ip', '2001:DB8::1', true, '2001:db8::1'],
    ['ip', '999.1.1.1', false, '999.1.1.1'],
    ['ssn', '123-45-6789', true, '123456789'],
    ['ssn', '666-45-6789', false, '666456789'],
    ['url', 'https://Example.com/a?b=1', true, 'https://example.com/a?b=1'],
    ['url', 'ftp://example.com', false, 'ftp://example.com/'],
    ['url', 'nope', false, 'nope'],
    ['range', '18-24', true, '18-24'],
    ['range', 'junk', false, 'junk'],
    ['time', '2:30 PM', true, '14:30:00'],
    ['time', '25:00', false, '25:00'],
  ] as const)('%s %j → valid %s, normal %j', (type, raw, valid, normal) => {
    const value = parseValue(type, raw);
    expect(value).toMatchObject({ type, raw, valid, normal });
  });

  it('splits a phone into components with type hints', () => {
    expect(parseValue('phone', '212-555-0123 ext. 45')).toMatchObject({
      country_code: '1',
      area: '212',
      area_code: '212',
      exchange: '555',
      line: '0123',
      extension: '45',
      toll_free: false,
    });
    expect(parseValue('phone', '1-800-555-1234')).toMatchObject({ toll_free: true, kind: 'TOLL_FREE', area: '800' });
    expect(parseValue('phone', '+44 20 7946 0958')).toMatchObject({
      valid: true,
      country_code: '44',
      country: 'GB',
      area: null,
      area_code: null,
    });
  });

  it('splits an e-mail and a postal code', () => {
    expect(parseValue('email', 'Jane.Doe@Mail.Example.co.uk')).toMatchObject({
      user: 'jane.doe',
      domain: 'mail.example.co.uk',
      host: 'mail.example.co',
      tld: 'uk',
    });
    expect(parseValue('postal_code', '12345 6789')).toMatchObject({
      zip5: '12345',
      plus4: '6789',
      full: '12345-6789',
      country: 'US',
    });
  });

  it('reads ranges with min, max, avg and mid', () => {
    expect(parseValue('range', '$50,000 - $75,000')).toMatchObject({ min: 50000, max: 75000, avg: 62500, mid: 62500 });
    expect(parseValue('range', '100+')).toMatchObject({ valid: true, min: 100, max: null, avg: 100 });
    expect(parseValue('range', 'under 18')).toMatchObject({ min: null, max: 18, avg: 18 });
    expect(parseValue('range', '25 to 20')).toMatchObject({ min: 20, max: 25, avg: 22.5, mid: 22 });
  });

  it('reads dates in a time zone, with calendar components there', () => {
    const ny = parseValue('date', '2024-03-10 01:30', { timeZone: 'America/New_York' });
    expect(ny).toMatchObject({
      valid: true,
      normal: '2024-03-10T06:30:00.000Z',
      date: '2024-03-10',
      hour: 1,
      has_time: true,
    });
    const us = parseValue('date', '03/10/2024', { timeZone: 'America/Los_Angeles' });
    expect(us).toMatchObject({ normal: '2024-03-10T08:00:00.000Z', weekday: 7, has_time: false });
    expect(parseValue('date', '2024-03-10T23:30:00Z', { timeZone: 'Asia/Tokyo' })).toMatchObject({
      date: '2024-03-11',
    });
    expect(parseValue('date', 1_700_000_000)).toMatchObject({ normal: '2023-11-14T22:13:20.000Z' });
    expect(parseValue('date', 'yesterday')).toMatchObject({ valid: false, epoch: null });
  });

  it('gives a date of birth an age at the service clock', () => {
    expect(parseValue('dob', '06/15/2006', { now: NOW })).toMatchObject({ valid: true, age: 18, normal: '2006-06-15' });
    expect(parseValue('dob', '2006-06-16', { now: NOW })).toMatchObject({ age: 17 });
    expect(parseValue('dob', '1990-01-01')).toMatchObject({ valid: true, age: null });
    expect(parseValue('dob', '2090-01-01', { now: NOW })).toMatchObject({ valid: false });
  });

  it('checks consent-certificate URLs', () => {
    const id = 'a'.repeat(40);
    expect(parseValue('trustedform_cert_url', `https://cert.trustedform.com/${id}`)).toMatchObject({
      valid: true,
      cert_id: id,
    });
    expect(parseValue('trustedform_cert_url', `http://cert.trustedform.com/${id}`)).toMatchObject({ valid: false });
    expect(parseValue('trustedform_cert_url', 'https://example.com/abc')).toMatchObject({
      valid: false,
      cert_id: null,
    });
  });

  it('parses arrays element by element', () => {
    expect(parseValue('state', ['Texas', 'ca'])).toMatchObject({ valid: true, normal: ['TX', 'CA'] });
    expect(parseValue('number', ['1', 'x'])).toMatchObject({ valid: false, normal: [1, null] });
  });

  it('never rejects odd input', () => {
    for (const raw of [undefined, null, {}, [], Number.NaN, true]) {
      expect(parseValue('phone', raw).valid).toBe(false);
      expect(parseValue('date', raw).raw).toBe(raw);
    }
  });
});

describe('typeLead', () => {
  it('types standard and declared fields, strings otherwise, objects untouched', () => {
    const lead = typeLead(
      { email: 'A@B.com', phone_1: '2125550123', loan_amount: '5,000', favorite: 'blue', extra: { a: 1 } },
      [{ id: 'lead.loan_amount', type: 'number' }],
    );
    expect(lead.email).toMatchObject({ type: 'email', normal: 'a@b.com' });
    expect(lead.phone_1).toMatchObject({ type: 'phone', area: '212' });
    expect(lead.loan_amount).toMatchObject({ type: 'number', normal: 5000 });
    expect(lead.favorite).toMatchObject({ type: 'string', normal: 'blue' });
    expect(lead.extra).toEqual({ a: 1 });
  });

  it('#22 parses a field only when it is first read, then keeps the value', () => {
    const lead = typeLead({ phone_1: '2125550123', state: 'texas' });
    expect(Object.getOwnPropertyDescriptor(lead, 'phone_1')?.get, 'not parsed before it is read').toBeTypeOf(
      'function',
    );
    const first = lead.phone_1;
    expect(first).toMatchObject({ type: 'phone', area: '212' });
    expect(Object.getOwnPropertyDescriptor(lead, 'phone_1')?.value, 'kept after the first read').toBe(first);
    expect(lead.phone_1).toBe(first);
    expect(Object.keys(lead)).toEqual(['phone_1', 'state']);
    expect({ ...lead }).toEqual({ phone_1: first, state: parseValue('state', 'texas') });
    lead.state = 'replaced';
    expect(lead.state).toBe('replaced');
  });

  it('#22 parses phones and dates on first read and the cheaper types at once', () => {
    const lead = typeLead({ phone_1: '2125550123', dob: '1990-05-01', email: 'A@B.com', state: 'texas', note: 'x' }, [
      { id: 'lead.note', type: 'string' },
    ]);
    const getter = (key: string) => Object.getOwnPropertyDescriptor(lead, key)?.get;
    expect(getter('phone_1')).toBeTypeOf('function');
    expect(getter('dob')).toBeTypeOf('function');
    for (const key of ['email', 'state', 'note']) {
      expect(getter(key), key).toBeUndefined();
      expect(Object.getOwnPropertyDescriptor(lead, key)?.writable, key).toBe(true);
    }
    expect(lead.email).toMatchObject({ type: 'email', normal: 'a@b.com' });
  });

  it('keeps a field named __proto__ or constructor as a field, nested or typed', () => {
    const fields = JSON.parse('{"__proto__": {"polluted": true}, "state": "TX"}') as Record<string, unknown>;
    const lead = typeLead(fields);
    expect(Object.getPrototypeOf(lead)).toBe(Object.prototype);
    expect((lead as { polluted?: unknown }).polluted).toBeUndefined();
    expect(Object.keys(lead)).toEqual(['__proto__', 'state']);
    const typed = typeLead(JSON.parse('{"__proto__": "x"}') as Record<string, unknown>, [
      { id: 'lead.__proto__', type: 'string' },
    ]);
    expect(Object.getPrototypeOf(typed)).toBe(Object.prototype);
    expect(Object.entries(typed)).toMatchObject([['__proto__', { type: 'string', raw: 'x' }]]);
    // Not standard field names: typed as strings, not by Object's members of those names.
    const named = typeLead(JSON.parse('{"__proto__": "a", "constructor": "b"}') as Record<string, unknown>);
    expect(Object.entries(named)[0]).toMatchObject(['__proto__', { type: 'string', raw: 'a' }]);
    expect(named.constructor).toMatchObject({ type: 'string', raw: 'b' });
  });
});

describe('isEmailAddress (RFC 5321 sizes)', () => {
  const local = (n: number) => 'a'.repeat(n);
  // A domain of `length` characters: 63-character labels joined by dots, ending in .com.
  const domain = (length: number) => {
    const labels: string[] = [];
    let left = length - 4;
    while (left > 0) {
      const n = Math.min(63, left);
      labels.push('d'.repeat(n));
      left -= n + 1;
    }
    return `${labels.join('.')}.com`;
  };

  it('#18.18 refuses a 200,000-character local part, as a lead field too', () => {
    const huge = `${local(200_000)}@example.com`;
    expect(isEmailAddress(huge)).toBe(false);
    expect(parseValue('email', huge)).toMatchObject({ valid: false });
  });

  it('#18.18 allows a local part of 64 characters and refuses 65', () => {
    expect(isEmailAddress(`${local(64)}@example.com`)).toBe(true);
    expect(isEmailAddress(`${local(65)}@example.com`)).toBe(false);
    expect(parseValue('email', `${local(65)}@example.com`)).toMatchObject({ valid: false });
  });

  it('#18.18 allows 254 characters in all and refuses 255', () => {
    const at254 = `${local(64)}@${domain(254 - 65)}`;
    expect(at254).toHaveLength(254);
    expect(isEmailAddress(at254)).toBe(true);
    const at255 = `${local(64)}@${domain(255 - 65)}`;
    expect(at255).toHaveLength(255);
    expect(isEmailAddress(at255)).toBe(false);
  });

  it('keeps the shape rules: a TLD of letters, no empty local part, any case', () => {
    expect(isEmailAddress('Ada.Lovelace@Example.COM')).toBe(true);
    expect(isEmailAddress('ada@localhost')).toBe(false);
    expect(isEmailAddress('ada@example.c0m')).toBe(false);
    expect(isEmailAddress('@example.com')).toBe(false);
  });
});

describe('parsePhone validity (#22: asked once through the type)', () => {
  it("is libphonenumber's own isValid for any digits, with or without a country code", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.stringMatching(/^[2-9]\d{9}$/),
          fc.stringMatching(/^\+\d{8,14}$/),
          fc.stringMatching(/^1?[0-9]{7,11}$/),
        ),
        (raw) => {
          const number = parsePhoneNumberFromString(raw, 'US');
          expect(parsePhone(raw).valid).toBe(number?.isValid() ?? false);
        },
      ),
      { numRuns: 2000 },
    );
  });
});
