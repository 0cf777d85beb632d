import { SEARCH_FIELDS } from '@leadroute/core';
import { aSearchDocument, manualClock } from '@leadroute/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Call, call } from '../support/call';
import { createFixture, type Fixture } from '../support/fixture';
import { BINDINGS, type Binding, startBinding } from '../support/servers';

const LEADS = [
  {
    first_name: 'Ann',
    last_name: 'Smith',
    email: 'ann.smith@example.com',
    phone_1: '(512) 555-0142',
    address_1: '12 Main Street',
    city: 'Austin',
    state: 'TX',
    postal_code: '78701',
    reference: 'REF-001',
  },
  {
    first_name: 'Annabel',
    last_name: 'Smithers',
    email: 'annabel@mail.test',
    phone_1: '617-555-0100',
    address_1: '12 Mainland Street',
    city: 'Boston',
    state: 'MA',
    postal_code: '02108',
    reference: 'REF-002',
  },
  {
    first_name: 'Bob',
    last_name: 'Jones',
    email: 'bob@jones.test',
    phone_1: '5125550199',
    address_1: 'Main 12 Street',
    city: 'Austin',
    state: 'TX',
    postal_code: '78702',
    reference: 'REF-003',
  },
  {
    first_name: 'Carla',
    last_name: 'Annis',
    email: 'carla@annis.test',
    phone_1: '+1 737 555 0111',
    address_1: '9 Elm Road',
    city: 'Dallas',
    state: 'TX',
    postal_code: '75201',
    reference: 'REF-004',
  },
];

describe.each(BINDINGS)('lead search over HTTP through %s', (name) => {
  let binding: Binding;
  let f: Fixture;
  const clock = manualClock('2026-03-09T15:00:00Z');
  const leadIds: string[] = [];
  let flowId = '';
  const req = (c: Call) => call(binding.url, c);
  const search = (query: string, key = f.keys.demo) => req({ path: `/search/leads?${query}`, key });
  const q = (text: string, extra = '') => search(`query=${encodeURIComponent(text)}${extra}`);
  const names = (res: { body: { hits: { first_name: string }[] } }) => res.body.hits.map((h) => h.first_name);

  beforeAll(async () => {
    f = await createFixture({ clock });
    binding = await startBinding(name, f.service);
    const entity = async (key: string, body: Record<string, unknown>) =>
      (await req({ path: '/entities', key, json: { module_ids: [], source: null, recipient: null, ...body } })).body
        .id as string;
    const flow = async (key: string, vendor: string) => {
      const res = await req({
        path: '/flows',
        key,
        json: { name: 'Search flow', sources: [{ entity_id: vendor }], steps: [] },
      });
      expect(res.status, res.text).toBe(201);
      return res.body.id as string;
    };
    const vendor = await entity(f.keys.demo, { name: 'Vendor A', source: 'seller' });
    flowId = await flow(f.keys.demo, vendor);
    for (const lead of LEADS) {
      clock.advance(60_000);
      const res = await req({ path: `/flows/${flowId}/sources/${vendor}/submit`, json: lead });
      expect(res.status, res.text).toBeLessThan(300);
      leadIds.push(res.body.lead.id);
    }
    const otherVendor = await entity(f.keys.other, { name: 'Other vendor', source: 'seller' });
    const otherFlow = await flow(f.keys.other, otherVendor);
    await req({
      path: `/flows/${otherFlow}/sources/${otherVendor}/submit`,
      json: { first_name: 'Ann', last_name: 'Other', city: 'Austin' },
    });
  });
  afterAll(() => binding.close());

  it('indexes leads as they are submitted and answers hits with every field, highlights and the latest event', async () => {
    const res = await q('ann smi');
    expect(res.status, res.text).toBe(200);
    expect(res.body.total).toBe(2);
    const hit = res.body.hits.find((h: { lead_id: string }) => h.lead_id === leadIds[0]);
    expect(Object.keys(hit).sort()).toEqual(
      [
        'lead_id',
        'flow_id',
        'flow_name',
        'source_id',
        'source_name',
        'submission_timestamp',
        'highlight',
        'latest_event',
        ...SEARCH_FIELDS,
      ].sort(),
    );
    expect(hit).toMatchObject({
      ...LEADS[0],
      flow_id: flowId,
      flow_name: 'Search flow',
      source_name: 'Vendor A',
      submission_timestamp: '2026-03-09T15:01:00.000Z',
    });
    expect(hit.highlight).toEqual({ first_name: ['Ann'], last_name: ['Smith'], email: ['ann', 'smith'] });
    expect(hit.latest_event).toMatchObject({ type: 'source', lead_id: leadIds[0], outcome: 'success' });
    expect(hit.latest_event.account_id).toBeUndefined();
    const event = await req({ path: `/events/${hit.latest_event.id}`, key: f.keys.demo });
    expect(event.body).toEqual(hit.latest_event);
  });

  it('matches every term by prefix, all terms (AND), whatever the case', async () => {
    expect((await q('smi')).body.total).toBe(2);
    expect(names(await q('SMI AUS'))).toEqual(['Ann']);
    expect(names(await q('sMiThErS'))).toEqual(['Annabel']);
    expect((await q('ann zzz')).body.total).toBe(0);
    expect(names(await q('555-0142'))).toEqual(['Ann']);
    expect(names(await q('ref-004'))).toEqual(['Carla']);
    expect(names(await q('annis.te'))).toEqual(['Carla']);
  });

  it('matches a double-quoted phrase exactly, and ranks whole words first', async () => {
    expect(names(await q('"12 main street"'))).toEqual(['Ann']);
    expect(names(await q('"MAIN STREET" austin'))).toEqual(['Ann']);
    expect((await q('"main stre"')).body.total).toBe(0);
    expect((await q('"12 Main Street"')).body.hits[0].highlight).toEqual({ address_1: ['12 Main Street'] });
    // "ann" is a whole word of Ann Smith (first name, e-mail); the rest only start with it. Ties: newest first.
    expect(names(await q('ann'))).toEqual(['Ann', 'Carla', 'Annabel']);
  });

  it('sorts by a field either way and pages with from and limit, total counting every match', async () => {
    expect(names(await search('sort_by=first_name'))).toEqual(['Ann', 'Annabel', 'Bob', 'Carla']);
    expect(names(await search('sort_by=postal_code&sort_dir=desc'))).toEqual(['Bob', 'Ann', 'Carla', 'Annabel']);
    expect(names(await search('sort_by=submission_timestamp&sort_dir=desc'))).toEqual([
      'Carla',
      'Bob',
      'Annabel',
      'Ann',
    ]);
    const page = await search('sort_by=last_name&from=1&limit=2');
    expect(page.body.total).toBe(4);
    expect(page.body.hits.map((h: { last_name: string }) => h.last_name)).toEqual(['Jones', 'Smith']);
    expect((await search('from=4')).body).toEqual({ total: 4, hits: [] });
  });

  it.each([
    ['limit=101', '/limit'],
    ['limit=0', '/limit'],
    ['limit=ten', '/limit'],
    ['from=-1', '/from'],
    ['from=901&limit=100', '/from'],
    ['from=1000', '/from'],
    ['sort_by=dob', '/sort_by'],
    ['sort_by=city&sort_dir=up', '/sort_dir'],
    ['sort_dir=asc', '/sort_dir'],
    ['q=ann', '/q'],
    ['query=a&query=b', '/query'],
  ])('refuses %s with 400 naming the parameter', async (query, path) => {
    const res = await search(query);
    expect(res.status, res.text).toBe(400);
    expect(JSON.stringify(res.body)).toContain(path);
  });

  it('reaches and counts at most 1,000 results, however many match, 100 at a time', async () => {
    const staff = (await f.service.accounts.authenticate(f.keys.staff))._unsafeUnwrap().account.id;
    for (let i = 0; i < 1050; i++)
      (
        await f.service.storage.search.index(
          aSearchDocument(staff, { first_name: 'Bulk', reference: String(i).padStart(4, '0') }),
        )
      )._unsafeUnwrap();
    const last = await search('query=bulk&sort_by=reference&from=900&limit=100', f.keys.staff);
    expect(last.status).toBe(200);
    // Counted up to the 1,000 that can be paged to: 1,000 means 1,000 or more.
    expect(last.body.total).toBe(1000);
    expect(last.body.hits).toHaveLength(100);
    expect(last.body.hits[99].reference).toBe('0999');
    expect((await search('query=bulk&limit=100', f.keys.staff)).body.hits).toHaveLength(100);
    expect((await search('query=bulk&from=1000&limit=1', f.keys.staff)).status).toBe(400);
    // Another account's leads never show: the demo account has no "bulk" lead.
    expect((await q('bulk')).body).toEqual({ total: 0, hits: [] });
  });

  it("never answers another account's leads", async () => {
    const other = await search('query=ann', f.keys.other);
    expect(other.body.total).toBe(1);
    expect(other.body.hits[0].last_name).toBe('Other');
    expect((await q('other')).body.total).toBe(0);
  });

  it('follows the lead to its latest event', async () => {
    const [first, second] = leadIds;
    const secondHit = (await q('annabel')).body.hits[0];
    (await f.service.storage.leads.setLatestEvent(first as string, secondHit.latest_event.id))._unsafeUnwrap();
    const hit = (await q('"ann smith"')).body.hits[0];
    expect(hit.lead_id).toBe(first);
    expect(hit.latest_event.lead_id).toBe(second);
  });

  it('refuses free accounts and missing keys with 401', async () => {
    expect((await search('query=ann', f.keys.free)).status).toBe(401);
    expect((await req({ path: '/search/leads?query=ann' })).status).toBe(401);
  });
});
