import {
  fieldTerms,
  normalizeText,
  parseSearchText,
  phraseText,
  SEARCH_FIELDS,
  SEARCH_MAX_REACHABLE,
  type SearchDocument,
  type SearchSortField,
} from '@leadroute/core';
import { aSearchDocument } from '@leadroute/testkit';
import { describe, expect, it } from 'vitest';
import { memorySearchIndex, type SearchTable } from './search-index';

// The index's fast paths (short-prefix lists, merges, prebuilt sort orders with a
// tail of newer leads, score passes) checked against a brute-force reading of the
// same rules over enough leads to take every path.
const ACCOUNT = 'a'.repeat(24);
const FIRST = ['Ann', 'Annabel', 'Bob', 'Carla', 'Dan', 'Dana', 'Eve', 'Smitty'];
const LAST = ['Smith', 'Smithers', 'Jones', 'Anderson', 'Ann', ''];
const CITY = ['Austin', 'Boston', 'San Diego', 'San Jose', 'Dallas'];

let seed = 1;
const rand = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
const pick = <T>(a: readonly T[]): T => a[Math.floor(rand() * a.length)] as T;

function generated(i: number): SearchDocument {
  const first = pick(FIRST);
  const last = pick(LAST);
  return aSearchDocument(ACCOUNT, {
    first_name: first,
    last_name: last,
    email: `${first.toLowerCase()}${i % 97}@example.com`,
    phone_1: `(512) 555-${String(i % 10000).padStart(4, '0')}`,
    address_1: `${i % 50} Main Street`,
    city: pick(CITY),
    reference: `R${i}`,
  });
}

function oracle(docs: readonly SearchDocument[], text: string, sort?: { field: SearchSortField; dir: 'asc' | 'desc' }) {
  const q = parseSearchText(text);
  const terms = docs.map((d) => SEARCH_FIELDS.flatMap((f) => fieldTerms(f, d.fields[f])).concat(d.lead_id));
  const found = docs
    .map((d, n) => ({ d, n, t: terms[n] as string[] }))
    .filter(
      ({ d, t }) =>
        q.terms.every((x) => t.some((y) => y.startsWith(x))) &&
        q.phrases.every((p) => SEARCH_FIELDS.some((f) => phraseText(f, d.fields[f]).includes(` ${p.text} `))),
    );
  if (sort) {
    const key = (d: SearchDocument) =>
      sort.field === 'lead_id' || sort.field === 'submission_timestamp'
        ? d[sort.field]
        : normalizeText(d.fields[sort.field]).trim();
    const valued = found
      .filter(({ d }) => key(d) !== '')
      .sort((a, b) => (key(a.d) < key(b.d) ? -1 : key(a.d) > key(b.d) ? 1 : a.n - b.n));
    const empty = found.filter(({ d }) => key(d) === '');
    const ordered = sort.dir === 'asc' ? [...valued, ...empty] : [...valued.reverse(), ...empty.reverse()];
    return { total: Math.min(found.length, SEARCH_MAX_REACHABLE), ids: ordered.map(({ d }) => d.lead_id) };
  }
  const score = (t: string[]) => q.terms.filter((x) => t.includes(x)).length;
  const ordered = [...found].sort((a, b) => score(b.t) - score(a.t) || b.n - a.n);
  return { total: Math.min(found.length, SEARCH_MAX_REACHABLE), ids: ordered.map(({ d }) => d.lead_id) };
}

interface SearchExtra {
  readonly sort?: { field: SearchSortField; dir: 'asc' | 'desc' };
  readonly from?: number;
  readonly limit?: number;
}

/** The account's matches for `text`: the total and the page's lead IDs. */
async function searchIds(index: ReturnType<typeof memorySearchIndex>, text: string, extra: SearchExtra = {}) {
  const q = parseSearchText(text);
  const page = (
    await index.search({
      account_id: ACCOUNT,
      terms: q.terms,
      phrases: q.phrases,
      from: extra.from ?? 0,
      limit: extra.limit ?? 100,
      ...(extra.sort ? { sort: extra.sort } : {}),
    })
  )._unsafeUnwrap();
  return { total: page.total, ids: page.documents.map((d) => d.lead_id) };
}

describe('memory search index against a brute-force reading', () => {
  const docs = Array.from({ length: 6000 }, (_, i) => generated(i));
  const index = memorySearchIndex();
  // The memory index indexes synchronously; its ResultAsync is already settled.
  for (const d of docs) void index.index(d);
  const search = (text: string, extra: SearchExtra = {}) => searchIds(index, text, extra);

  it.each([
    'a',
    'an',
    'ann',
    'smi',
    'smith',
    'san d',
    'sa jo',
    '512 555',
    '555-01',
    'ann smith austin',
    '"main street"',
    '"12 main street" a',
    '"san jose" smi',
    '"ann smith"',
    '"dana" smithers 1',
    'r12',
    'zzz',
    '',
  ])('%s: same matches, total and relevance order', async (text) => {
    const want = oracle(docs, text);
    const got = await search(text, { from: 5, limit: 50 });
    expect(got.total).toBe(want.total);
    expect(got.ids).toEqual(want.ids.slice(5, 55));
  });

  it.each([
    ['', 'last_name', 'asc'],
    ['', 'last_name', 'desc'],
    ['a', 'first_name', 'asc'],
    ['s', 'city', 'desc'],
    ['ann', 'reference', 'asc'],
    // Few matches: read off the sorted ranks of the matches rather than by walking the whole order.
    ['dana smithers', 'first_name', 'desc'],
    ['"san jose" smi', 'last_name', 'asc'],
    ['r1', 'phone_2', 'desc'],
  ] as const)(
    '%s sorted by %s %s: the same page as a full sort, also after newer leads arrive',
    async (text, field, dir) => {
      const all = [...docs];
      expect((await search(text, { sort: { field, dir }, from: 10, limit: 90 })).ids).toEqual(
        oracle(all, text, { field, dir }).ids.slice(10, 100),
      );
      for (let i = 0; i < 50; i++) {
        const d = generated(10_000 + i);
        all.push(d);
        (await index.index(d))._unsafeUnwrap();
      }
      expect((await search(text, { sort: { field, dir }, from: 10, limit: 90 })).ids).toEqual(
        oracle(all, text, { field, dir }).ids.slice(10, 100),
      );
      docs.push(...all.slice(docs.length));
    },
  );

  it('forgets replaced leads and compacts without losing any', async () => {
    const ix = memorySearchIndex();
    const first = Array.from({ length: 400 }, (_, i) => generated(i));
    for (const d of first) (await ix.index(d))._unsafeUnwrap();
    // Renaming every lead twice leaves more forgotten entries than live ones: the index rebuilds itself.
    for (const name of ['Quentin', 'Quincy'])
      for (const d of first) (await ix.index({ ...d, fields: { ...d.fields, first_name: name } }))._unsafeUnwrap();
    const q = parseSearchText('qu');
    const page = (
      await ix.search({ account_id: ACCOUNT, terms: q.terms, phrases: [], from: 0, limit: 10 })
    )._unsafeUnwrap();
    expect(page.total).toBe(400);
    expect(page.documents.every((d) => d.fields.first_name === 'Quincy')).toBe(true);
    expect(
      (await ix.search({ account_id: ACCOUNT, terms: ['quentin'], phrases: [], from: 0, limit: 10 }))._unsafeUnwrap()
        .total,
    ).toBe(0);
  });
});

describe('a sorted search after thousands of newer leads', () => {
  it('#22 merges them into the sort order it has, renamed leads moved: the same page as a full sort', async () => {
    const ix = memorySearchIndex();
    // Index order, as the oracle reads it: a renamed lead is forgotten where it was and indexed anew at the end.
    let docs = Array.from({ length: 30_000 }, (_, i) => generated(i));
    for (const d of docs) void ix.index(d);
    const sorted = async (dir: 'asc' | 'desc') =>
      (await searchIds(ix, '', { limit: 30, sort: { field: 'last_name', dir } })).ids;
    expect(await sorted('asc')).toEqual(oracle(docs, '', { field: 'last_name', dir: 'asc' }).ids.slice(0, 30));
    // 2,100 new leads (past the 2,048 that wait unsorted), and 300 of the first renamed.
    const renamed = docs
      .slice(0, 300)
      .map((d, i) => ({ ...d, fields: { ...d.fields, last_name: `Aardvark${i % 7}` } }));
    const added = Array.from({ length: 2100 }, (_, i) => generated(100_000 + i));
    for (const d of [...added, ...renamed]) void ix.index(d);
    const gone = new Set(renamed.map((d) => d.lead_id));
    docs = [...docs.filter((d) => !gone.has(d.lead_id)), ...added, ...renamed];
    expect(await sorted('asc')).toEqual(oracle(docs, '', { field: 'last_name', dir: 'asc' }).ids.slice(0, 30));
    expect(await sorted('desc')).toEqual(oracle(docs, '', { field: 'last_name', dir: 'desc' }).ids.slice(0, 30));
  });
});

describe('compacting after a purge', () => {
  it('#22 builds the copy without the purged leads a slice at a time, and answers the same throughout', async () => {
    const table: SearchTable = new Map();
    const ix = memorySearchIndex(table);
    const at = (i: number) => new Date(Date.UTC(2027, 0, 1) + i * 1000).toISOString();
    let docs = Array.from({ length: 40_000 }, (_, i) => ({ ...generated(i), expires_at: at(i) }));
    for (const d of docs) void ix.index(d);
    const sorted = (text: string, dir: 'asc' | 'desc') =>
      searchIds(ix, text, { limit: 40, sort: { field: 'last_name', dir } });
    const expectedSorted = (text: string, dir: 'asc' | 'desc') => {
      const want = oracle(docs, text, { field: 'last_name', dir });
      return { total: want.total, ids: want.ids.slice(0, 40) };
    };
    // An order of last names, before the purge: the copy carries it rather than sorting again.
    expect(await sorted('', 'asc')).toEqual(expectedSorted('', 'asc'));
    const before = table.get(ACCOUNT);
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    try {
      // A quarter of the leads expire: enough forgotten for a compacted copy.
      expect((await ix.purgeExpired(at(10_000)))._unsafeUnwrap()).toBe(10_000);
      docs = docs.slice(10_000);
      // The purge answered without building the copy; the index answers from what it has meanwhile.
      expect(table.get(ACCOUNT)).toBe(before);
      const search = (text: string) => searchIds(ix, text, { limit: 40 });
      const expected = (text: string) => {
        const want = oracle(docs, text);
        return { total: want.total, ids: want.ids.slice(0, 40) };
      };
      expect(await search('ann smith')).toEqual(expected('ann smith'));
      // Leads indexed, renamed and purged while the copy is built are in it as they should be.
      const added = Array.from({ length: 300 }, (_, i) => ({ ...generated(50_000 + i), expires_at: at(90_000) }));
      for (const d of added) void ix.index(d);
      const renamed = docs.slice(0, 200).map((d) => ({ ...d, fields: { ...d.fields, first_name: 'Quentin' } }));
      for (const d of renamed) void ix.index(d);
      const gone = new Set(renamed.map((d) => d.lead_id));
      docs = [...docs.filter((d) => !gone.has(d.lead_id)), ...added, ...renamed];
      expect((await ix.purgeExpired(at(10_100)))._unsafeUnwrap()).toBe(100);
      docs = docs.filter((d) => d.expires_at >= at(10_100));
      for (let waited = 0; table.get(ACCOUNT) === before && waited < 20_000; waited += 5)
        await new Promise((r) => setTimeout(r, 5));
      const after = table.get(ACCOUNT);
      expect(after).not.toBe(before);
      // The event loop kept turning while the copy was built.
      expect(ticks).toBeGreaterThan(10);
      expect(after?.entries.filter((d) => d !== undefined)).toHaveLength(docs.length);
      for (const text of ['ann smith', 'quentin', 'qu', '"san jose"', 'r1', ''])
        expect(await search(text)).toEqual(expected(text));
      expect(after?.orders.has('last_name')).toBe(true);
      for (const text of ['', 'ann', 'quentin'])
        for (const dir of ['asc', 'desc'] as const) expect(await sorted(text, dir)).toEqual(expectedSorted(text, dir));
    } finally {
      clearInterval(timer);
    }
  });
});

describe('indexing a lead', () => {
  it('#22 makes no sort keys until a search sorts, then only the sorted field’s', async () => {
    const table: SearchTable = new Map();
    const ix = memorySearchIndex(table);
    for (let i = 0; i < 20; i++) (await ix.index(generated(i)))._unsafeUnwrap();
    const keys = (table.get(ACCOUNT) as unknown as { keys: Map<string, string[]> }).keys;
    expect(keys.size).toBe(0);
    const page = (
      await ix.search({
        account_id: ACCOUNT,
        terms: [],
        phrases: [],
        from: 0,
        limit: 5,
        sort: { field: 'last_name', dir: 'asc' },
      })
    )._unsafeUnwrap();
    expect(page.documents).toHaveLength(5);
    expect([...keys.keys()]).toEqual(['last_name']);
    expect(keys.get('last_name')).toHaveLength(20);
  });

  it('#22 looks up the prefix lists of its new terms only: a term seen before knows its prefixes', async () => {
    const table: SearchTable = new Map();
    const ix = memorySearchIndex(table);
    const lead = (i: number) =>
      aSearchDocument(ACCOUNT, { first_name: 'Ada', last_name: 'Lovelace', city: 'Austin', reference: `R${i}` });
    (await ix.index(lead(0)))._unsafeUnwrap();
    const shorts = (table.get(ACCOUNT) as unknown as { short: Map<string, unknown> }).short;
    let lookups = 0;
    const get = shorts.get.bind(shorts);
    shorts.get = (key: string) => (lookups++, get(key));
    for (let i = 1; i <= 50; i++) (await ix.index(lead(i)))._unsafeUnwrap();
    // Each lead brings two new terms (its ID and its reference's number), of up to three prefixes each.
    expect(lookups).toBeLessThanOrEqual(50 * 2 * 3);
    expect(lookups).toBeGreaterThan(0);
    const found = await ix.search({ account_id: ACCOUNT, terms: ['lov', 'au'], phrases: [], from: 0, limit: 100 });
    expect(found._unsafeUnwrap().total).toBe(51);
  });
});
