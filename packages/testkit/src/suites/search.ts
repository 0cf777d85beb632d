import {
  parseSearchText,
  SEARCH_MAX_REACHABLE,
  type SearchDocument,
  type SearchIndexQuery,
  type Storage,
} from '@leadroute/core';
import { expect } from 'vitest';
import { anAccount } from '../fixtures';
import type { Suite } from '../harness';
import { aSearchDocument } from '../records';

const find = async (storage: Storage, accountId: string, text: string, extra: Partial<SearchIndexQuery> = {}) => {
  const parsed = parseSearchText(text);
  return (
    await storage.search.search({
      account_id: accountId,
      terms: parsed.terms,
      phrases: parsed.phrases,
      from: 0,
      limit: 100,
      ...extra,
    })
  )._unsafeUnwrap();
};
const ids = (page: { documents: SearchDocument[] }) => page.documents.map((d) => d.lead_id).sort();

/** SearchIndex: prefix AND, phrases, ordering, paging, isolation and retention, on the tokens core hands over. */
export const searchIndexSuite: Suite = {
  name: 'SearchIndex',
  cases: [
    {
      name: 'matches every term by prefix (AND), whatever the case, across fields',
      async run({ storage }) {
        const account = anAccount().id;
        const john = aSearchDocument(account, {
          first_name: 'John',
          last_name: 'Smith',
          city: 'Austin',
          email: 'jsmith@example.com',
        });
        const jane = aSearchDocument(account, { first_name: 'Jane', last_name: 'Smithers', city: 'Boston' });
        const bob = aSearchDocument(account, { first_name: 'Bob', last_name: 'Jones', city: 'Austin' });
        for (const d of [john, jane, bob]) (await storage.search.index(d))._unsafeUnwrap();
        expect(ids(await find(storage, account, 'smi'))).toEqual([john.lead_id, jane.lead_id].sort());
        expect(ids(await find(storage, account, 'SMI aus'))).toEqual([john.lead_id]);
        expect(ids(await find(storage, account, 'j'))).toEqual([john.lead_id, jane.lead_id, bob.lead_id].sort());
        expect(ids(await find(storage, account, 'jsmith@exam'))).toEqual([john.lead_id]);
        expect((await find(storage, account, 'smith nobody')).total).toBe(0);
        expect((await find(storage, account, '')).total).toBe(3);
      },
    },
    {
      name: 'finds phones by their digits, however they are written',
      async run({ storage }) {
        const account = anAccount().id;
        const a = aSearchDocument(account, { phone_1: '(512) 555-0142' });
        const b = aSearchDocument(account, { phone_2: '+1 737 555 0199' });
        for (const d of [a, b]) (await storage.search.index(d))._unsafeUnwrap();
        expect(ids(await find(storage, account, '512'))).toEqual([a.lead_id]);
        expect(ids(await find(storage, account, '555-0142'))).toEqual([a.lead_id]);
        expect(ids(await find(storage, account, '7375550199'))).toEqual([b.lead_id]);
        expect(ids(await find(storage, account, '555'))).toEqual([a.lead_id, b.lead_id].sort());
      },
    },
    {
      name: 'a quoted phrase matches only that text, at word boundaries',
      async run({ storage }) {
        const account = anAccount().id;
        const main = aSearchDocument(account, { address_1: '12 Main Street' });
        const mainland = aSearchDocument(account, { address_1: '12 Mainland Street' });
        const apart = aSearchDocument(account, { address_1: 'Main 12 Street' });
        for (const d of [main, mainland, apart]) (await storage.search.index(d))._unsafeUnwrap();
        expect(ids(await find(storage, account, '"12 main street"'))).toEqual([main.lead_id]);
        expect(ids(await find(storage, account, '"main"'))).toEqual([main.lead_id, apart.lead_id].sort());
        expect(ids(await find(storage, account, 'main'))).toEqual(
          [main.lead_id, mainland.lead_id, apart.lead_id].sort(),
        );
      },
    },
    {
      name: 'sorts by a field either way, pages with from and limit, and counts every match',
      async run({ storage }) {
        const account = anAccount().id;
        const names = ['Carla', 'alma', 'Bea', 'dora', ''];
        const docs = names.map((n) => aSearchDocument(account, { first_name: n, city: 'Austin' }));
        for (const d of docs) (await storage.search.index(d))._unsafeUnwrap();
        const asc = await find(storage, account, 'austin', { sort: { field: 'first_name', dir: 'asc' } });
        expect(asc.total).toBe(5);
        expect(asc.documents.map((d) => d.fields.first_name)).toEqual(['alma', 'Bea', 'Carla', 'dora', '']);
        const desc = await find(storage, account, 'austin', {
          sort: { field: 'first_name', dir: 'desc' },
          from: 1,
          limit: 2,
        });
        expect(desc.total).toBe(5);
        expect(desc.documents.map((d) => d.fields.first_name)).toEqual(['Carla', 'Bea']);
      },
    },
    {
      name: 'counts matches up to the 1,000 that can be paged to, and pages to the last of them',
      async run({ storage }) {
        const account = anAccount().id;
        const austin = Array.from({ length: SEARCH_MAX_REACHABLE + 2 }, (_, i) =>
          aSearchDocument(account, { first_name: `Lead ${i}`, city: 'Austin' }),
        );
        const boston = [aSearchDocument(account, { city: 'Boston' }), aSearchDocument(account, { city: 'Boston' })];
        for (let i = 0; i < austin.length; i += 50)
          for (const r of await Promise.all(austin.slice(i, i + 50).map((d) => storage.search.index(d))))
            r._unsafeUnwrap();
        for (const d of boston) (await storage.search.index(d))._unsafeUnwrap();
        expect((await find(storage, account, 'aus', { limit: 1 })).total).toBe(SEARCH_MAX_REACHABLE);
        expect((await find(storage, account, '', { limit: 1 })).total).toBe(SEARCH_MAX_REACHABLE);
        expect((await find(storage, account, 'boston')).total).toBe(2);
        const sorted = await find(storage, account, 'austin', {
          sort: { field: 'first_name', dir: 'asc' },
          from: SEARCH_MAX_REACHABLE - 10,
          limit: 10,
        });
        expect(sorted.total).toBe(SEARCH_MAX_REACHABLE);
        const names = austin.map((d) => d.fields.first_name.toLowerCase()).sort();
        expect(sorted.documents.map((d) => d.fields.first_name.toLowerCase())).toEqual(
          names.slice(SEARCH_MAX_REACHABLE - 10, SEARCH_MAX_REACHABLE),
        );
      },
    },
    {
      name: 'ranks leads where a term is a whole word first, then newest first',
      async run({ storage }) {
        const account = anAccount().id;
        const older = aSearchDocument(account, { last_name: 'Anderson' });
        const exact = aSearchDocument(account, { last_name: 'Ann' });
        const newer = aSearchDocument(account, { last_name: 'Annabel' });
        for (const d of [older, exact, newer]) (await storage.search.index(d))._unsafeUnwrap();
        expect((await find(storage, account, 'ann')).documents.map((d) => d.lead_id)).toEqual([
          exact.lead_id,
          newer.lead_id,
        ]);
        expect((await find(storage, account, 'an')).documents.map((d) => d.lead_id)).toEqual([
          newer.lead_id,
          exact.lead_id,
          older.lead_id,
        ]);
      },
    },
    {
      name: "never answers with another account's leads",
      async run({ storage }) {
        const mine = anAccount().id;
        const theirs = anAccount().id;
        const doc = aSearchDocument(theirs, { first_name: 'Zed' });
        (await storage.search.index(doc))._unsafeUnwrap();
        expect((await find(storage, mine, 'zed')).total).toBe(0);
        expect((await find(storage, mine, '')).total).toBe(0);
        expect(ids(await find(storage, theirs, 'zed'))).toEqual([doc.lead_id]);
      },
    },
    {
      name: 'indexing a lead again replaces it; purgeExpired forgets leads past retention',
      async run({ storage }) {
        const account = anAccount().id;
        const doc = aSearchDocument(account, { first_name: 'Old' }, { expires_at: '2026-01-01T00:00:00.000Z' });
        const keep = aSearchDocument(account, { first_name: 'Kept' }, { expires_at: '2027-01-01T00:00:00.000Z' });
        (await storage.search.index(doc))._unsafeUnwrap();
        (await storage.search.index({ ...doc, fields: { ...doc.fields, first_name: 'Renamed' } }))._unsafeUnwrap();
        (await storage.search.index(keep))._unsafeUnwrap();
        expect((await find(storage, account, 'old')).total).toBe(0);
        expect(ids(await find(storage, account, 'renamed'))).toEqual([doc.lead_id]);
        expect((await storage.search.purgeExpired('2026-06-01T00:00:00.000Z'))._unsafeUnwrap()).toBe(1);
        expect((await find(storage, account, 'renamed')).total).toBe(0);
        expect(ids(await find(storage, account, ''))).toEqual([keep.lead_id]);
      },
    },
  ],
};
