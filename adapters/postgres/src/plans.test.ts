import type { StoreError } from '@leadroute/core';
import type { ResultAsync } from 'neverthrow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Queryable } from './query';
import { alertStore } from './stores/alerts';
import { certificateStore } from './stores/certificates';
import { counterStore } from './stores/counters';
import { credentialStore } from './stores/credentials';
import { eventStore } from './stores/events';
import { exportStore } from './stores/exports';
import { flowStore } from './stores/flows';
import { jobStore } from './stores/jobs';
import { leadStore } from './stores/leads';
import { rollupStore } from './stores/rollups';
import { searchIndex } from './stores/search';
import { qualified } from './sql';
import { databaseAvailable, freshSchema, type TestSchema } from './test-support';

const available = await databaseAvailable('plans.test.ts');

const ACCOUNT = '6955b9042769f57ff087f281';
const ID = '6955bcd52769f57ff087f652';
const LIVE = '2026-01-01T00:00:00.000Z';

/** A Queryable that records what a store would send instead of sending it. */
function recorder(): Queryable & { readonly sent: { text: string; values: unknown[] }[] } {
  const sent: { text: string; values: unknown[] }[] = [];
  const query = (text: string, values?: unknown[]) => {
    sent.push({ text, values: values ?? [] });
    return Promise.resolve({ rows: [], rowCount: 0 });
  };
  return { sent, query: query as unknown as Queryable['query'] };
}

/**
 * Each hot statement, as the store builds it, has a plan on the index meant for it.
 * Sequential scans are disabled for the EXPLAIN so that the planner shows which
 * index it can use rather than what is cheapest on an empty table: a statement
 * with no usable index still plans a Seq Scan and fails here, and a page that
 * cannot come off an index in order still plans a Sort.
 */
describe.skipIf(!available)('postgres query plans', () => {
  let db: TestSchema;
  beforeAll(async () => {
    db = await freshSchema();
    // An account with 20,000 indexed leads, analyzed: on an empty table any index
    // on account_id looks as selective as the GIN, so searches are planned on these statistics.
    await db.pool.query(
      `INSERT INTO ${qualified(db.schema, 'search_documents')} (account_id, lead_id, terms, phrase_text, sort_keys, document, expires_at)
       SELECT $1, lpad(to_hex(i), 24, '0'),
         array_to_tsvector(ARRAY(
           SELECT left(md5($1), 8) || '.' || term FROM unnest(terms) AS term
           UNION SELECT left(md5($1), 8) || ':' || left(term, n) FROM unnest(terms) AS term, generate_series(1, 2) AS n)),
         '', '{}', '{}', now()
       FROM generate_series(1, 20000) AS i,
         LATERAL (SELECT ARRAY[md5(i::text), left(md5((i * 7)::text), 6), (ARRAY['john', 'mary', 'ada'])[1 + i % 3]] AS terms) AS t`,
      [ACCOUNT],
    );
    // VACUUM also empties the GIN's pending list, which the planner would otherwise price in.
    await db.pool.query(`VACUUM ANALYZE ${qualified(db.schema, 'search_documents')}`);
  });
  afterAll(async () => {
    await db?.drop();
  });

  const plan = async (text: string, values: unknown[], sorts: boolean, bitmap: boolean): Promise<string> => {
    const client = await db.pool.connect();
    try {
      await client.query('BEGIN');
      // Paging must walk an index in order, never sort a result set: sorts and bitmap
      // scans (which lose the order) are priced out too, as they would be on a big table.
      await client.query('SET LOCAL enable_seqscan = off');
      // A GIN index is only read through a bitmap; searches are planned on real statistics instead (see beforeAll).
      if (!bitmap) await client.query('SET LOCAL enable_bitmapscan = off');
      if (!sorts) await client.query('SET LOCAL enable_sort = off');
      const { rows } = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${text}`, values);
      return rows.map((row) => row['QUERY PLAN']).join('\n');
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
  };

  const cases: [
    string,
    (db: Queryable, schema: string) => ResultAsync<unknown, StoreError>,
    string | RegExp,
    { sorts?: true; bitmap?: true; delete?: true }?,
  ][] = [
    [
      'an events page',
      (q, s) => eventStore(q, s).query({ account_id: ACCOUNT, live_at: LIVE, sort: 'desc', limit: 100 }),
      /events_\w+_pkey/,
    ],
    [
      'the next events page, filtered by type and time',
      (q, s) =>
        eventStore(q, s).query({
          account_id: ACCOUNT,
          live_at: LIVE,
          sort: 'asc',
          limit: 100,
          after_id: ID,
          types: ['recipient'],
          start: 1,
          end: 2,
        }),
      /events_\w+_pkey/,
    ],
    [
      "a lead's events",
      (q, s) => eventStore(q, s).query({ account_id: ACCOUNT, live_at: LIVE, sort: 'desc', limit: 100, lead_id: ID }),
      /events_\w+_account_id_lead_id_id_idx/,
    ],
    // A reference names one lead's deliveries: a handful of rows, in no order (core picks the newest).
    [
      'events by recipient reference',
      (q, s) => eventStore(q, s).findByReference({ reference: 'REF-1', live_at: LIVE }),
      /events_\w+_key_idx/,
    ],
    // The purges' row deletes (past the grace, or in the default partition); whole partitions are dropped.
    ['the events purge', (q, s) => eventStore(q, s).purgeExpired(LIVE), /events_\w+_expires_at_idx/, { delete: true }],
    ['the leads purge', (q, s) => leadStore(q, s).purgeExpired(LIVE), /leads_\w+_expires_at_idx/, { delete: true }],
    // By ID alone (feedback carries no key): one partition, through its (id) index.
    ['marking a lead returned', (q, s) => leadStore(q, s).markReturned(ID, LIVE), /leads_default_id_idx/],
    ['an event by ID', (q, s) => eventStore(q, s).get(ID), /events_default_id_idx/],
    ["an account's flows", (q, s) => flowStore(q, s).listByAccount(ACCOUNT), 'flows_account_id'],
    ["an account's credentials", (q, s) => credentialStore(q, s).listByAccount(ACCOUNT), 'credentials_account_id'],
    ['a counter', (q, s) => counterStore(q, s).get('cap:1'), 'counters_pkey'],
    [
      "an account's statistics",
      (q, s) =>
        rollupStore(q, s).query({ account_id: ACCOUNT, from: LIVE, to: '2026-01-02T00:00:00.000Z', kinds: ['source'] }),
      'rollups_pkey',
    ],
    // Short prefixes would expand to many terms in a plain index; here they are a range of the account's own lexemes.
    [
      'a search by prefixes',
      (q, s) =>
        searchIndex(q, s).search({ account_id: ACCOUNT, terms: ['jo', 'abc'], phrases: [], from: 0, limit: 10 }),
      'search_documents_terms',
      { sorts: true, bitmap: true },
    ],
    [
      'a search by phrase',
      (q, s) =>
        searchIndex(q, s).search({
          account_id: ACCOUNT,
          terms: [],
          phrases: [{ tokens: ['mary', 'abcdef'], text: 'mary abcdef' }],
          from: 0,
          limit: 10,
        }),
      'search_documents_terms',
      { sorts: true, bitmap: true },
    ],
    [
      "an account's newest leads",
      (q, s) => searchIndex(q, s).search({ account_id: ACCOUNT, terms: [], phrases: [], from: 0, limit: 10 }),
      'search_documents_account_seq',
    ],
    ['the search purge', (q, s) => searchIndex(q, s).purgeExpired(LIVE), 'search_documents_expires_at'],
    ['claiming a job', (q, s) => jobStore(q, s).claim('export', Date.UTC(2026, 0, 1), 60_000), 'jobs_pending'],
    [
      "an account's exports",
      (q, s) => exportStore(q, s).list({ account_id: ACCOUNT, live_at: LIVE, before_id: ID, limit: 20 }),
      'exports_account_id',
    ],
    [
      "a page of an alert's timeline",
      (q, s) =>
        alertStore(q, s).activity({
          account_id: ACCOUNT,
          key: `recipient-failure:${ACCOUNT}:${ID}`,
          before: { at: LIVE, id: ID },
          customerOnly: true,
          limit: 20,
        }),
      'alert_activity_timeline',
    ],
    ["an account's active alerts", (q, s) => alertStore(q, s).listActive(ACCOUNT), 'alerts_active', { sorts: true }],
    ['the accounts with active alerts', (q, s) => alertStore(q, s).accountsWithActive(), 'alerts_active'],
    [
      'a certificate by its ping token',
      (q, s) => certificateStore(q, s).findByPingToken('token'),
      'certificates_ping_token',
    ],
    // A detector pass reads a short window: the hour index finds its cells, and the few accounts are then sorted.
    [
      'the accounts active in a window',
      (q, s) => rollupStore(q, s).activeAccounts(LIVE, '2026-01-02T00:00:00.000Z'),
      'rollups_hour',
      { sorts: true },
    ],
  ];

  it.each(
    cases.map(([name, call, index, options]) => ({
      name,
      call,
      index,
      sorts: options?.sorts ?? false,
      bitmap: options?.bitmap ?? false,
      deletes: options?.delete ?? false,
    })),
  )('$name uses $index', async ({ call, index, sorts, bitmap, deletes }) => {
    const spy = recorder();
    (await call(spy, db.schema))._unsafeUnwrap();
    // The first statement is the one named (or the first DELETE); any other (a search's count) must not scan the table
    // either.
    const named = deletes ? spy.sent.findIndex((s) => s.text.startsWith('DELETE')) : 0;
    const statement = spy.sent[named];
    const others = spy.sent.filter((_, i) => i !== named && !spy.sent[i]?.text.includes('leadroute_'));
    const text = await plan(statement?.text ?? '', statement?.values ?? [], sorts, bitmap);
    if (typeof index === 'string') expect(text).toContain(index);
    else expect(text).toMatch(index);
    expect(text).not.toContain('Seq Scan');
    // A Sort node (a Merge Append of partitions' index scans has a "Sort Key" but sorts nothing).
    if (!sorts) expect(text).not.toMatch(/^\s*(->\s+)?Sort\s+\(/m);
    for (const other of others) expect(await plan(other.text, other.values, true, bitmap)).not.toContain('Seq Scan');
  });
});
