import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { typeLead } from './lead';
import { resolvePath } from './path';
import { compileTemplate, tryCompileTemplate } from './template';

const typed = typeLead({ first_name: 'Jonathan', email: 'Bob@Example.com', phone_1: '(212) 555-0123', state: 'Texas' });
const ctx = {
  lead: {
    ...typeLead({ first_name: 'Jonathan', email: 'Bob@Example.com', phone_1: '(212) 555-0123', state: 'Texas' }),
    amount: '1234.5',
    created: '2024-06-15T03:00:00Z',
    tags: ['a', 'b'],
  },
  source: { name: 'Acme' },
};

describe('compileTemplate', () => {
  it('yields the typed value itself for one whole variable', () => {
    expect(compileTemplate('{{ lead.email }}')(ctx)).toEqual(typed.email);
    expect(compileTemplate(' {{lead.tags}} ')(ctx)).toBe(ctx.lead.tags);
    expect(compileTemplate('{{ lead.phone_1.area }}')(ctx)).toBe('212');
  });

  it('joins text and values, using normal forms', () => {
    expect(compileTemplate('Hi {{ lead.first_name }} from {{ lead.state }}, {{ lead.missing }}!')(ctx)).toBe(
      'Hi Jonathan from TX, !',
    );
    expect(compileTemplate('no template')(ctx)).toBe('no template');
  });

  it.each([
    ['{{ lowercase lead.first_name }}', 'jonathan'],
    ['{{ uppercase source.name }}', 'ACME'],
    ['{{ substring lead.first_name 0 3 }}', 'Jon'],
    ['{{ uppercase (substring lead.first_name 1) }}', 'ONATHAN'],
    ['{{ replace lead.first_name "n" "N" }}', 'JoNathaN'],
    ['{{ replace lead.first_name "/[aeiou]/" "_" }}', 'J_n_th_n'],
    ['{{ extract lead.email "@(.+)$" }}', 'example.com'],
    ['{{ extract lead.email "/^B/i" 0 }}', 'b'],
    ['{{ extract lead.email "zzz" }}', ''],
    ['{{ format lead.created "yyyy-MM-dd HH:mm" "America/New_York" }}', '2024-06-14 23:00'],
    ['{{ format lead.created "yyyy-MM-dd" }}', '2024-06-15'],
    ['{{ format lead.amount "#,##0.00" }}', '1,234.50'],
    ['{{ format lead.amount "0" }}', '1,235'.replace(',', '')],
    ['{{ math lead.amount + 0.5 }}', 1235],
    ['{{ math lead.amount "*" 2 }}', 2469],
    ['{{ math lead.amount round }}', 1235],
    ['{{ math lead.amount floor -2 }}', 1200],
    ['{{ math lead.amount "/" 0 }}', null],
    ['{{ math lead.first_name + 1 }}', null],
    // Hashes of the normal form, so lists built from raw e-mails in any case match.
    ['{{ hash lead.email "md5" }}', createHash('md5').update('bob@example.com').digest('hex')],
    ['{{ hash lead.email "sha1" }}', createHash('sha1').update('bob@example.com').digest('hex')],
    ['{{ hash "abc" }}', 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'],
    [
      '{{ hash "abc" "sha512" }}',
      'ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f',
    ],
    ['{{ hash "abc" "crc32" }}', ''],
  ])('%s', (source, expected) => {
    expect(compileTemplate(source)(ctx)).toEqual(expected);
  });

  it('compiles once and caches', () => {
    expect(compileTemplate('{{ lead.state }}')).toBe(compileTemplate('{{ lead.state }}'));
  });

  it('reports malformed templates as values', () => {
    expect(tryCompileTemplate('{{ lead.a').isErr()).toBe(true);
    expect(tryCompileTemplate('{{ uppercase (lead.a }}')._unsafeUnwrapErr()).toContain('missing ")"');
    expect(tryCompileTemplate('{{ lead.a lead.b }}')._unsafeUnwrapErr()).toContain('unexpected text');
    expect(() => compileTemplate('{{ }}')).toThrow(/empty expression/);
  });
});

describe('resolvePath', () => {
  it('walks own properties only', () => {
    expect(resolvePath(ctx, 'lead.phone_1.exchange')).toBe('555');
    expect(resolvePath(ctx, 'lead.tags.1')).toBe('b');
    expect(resolvePath(ctx, 'lead.nothing.here')).toBeUndefined();
    expect(resolvePath(ctx, 'lead.constructor')).toBeUndefined();
  });
});
