import {
  SEARCH_FIELDS,
  SEARCH_SORT_FIELDS,
  type SearchDocument,
  type SearchIndex,
  type SearchIndexQuery,
  newId,
  parseSearchText,
  words,
} from '@leadroute/core';
import { memoryStorage } from '@leadroute/memory';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresStorage } from './index';
import { migrations } from './migrations';
import type { Queryable } from './query';
import { qualified, quoteIdent } from './sql';
import { indexDocuments, searchIndex, searchStatement } from './stores/search';
import { databaseAvailable, freshSchema, type TestSchema } from './test-support';

const available = await databaseAvailable('search.test.ts');

/** A small deterministic PRNG (mulberry32), so every run searches the same leads with the same queries. */
function prng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FIRST = ['John', 'Johanna', 'José', 'Ada', 'Adam', 'Zoë', 'Mary Ann', 'Jo', 'Ángel', 'Li'];
const LAST = [
  'Smith',
  'Smithers',
  "O'Brien",
  'Lovelace',
  'Núñez',
  'Johnson',
  'Van der Berg',
  'Li',
  'Adams',
  'Jo-Smith',
];
const CITIES = ['Austin', 'San Antonio', 'New York', 'Saint Paul', 'São Paulo', 'Springfield', 'Anchorage', 'Santa Fe'];
const STATES = ['TX', 'CA', 'NY', 'MN', 'NM', 'AK', 'IL', ''];
const STREETS = ['1 Main St', '12 Main Street', '400 Elm Ave Apt 3', '77 Sunset Blvd', '9 Oak Lane', ''];

function documents(random: () => number, accountId: string, count: number, start: number): SearchDocument[] {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const digits = (n: number) => Array.from({ length: n }, () => Math.floor(random() * 10)).join('');
  return Array.from({ length: count }, (_, i) => {
    const first = pick(FIRST);
    const last = pick(LAST);
    const phone = `${pick(['512', '555', '210'])}${digits(7)}`;
    const phoneFormats = [phone, `(${phone.slice(0, 3)}) ${phone.slice(3, 6)}-${phone.slice(6)}`, `+1 ${phone}`, ''];
    return {
      lead_id: newId(start + i * 1000),
      account_id: accountId,
      flow_id: newId(start),
      flow_name: 'Auto',
      source_id: newId(start + 1),
      source_name: 'Vendor',
      submission_timestamp: new Date(start + Math.floor(random() * 1e9)).toISOString(),
      fields: {
        first_name: first,
        last_name: last,
        email:
          random() < 0.8
            ? `${first}.${last}@${pick(['example.com', 'mail.example.org', 'smith.net'])}`
                .replace(/\s/g, '')
                .toLowerCase()
            : '',
        phone_1: pick(phoneFormats),
        phone_2: random() < 0.3 ? pick(phoneFormats) : '',
        address_1: pick(STREETS),
        city: pick(CITIES),
        state: pick(STATES),
        postal_code: random() < 0.9 ? digits(5) : '',
        reference: random() < 0.5 ? `REF-${digits(4)}` : '',
      },
      event_id: newId(start + i * 1000 + 1),
      expires_at: new Date(start + 90 * 86_400_000 + i).toISOString(),
    };
  });
}

/**
 * Queries built from the leads' own words: prefixes of 1-5 letters, several terms, phrases, phone fragments, sorts and
 * pages.
 */
function queries(
  random: () => number,
  accountId: string,
  docs: readonly SearchDocument[],
  count: number,
): SearchIndexQuery[] {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const texts: string[] = [];
  for (let i = 0; i < count; i++) {
    const doc = pick(docs);
    const field = pick(SEARCH_FIELDS);
    const value = doc.fields[field];
    const w = words(value);
    const prefix = (word: string) => word.slice(0, 1 + Math.floor(random() * 5));
    const shape = Math.floor(random() * 7);
    if (shape === 0) texts.push(w.map(prefix).join(' '));
    else if (shape === 1)
      texts.push(`${prefix(pick(words(doc.fields.first_name)) ?? 'a')} ${prefix(pick(words(doc.fields.city)) ?? 'b')}`);
    else if (shape === 2) texts.push(`"${value}"`);
    else if (shape === 3) texts.push(`"${w.slice(-2).join(' ')}" ${prefix(doc.fields.state || 'x')}`);
    else if (shape === 4) texts.push(doc.fields.phone_1.replace(/\D/g, '').slice(0, 3 + Math.floor(random() * 7)));
    else if (shape === 5) texts.push(doc.lead_id.slice(0, 6 + Math.floor(random() * 18)).toUpperCase());
    else texts.push('');
  }
  texts.push(
    'zzz',
    '"smith john"',
    '"main st"',
    'jo',
    'j',
    'sm',
    '555 123',
    '"jo smith"',
    'sao',
    '"sao paulo"',
    'núñez',
    'nunez',
  );
  return texts.map((text) => {
    const parsed = parseSearchText(text);
    const sorted = random() < 0.4;
    return {
      account_id: accountId,
      terms: parsed.terms,
      phrases: parsed.phrases,
      ...(sorted
        ? { sort: { field: pick(SEARCH_SORT_FIELDS), dir: random() < 0.5 ? ('asc' as const) : ('desc' as const) } }
        : {}),
      from: random() < 0.7 ? 0 : Math.floor(random() * 30),
      limit: 1 + Math.floor(random() * 40),
    };
  });
}

/** A name of letters for `n`: a, b, ..., z, aa, ab, ... */
const letters = (n: number): string =>
  (n < 26 ? '' : letters(Math.floor(n / 26) - 1)) + String.fromCharCode(97 + (n % 26));

const page = async (index: SearchIndex, q: SearchIndexQuery) => {
  const { total, documents } = (await index.search(q))._unsafeUnwrap();
  return { total, leads: documents.map((d) => d.lead_id) };
};

type Plan = { 'Node Type': string; 'Shared Hit Blocks': number; 'Shared Read Blocks': number; Plans?: Plan[] };

/** The GIN index blocks a statement's plan reads, the plan made to read it (through a bitmap, the only way). */
async function ginBlocks(pool: pg.Pool, { text, values }: { text: string; values: unknown[] }): Promise<number> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SET LOCAL enable_seqscan = off');
    await client.query('SET LOCAL enable_indexscan = off');
    const { rows } = await client.query<{ 'QUERY PLAN': [{ Plan: Plan }] }>(
      `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${text}`,
      values,
    );
    let blocks = 0;
    const walk = (node: Plan) => {
      if (node['Node Type'] === 'Bitmap Index Scan') blocks += node['Shared Hit Blocks'] + node['Shared Read Blocks'];
      for (const child of node.Plans ?? []) walk(child);
    };
    const [explained] = rows[0]?.['QUERY PLAN'] ?? [];
    if (explained) walk(explained.Plan);
    return blocks;
  } finally {
    await client.query('ROLLBACK');
    client.release();
  }
}

/**
 * The PostgreSQL index answers exactly as the memory index: the same totals, the
 * same leads in the same order, for queries drawn from the indexed leads themselves.
 */
describe.skipIf(!available)('postgres search index', () => {
  let db: TestSchema;
  beforeAll(async () => {
    db = await freshSchema();
  });
  afterAll(async () => {
    await db?.drop();
  });

  it('matches, counts, ranks and sorts exactly as the memory index', async () => {
    await db.truncate();
    const random = prng(20260301);
    const account = newId(Date.UTC(2026, 0, 1));
    const other = newId(Date.UTC(2026, 0, 2));
    const mine = documents(random, account, 200, Date.UTC(2026, 1, 1));
    const theirs = documents(random, other, 40, Date.UTC(2026, 1, 2));
    // Some leads are indexed again with new fields: the newer document replaces the older and becomes the newest.
    const again = mine.slice(0, 30).map((d, i) => ({
      ...d,
      fields: { ...d.fields, city: CITIES[i % CITIES.length] as string, first_name: 'Renamed' },
    }));
    const memory = memoryStorage().search;
    const postgres = searchIndex(db.pool, db.schema);
    for (const doc of [...mine, ...theirs, ...again]) {
      (await memory.index(doc))._unsafeUnwrap();
      (await postgres.index(doc))._unsafeUnwrap();
    }
    const all = queries(random, account, mine, 200);
    let matched = 0;
    for (const q of all) {
      const expected = await page(memory, q);
      expect({ q, ...(await page(postgres, q)) }).toEqual({ q, ...expected });
      if (expected.leads.length > 0) matched++;
    }
    // The comparison means something only if most queries find leads.
    expect(matched).toBeGreaterThan(all.length / 2);
  });

  it('indexes documents written together (one statement of every batch) as it indexes them one by one', async () => {
    // Through the storage, whose group commit sends the documents of concurrent callers in one statement: each row's
    // terms are its slice of the statement's one array of terms, so an off-by-one would give a lead its neighbour's.
    await db.truncate();
    const random = prng(20261126);
    const account = newId(Date.UTC(2026, 0, 6));
    const mine = documents(random, account, 60, Date.UTC(2026, 1, 3));
    const odd = mine[7] as SearchDocument;
    const docs = mine.map((d) =>
      d === odd ? { ...d, fields: { ...d.fields, first_name: 'Nul\u0000l \ud800', city: `it's \\ "q"` } } : d,
    );
    // A lead indexed twice in one batch ends as its last document.
    const again = docs.slice(0, 5).map((d) => ({ ...d, fields: { ...d.fields, first_name: 'Renamed' } }));
    const memory = memoryStorage().search;
    const postgres = postgresStorage({ pool: db.pool, schema: db.schema }).search;
    for (const doc of [...docs, ...again]) (await memory.index(doc))._unsafeUnwrap();
    const results = await Promise.all([...docs, ...again].map((doc) => postgres.index(doc)));
    expect(results.every((r) => r.isOk())).toBe(true);
    const all = queries(random, account, docs, 80);
    for (const q of all) expect({ q, ...(await page(postgres, q)) }).toEqual({ q, ...(await page(memory, q)) });
    const renamed = { account_id: account, terms: ['renamed'], phrases: [], from: 0, limit: 10 };
    expect(await page(postgres, renamed)).toEqual(await page(memory, renamed));
    expect((await postgres.search(renamed))._unsafeUnwrap().total).toBe(5);
  });

  it('keeps accounts apart, replaces a re-indexed lead and forgets expired leads', async () => {
    await db.truncate();
    const index = searchIndex(db.pool, db.schema);
    const random = prng(7);
    const [a, b] = [newId(Date.UTC(2026, 0, 3)), newId(Date.UTC(2026, 0, 4))];
    const [doc] = documents(random, a as string, 1, Date.UTC(2026, 2, 1));
    const lead = doc as SearchDocument;
    (await index.index({ ...lead, fields: { ...lead.fields, first_name: 'Ottoline' } }))._unsafeUnwrap();
    (
      await index.index({
        ...lead,
        account_id: b as string,
        lead_id: newId(Date.UTC(2026, 2, 2)),
        fields: { ...lead.fields, first_name: 'Ottoline' },
      })
    )._unsafeUnwrap();
    const q = { account_id: a as string, terms: ['otto'], phrases: [], from: 0, limit: 10 };
    expect((await index.search(q))._unsafeUnwrap()).toMatchObject({
      total: 1,
      documents: [{ lead_id: lead.lead_id, account_id: a }],
    });
    (await index.index({ ...lead, fields: { ...lead.fields, first_name: 'Bertha' } }))._unsafeUnwrap();
    expect((await index.search(q))._unsafeUnwrap()).toEqual({ total: 0, documents: [] });
    expect((await index.search({ ...q, terms: ['bert'] }))._unsafeUnwrap().documents).toEqual([
      { ...lead, fields: { ...lead.fields, first_name: 'Bertha' } },
    ]);
    expect((await index.search({ ...q, terms: ['bert'], from: 5 }))._unsafeUnwrap()).toEqual({
      total: 1,
      documents: [],
    });
    expect((await index.purgeExpired('2099-01-01T00:00:00.000Z'))._unsafeUnwrap()).toBe(2);
    expect((await index.search({ ...q, terms: [] }))._unsafeUnwrap()).toEqual({ total: 0, documents: [] });
  });

  it('matches short prefixes of any script and ranks by score as the memory index', async () => {
    await db.truncate();
    const account = newId(Date.UTC(2026, 0, 6));
    const names = ['Zoë', 'Zoe', 'Ñandú', 'Li', 'Lia', 'Liam', 'Ångström', '😀😀 Smile', '𝒜da', 'Jo', 'Joe', 'Jo-Jo'];
    const docs = documents(prng(11), account, 120, Date.UTC(2026, 2, 4)).map((d, i) => ({
      ...d,
      fields: {
        ...d.fields,
        first_name: names[i % names.length] as string,
        last_name: names[(i * 5 + 3) % names.length] as string,
      },
    }));
    const memory = memoryStorage().search;
    const postgres = searchIndex(db.pool, db.schema);
    for (const doc of docs) {
      (await memory.index(doc))._unsafeUnwrap();
      (await postgres.index(doc))._unsafeUnwrap();
    }
    const prefixes = names.flatMap((name) =>
      words(name).flatMap((w) => Array.from({ length: 5 }, (_, n) => [...w].slice(0, n + 1).join(''))),
    );
    // One to five terms (a branch per score up to four, scored on every match past that), repeats included.
    const texts = [
      ...prefixes,
      'li li',
      'jo jo',
      'l li lia',
      'z zo zoe j',
      'j jo joe l li',
      '"jo jo" j',
      '"zoë" l',
      'l "li" li',
    ];
    for (const text of texts) {
      const parsed = parseSearchText(text);
      for (const from of [0, 7]) {
        const q = { account_id: account, terms: parsed.terms, phrases: parsed.phrases, from, limit: 25 };
        expect({ text, ...(await page(postgres, q)) }).toEqual({ text, ...(await page(memory, q)) });
      }
    }
  });

  it('reads the page of prefixes most leads match off the newest leads, not off every match', async () => {
    await db.truncate();
    const account = newId(Date.UTC(2026, 0, 7));
    // 2,000 leads whose first names all begin with j (none is the word j or ja): `j` matches every one, whole in none.
    const jNames = ['Jack', 'Jane', 'Jake', 'Jill', 'Joan', 'June', 'Jude', 'Jasper'];
    const docs = documents(prng(12), account, 2000, Date.UTC(2026, 2, 5)).map((d, i) => ({
      ...d,
      fields: { ...d.fields, first_name: jNames[i % jNames.length] as string },
    }));
    const memory = memoryStorage().search;
    const index = searchIndex(db.pool, db.schema);
    for (const doc of docs) {
      (await memory.index(doc))._unsafeUnwrap();
      (await index.index(doc))._unsafeUnwrap();
    }
    await db.pool.query(`ANALYZE ${qualified(db.schema, 'search_documents')}`);
    type Plan = {
      'Node Type': string;
      'Index Name'?: string;
      'Scan Direction'?: string;
      'Actual Rows': number;
      'Rows Removed by Filter'?: number;
      Plans?: Plan[];
    };
    /** The statement's scans of the (account_id, seq) index, newest first, with the rows each read. */
    const newestFirst = async (text: string, values: unknown[]): Promise<number[]> => {
      const { rows } = await db.pool.query<{ 'QUERY PLAN': [{ Plan: Plan }] }>(
        `EXPLAIN (ANALYZE, FORMAT JSON) ${text}`,
        values,
      );
      const read: number[] = [];
      const walk = (node: Plan) => {
        if (node['Index Name'] === 'search_documents_account_seq' && node['Scan Direction'] === 'Backward')
          read.push(node['Actual Rows'] + (node['Rows Removed by Filter'] ?? 0));
        for (const child of node.Plans ?? []) walk(child);
      };
      const [explained] = rows[0]?.['QUERY PLAN'] ?? [];
      if (explained) walk(explained.Plan);
      return read;
    };
    // Two terms as well: the leads where some term is whole come first (none here), then the rest newest first.
    for (const terms of [['j'], ['ja'], ['ja', 'j']]) {
      const q = { account_id: account, terms, phrases: [], from: 0, limit: 10 };
      const statement = searchStatement(qualified(db.schema, 'search_documents'), q);
      // Scoring every match reads and sorts all of them; the statement of the common score (not whole) instead reads the
      // newest leads until it has a page.
      const walks: number[] = [];
      for (const { text, values } of statement.pages) walks.push(...(await newestFirst(text, values)));
      expect({ terms, walks: walks.length > 0, stops: walks.every((n) => n < 100) }).toEqual({
        terms,
        walks: true,
        stops: true,
      });
      expect(await page(index, q)).toEqual(await page(memory, q));
    }
  });

  /** The count statement of a first page of `terms` (for the plan tests). */
  const countOf = (account: string, terms: string[]) =>
    searchStatement(qualified(db.schema, 'search_documents'), {
      account_id: account,
      terms,
      phrases: [],
      from: 0,
      limit: 10,
    }).count;

  /** `docs` in the memory index and in PostgreSQL's (vacuumed and analyzed): both indexes. */
  const indexBoth = async (docs: SearchDocument[]) => {
    const memory = memoryStorage().search;
    const index = postgresStorage({ pool: db.pool, schema: db.schema }).search;
    for (const doc of docs) (await memory.index(doc))._unsafeUnwrap();
    expect((await Promise.all(docs.map((doc) => index.index(doc)))).every((r) => r.isOk())).toBe(true);
    await db.pool.query(`VACUUM ANALYZE ${qualified(db.schema, 'search_documents')}`);
    return { memory, index };
  };

  it('reads a short prefix off one GIN entry, not off a range over every term it begins', async () => {
    await db.truncate();
    const account = newId(Date.UTC(2026, 0, 8));
    // 3,000 leads, each with a first name of its own beginning with j: 3,000 lexemes that `j` and `jq` begin.
    const docs = documents(prng(13), account, 3000, Date.UTC(2026, 2, 6)).map((d, i) => ({
      ...d,
      fields: { ...d.fields, first_name: `Jq${letters(i)}${'x'.repeat(40)}` },
    }));
    const { memory, index } = await indexBoth(docs);
    /** The GIN index blocks the count's plan reads. */
    const countBlocks = (terms: string[]) => ginBlocks(db.pool, countOf(account, terms));
    // A range over 3,000 entries of 40-odd bytes reads twenty-odd leaf pages; one entry's postings, a few.
    for (const terms of [['j'], ['jq']]) {
      expect({ terms, few: (await countBlocks(terms)) < 8 }).toEqual({ terms, few: true });
      const q = { account_id: account, terms, phrases: [], from: 0, limit: 10 };
      expect(await page(index, q)).toEqual(await page(memory, q));
    }
  });

  it("reads a score's rows that hold some term whole without the GIN range of a longer prefix", async () => {
    await db.truncate();
    const account = newId(Date.UTC(2026, 0, 14));
    // 3,000 leads, each with a first name of its own beginning with jqa (3,000 lexemes in the range of `jqa`), a third
    // of them Smith.
    const docs = documents(prng(19), account, 3000, Date.UTC(2026, 2, 14)).map((d, i) => ({
      ...d,
      fields: {
        ...d.fields,
        first_name: `Jqa${letters(i)}${'x'.repeat(40)}`,
        last_name: i % 3 === 0 ? 'Smith' : 'Jones',
      },
    }));
    const { memory, index } = await indexBoth(docs);
    // The count of `smith jqa` reads the range (twenty-odd leaf pages and the postings of each entry); the scores with
    // some term whole read `:jq`, one entry, instead.
    const q = { account_id: account, terms: ['smith', 'jqa'], phrases: [], from: 0, limit: 10 };
    const { count, pages } = searchStatement(qualified(db.schema, 'search_documents'), q);
    const range = await ginBlocks(db.pool, count);
    const read = await Promise.all(pages.slice(0, -1).map((statement) => ginBlocks(db.pool, statement)));
    expect({ range: range >= 40, few: read.every((blocks) => blocks * 2 < range) }).toEqual({ range: true, few: true });
    // What they find, and with a third term, is what the memory index finds.
    for (const terms of [
      ['smith', 'jqa'],
      ['smith', 'jqa', 'jon'],
      ['jon', 'jqab', 's'],
    ]) {
      for (const from of [0, 990]) {
        const paged = { ...q, terms, from };
        expect({ terms, from, ...(await page(index, paged)) }).toEqual({ terms, from, ...(await page(memory, paged)) });
      }
    }
  });

  /**
   * 1,200 leads of one new account named Jo or Joan, Smith or Smithers, in the memory index (returned) and, through the
   * storage's group commit, in PostgreSQL.
   */
  const joSmiths = async (seed: number, day: number) => {
    await db.truncate();
    const account = newId(Date.UTC(2026, 0, day));
    const docs = documents(prng(seed), account, 1200, Date.UTC(2026, 2, day)).map((d, i) => ({
      ...d,
      fields: { ...d.fields, first_name: i % 2 === 0 ? 'Jo' : 'Joan', last_name: i % 3 === 0 ? 'Smith' : 'Smithers' },
    }));
    const memory = memoryStorage().search;
    for (const doc of docs) (await memory.index(doc))._unsafeUnwrap();
    const writer = postgresStorage({ pool: db.pool, schema: db.schema }).search;
    expect((await Promise.all(docs.map((doc) => writer.index(doc)))).every((r) => r.isOk())).toBe(true);
    return { account, memory };
  };

  it('answers a search of fewer matches than the reachable in one statement, which scores them all', async () => {
    const { account, memory } = await joSmiths(14, 9);
    const sent: string[] = [];
    const counting: Queryable = {
      query: ((text: string, values?: unknown[]) => {
        sent.push(text);
        return db.pool.query(text, values);
      }) as Queryable['query'],
    };
    const index = searchIndex(counting, db.schema);
    // `jo smith` matches 1,200 leads (read score by score after the count); `jo smith main` fewer than 1,000 (no
    // statement but the count, whichever the page).
    for (const [terms, alone] of [
      [['jo', 'smith'], false],
      [['jo', 'smith', 'main'], true],
      [['jo', 'smi', '1', 'main'], true],
    ] as const) {
      for (const from of [0, 40, 990]) {
        const q = { account_id: account, terms: [...terms], phrases: [], from, limit: 20 };
        sent.length = 0;
        const found = await page(index, q);
        expect({ terms, from, ...found }).toEqual({ terms, from, ...(await page(memory, q)) });
        if (from === 0) expect({ terms, alone: sent.length === 1 }).toEqual({ terms, alone });
      }
    }
  });

  it("asks no prefix of a term that a longer term's prefix holds, and finds what the memory index finds", async () => {
    const { account, memory } = await joSmiths(18, 13);
    const index = searchIndex(db.pool, db.schema);
    // `smi` (a range) and `j`, `jo` (short prefixes) begin `smithers` and `joan`: a lead holding a word that begins with
    // the longer term holds one beginning with the shorter, so the count asks only the longer; `smi` still counts
    // towards the score where it is whole (never here) and `jo` where it is (half of them). Equal terms: one asked.
    for (const [terms, unasked] of [
      [['smithers', 'smi'], [".smi':*"]],
      [
        ['j', 'joan', 'jo'],
        [":j'", ":jo'"],
      ],
      [['smi', 'jo', 'smith'], [".smi':*"]],
      [['jo', 'jo'], []],
    ] as const) {
      for (const from of [0, 40, 990]) {
        const q = { account_id: account, terms: [...terms], phrases: [], from, limit: 20 };
        const { count } = searchStatement(qualified(db.schema, 'search_documents'), q);
        const asked = count.values.filter((v): v is string => typeof v === 'string');
        expect({ terms, asked: unasked.filter((lexeme) => asked.some((v) => v.includes(lexeme))) }).toEqual({
          terms,
          asked: [],
        });
        expect({ terms, from, ...(await page(index, q)) }).toEqual({ terms, from, ...(await page(memory, q)) });
      }
    }
  });

  it("counts a common query's matches without scoring them, and scores a rare query's", async () => {
    const { account } = await joSmiths(17, 12);
    type Plan = { 'Subplan Name'?: string; Output?: string[]; 'Actual Rows'?: number; Plans?: Plan[] };
    /** Whether the count's plan scores rows (a node computes `terms @@ ...` on some) as it reads the matches, or at all. */
    const scoring = async (terms: string[]) => {
      const count = countOf(account, terms);
      const { rows } = await db.pool.query<{ 'QUERY PLAN': [{ Plan: Plan }] }>(
        `EXPLAIN (ANALYZE, VERBOSE, FORMAT JSON) ${count.text}`,
        count.values,
      );
      const scores = (node: Plan) => (node.Output ?? []).some((column) => column.includes('@@'));
      // Where the score is computed: a node that gives it, none of whose inputs does (the rest pass it on).
      const scored = (node: Plan): boolean =>
        (scores(node) && (node['Actual Rows'] ?? 0) > 0 && !(node.Plans ?? []).some(scores)) ||
        (node.Plans ?? []).some(scored);
      const plan = rows[0]?.['QUERY PLAN'][0]?.Plan as Plan;
      const reachable = (node: Plan): Plan | undefined =>
        node['Subplan Name'] === 'CTE reachable' ? node : (node.Plans ?? []).map(reachable).find(Boolean);
      const read = reachable(plan);
      return { matches: read ? scored(read) : undefined, anywhere: scored(plan) };
    };
    // 1,200 match `jo smith`: counted up to 1,000, no score (the pages score); 400 `jo smith main`, scored for the page.
    expect(await scoring(['jo', 'smith'])).toEqual({ matches: false, anywhere: false });
    expect(await scoring(['jo', 'smith', 'main'])).toEqual({ matches: false, anywhere: true });
  });

  it('reads the pages of a search with a phrase beside its count, not after it', async () => {
    const { account, memory } = await joSmiths(16, 11);
    let inFlight = 0;
    let most = 0;
    const watching: Queryable = {
      query: (async (text: string, values?: unknown[]) => {
        most = Math.max(most, ++inFlight);
        try {
          return await db.pool.query(text, values);
        } finally {
          inFlight--;
        }
      }) as Queryable['query'],
    };
    const index = searchIndex(watching, db.schema);
    // More than the reachable match `"jo" smi` (1,200 leads) and fewer `"smith" jo` (400): either way, two at once.
    for (const text of ['"jo" smi', '"smith" jo']) {
      for (const from of [0, 990]) {
        const q = { account_id: account, ...parseSearchText(text), from, limit: 20 };
        most = 0;
        const found = await page(index, q);
        expect({ text, from, ...found }).toEqual({ text, from, ...(await page(memory, q)) });
        expect({ text, from, besideTheCount: most >= 2 }).toEqual({ text, from, besideTheCount: true });
      }
    }
  });

  it('finds the leads indexed before migration 20 as it finds those indexed after', async () => {
    await db.truncate();
    const account = newId(Date.UTC(2026, 0, 10));
    const docs = documents(prng(15), account, 150, Date.UTC(2026, 2, 8)).map((d, i) => ({
      ...d,
      fields: { ...d.fields, last_name: ['Zoë', 'Ñandú', '😀😀 Smile', '𝒜da', 'Li'][i % 5] as string },
    }));
    const memory = memoryStorage().search;
    const index = searchIndex(db.pool, db.schema);
    for (const doc of docs) {
      (await memory.index(doc))._unsafeUnwrap();
      (await index.index(doc))._unsafeUnwrap();
    }
    // Back to the lexemes of migration 10 (`<account ID>.<term>`, no prefix lexemes), then migration 20 again.
    const table = qualified(db.schema, 'search_documents');
    await db.pool.query(
      `UPDATE ${table} SET terms = array_to_tsvector(ARRAY(
         SELECT account_id || '.' || substr(lexeme, 10) FROM unnest(tsvector_to_array(terms)) AS lexeme
         WHERE substr(lexeme, 9, 1) = '.'))`,
    );
    const q = (text: string) => ({ account_id: account, ...parseSearchText(text), from: 0, limit: 25 });
    expect((await index.search(q('z')))._unsafeUnwrap().total).toBe(0);
    const migration = migrations.find((m) => m.version === 20);
    await db.pool.query(migration?.up(quoteIdent(db.schema)) ?? '');
    for (const text of [
      'z',
      'zo',
      'zoe',
      'ñ',
      'na',
      '😀',
      '😀😀',
      'sm',
      '𝒜',
      'ad',
      'l',
      'li',
      'li z',
      '"li" l',
      'jo sm',
    ])
      expect({ text, ...(await page(index, q(text))) }).toEqual({ text, ...(await page(memory, q(text))) });
  });

  it('takes field text jsonb and tsvector cannot hold as is', async () => {
    await db.truncate();
    const index = searchIndex(db.pool, db.schema);
    const [doc] = documents(prng(9), newId(Date.UTC(2026, 0, 5)), 1, Date.UTC(2026, 2, 3));
    const lead = {
      ...(doc as SearchDocument),
      fields: {
        ...(doc as SearchDocument).fields,
        first_name: 'Nul\u0000l \ud800',
        city: `${'x'.repeat(3000)} it's \\ "q"`,
      },
    };
    (await index.index(lead))._unsafeUnwrap();
    const found = (
      await index.search({
        account_id: lead.account_id,
        terms: ['nul', 'it', 's', 'xxxx'],
        phrases: [],
        from: 0,
        limit: 10,
      })
    )._unsafeUnwrap();
    expect(found.documents).toEqual([lead]);
    const sorted = await index.search({
      account_id: lead.account_id,
      terms: [],
      phrases: [],
      sort: { field: 'first_name', dir: 'asc' },
      from: 0,
      limit: 1,
    });
    expect(sorted._unsafeUnwrap().total).toBe(1);
  });
});

describe('indexing statements', () => {
  it("#22 send a lead's lexemes as one text, not one array element each for pg to escape", () => {
    const docs = documents(prng(7), '6955b9042769f57ff087f281', 3, Date.UTC(2026, 0, 1));
    const [statement, ...more] = indexDocuments('search_documents').plan(docs).statements;
    expect(more).toEqual([]);
    // Every array parameter holds one element per lead: no lead's lexemes are elements of their own.
    const arrays = (statement?.values ?? []).filter((v): v is unknown[] => Array.isArray(v));
    expect(arrays.length).toBeGreaterThan(0);
    for (const array of arrays) expect(array).toHaveLength(docs.length);
  });
});
