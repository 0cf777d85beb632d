import type { Principal } from '@leadroute/core';
import { memoryFileStore, type MemoryOutbox, memoryOutbox } from '@leadroute/memory';
import { type ManualClock, manualClock } from '@leadroute/testkit';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { exportEvent, type GatedFileStore, gatedFileStore } from '../exports/support';
import { type Answer, type Call, call } from '../support/call';
import { createFixture, type Fixture } from '../support/fixture';
import { BINDINGS, type Binding, startBinding } from '../support/servers';

const UNKNOWN_ID = 'aaaaaaaaaaaaaaaaaaaaaaaa';
const DAY = 86_400_000;
const ROW_LIMIT = 5;
const valid = {
  start: '2026-03-01T00:00:00Z',
  end: '2026-03-10T00:00:00Z',
  fields: ['id', 'lead.first_name', 'vars.lead.state', 'start_timestamp'],
  filter_rules: [{ lhv: 'lead.state', op: 'is equal to', rhv: 'TX' }],
  email_to: ['ops@example.com'],
};

interface State {
  readonly f: Fixture;
  readonly clock: ManualClock;
  readonly outbox: MemoryOutbox;
  readonly gate: GatedFileStore;
  readonly demo: Principal;
  /** Export IDs by name, as steps create them. */
  readonly ids: Record<string, string>;
  /** The last file link answered, and the URL it resolved to. */
  link?: string;
  req(c: Call): Promise<Answer>;
}

/** One step: optional work first (running jobs, moving the clock), then a request and what must come back. */
interface Case {
  readonly name: string;
  readonly before?: (s: State) => Promise<void> | void;
  readonly request: (s: State) => Call | { readonly url: string };
  readonly status: number;
  readonly check?: (res: Answer, s: State) => void;
}

const problem = (code: string) => (res: Answer) => {
  expect(res.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
  expect(res.body).toMatchObject({ status: res.status, code });
};
const paths = (res: Answer) => (res.body.errors as { path: string }[]).map((e) => e.path).sort();
const create = (s: State, name: string, body: unknown) => async () => {
  const res = await s.req({ path: '/exports', key: s.f.keys.demo, json: body });
  expect(res.status, res.text).toBe(201);
  s.ids[name] = res.body.id;
};

const cases: Case[] = [
  // Authentication
  {
    name: 'GET /exports without a key is 401',
    request: () => ({ path: '/exports' }),
    status: 401,
    check: problem('Unauthorized'),
  },
  { name: 'POST /exports without a key is 401', request: () => ({ path: '/exports', json: valid }), status: 401 },
  {
    name: 'free accounts get 401 on exports',
    request: (s) => ({ path: '/exports', key: s.f.keys.free, json: valid }),
    status: 401,
  },
  {
    name: 'GET /exports/{id}/file without a key is 401',
    request: () => ({ path: `/exports/${UNKNOWN_ID}/file` }),
    status: 401,
  },
  // Creation
  {
    name: 'an export without start, end or fields is 422 naming each',
    request: (s) => ({ path: '/exports', key: s.f.keys.demo, json: {} }),
    status: 422,
    check: (r) => {
      problem('Validation')(r);
      expect(paths(r)).toEqual(['/end', '/fields', '/start']);
    },
  },
  {
    name: 'bad dates, an empty range, bad fields, rules, addresses and flags are 422',
    request: (s) => ({
      path: '/exports',
      key: s.f.keys.demo,
      json: {
        start: '2026-03-10T00:00:00Z',
        end: '2026-03-01T00:00:00Z',
        fields: ['ok', 'not a path', 'ok'],
        filter_rules: [{ lhv: 'lead.state', op: 'is pretty' }],
        email_to: ['not-an-address'],
        standard_dates: 'yes',
      },
    }),
    status: 422,
    check: (r) => {
      expect(paths(r)).toEqual(
        expect.arrayContaining(['/end', '/fields/1', '/fields/2', '/email_to/0', '/standard_dates']),
      );
      expect(paths(r).some((p) => p.startsWith('/filter_rules/0'))).toBe(true);
    },
  },
  {
    name: 'a start that is not a date is 422',
    request: (s) => ({ path: '/exports', key: s.f.keys.demo, json: { ...valid, start: 'yesterday' } }),
    status: 422,
    check: (r) => expect(paths(r)).toEqual(['/start']),
  },
  {
    name: 'a body that is not an object is 422',
    request: (s) => ({ path: '/exports', key: s.f.keys.demo, json: [valid] }),
    status: 422,
  },
  {
    name: 'POST /exports creates, reading only its own fields',
    before: (s) => s.gate.hold(),
    request: (s) => ({
      path: '/exports',
      key: s.f.keys.demo,
      json: {
        ...valid,
        id: UNKNOWN_ID,
        status: 'complete',
        exported_docs: 99,
        user: { id: 'x' },
        file_name: 'evil.csv',
        expires_at: '2099-01-01T00:00:00Z',
        downloads: [{}],
      },
    }),
    status: 201,
    check: (r, s) => {
      s.ids.main = r.body.id;
      expect(r.body.id).toMatch(/^[0-9a-f]{24}$/);
      expect(r.body.id).not.toBe(UNKNOWN_ID);
      expect(r.body).toMatchObject({
        status: 'created',
        exported_docs: 0,
        downloads: [],
        date_format: 'legacy',
        start: '2026-03-01T00:00:00.000Z',
        end: '2026-03-10T00:00:00.000Z',
        fields: valid.fields,
        email_to: valid.email_to,
        user: { ...s.demo.user },
      });
      expect(r.body.filter_rules[0]).toMatchObject({ lhv: 'lead.state', rhv: 'TX' });
      expect(r.body.created_at).toBe(new Date(s.clock.now()).toISOString());
      expect(Date.parse(r.body.expires_at) - Date.parse(r.body.created_at)).toBe(7 * DAY);
      expect(r.body).not.toHaveProperty('file_name');
      expect(r.body).not.toHaveProperty('standard_dates');
    },
  },
  {
    name: 'GET /exports/{id} answers the created export',
    request: (s) => ({ path: `/exports/${s.ids.main}`, key: s.f.keys.demo }),
    status: 200,
    check: (r) => expect(r.body.status).toBe('created'),
  },
  {
    name: 'the file of a created export is 404',
    request: (s) => ({ path: `/exports/${s.ids.main}/file`, key: s.f.keys.demo }),
    status: 404,
    check: problem('NotFound'),
  },
  // Processing: the file store holds the write, so the job is caught mid-way.
  {
    name: 'while processing, the export says so and its file is 404',
    before: async (s) => {
      void s.f.service.exports.runPending();
      await vi.waitFor(async () =>
        expect((await s.f.service.storage.exports.get(s.ids.main as string))._unsafeUnwrap()?.status).toBe(
          'processing',
        ),
      );
    },
    request: (s) => ({ path: `/exports/${s.ids.main}/file`, key: s.f.keys.demo }),
    status: 404,
    check: async (_r, s) => {
      const res = await s.req({ path: `/exports/${s.ids.main}`, key: s.f.keys.demo });
      expect(res.body.status).toBe('processing');
    },
  },
  {
    name: 'once written, the export is complete with file_name and exported_docs',
    before: async (s) => {
      s.gate.pass();
      await s.f.service.exports.runPending();
    },
    request: (s) => ({ path: `/exports/${s.ids.main}`, key: s.f.keys.demo }),
    status: 200,
    check: (r, s) => {
      expect(r.body).toMatchObject({
        status: 'complete',
        exported_docs: 3,
        file_name: `leads_2026-03-10_${s.ids.main}.csv`,
      });
      expect(r.body).not.toHaveProperty('reason');
      expect(s.outbox.messages.map((m) => m.subject)).toEqual([
        `[Demo] Export ready: leads_2026-03-10_${s.ids.main}.csv`,
      ]);
      expect(s.outbox.messages[0]?.to).toEqual(['ops@example.com']);
    },
  },
  {
    name: 'GET /exports/{id}/file answers a link valid 10 seconds and records the call',
    request: (s) => ({ path: `/exports/${s.ids.main}/file`, key: s.f.keys.demo }),
    status: 200,
    check: async (r, s) => {
      expect(r.body.url).toMatch(/^download\?expires=\d+&signature=[\w-]{43}$/);
      expect(Date.parse(r.body.expires_at) - s.clock.now()).toBe(10_000);
      s.link = r.body.url;
      const exp = (await s.req({ path: `/exports/${s.ids.main}`, key: s.f.keys.demo })).body;
      expect(exp.downloads).toEqual([{ at: new Date(s.clock.now()).toISOString(), user: { ...s.demo.user } }]);
    },
  },
  {
    name: 'the link downloads the CSV without a key',
    before: (s) => s.clock.advance(9_999),
    request: (s) => ({ url: s.link as string }),
    status: 200,
    check: (r, s) => {
      expect(r.headers.get('content-type')).toMatch(/^text\/csv/);
      expect(r.headers.get('content-disposition')).toBe(`attachment; filename="leads_2026-03-10_${s.ids.main}.csv"`);
      const lines = r.text.trimEnd().split('\n');
      expect(lines[0]).toBe('id,lead.first_name,vars.lead.state,start_timestamp');
      expect(lines.slice(1).map((l) => l.split(',').slice(1).join(','))).toEqual([
        'Ann,TX,2026-03-02 07:00:00',
        '"Bo, Jr.",TX,2026-03-03 07:00:00',
        'Cy,TX,2026-03-04 07:00:00',
      ]);
    },
  },
  {
    name: 'after 10 seconds the link is refused',
    before: (s) => s.clock.advance(1),
    request: (s) => ({ url: s.link as string }),
    status: 403,
    check: (r) => {
      problem('Forbidden')(r);
      expect(r.body.detail).toMatch(/expired/);
    },
  },
  {
    name: 'a link with a changed signature is refused',
    request: (s) => ({
      url: (s.link as string).replace(/signature=./, (m) => `${m.slice(0, -1)}${m.endsWith('A') ? 'B' : 'A'}`),
    }),
    status: 403,
  },
  {
    name: 'a link with a later expiry is refused',
    request: (s) => ({
      url: (s.link as string).replace(/expires=(\d+)/, (_m, t: string) => `expires=${Number(t) + 60_000}`),
    }),
    status: 403,
  },
  {
    name: 'a download without its parameters is refused',
    request: (s) => ({ path: `/exports/${s.ids.main}/download` }),
    status: 403,
  },
  {
    name: 'a second file call is recorded too',
    request: (s) => ({ path: `/exports/${s.ids.main}/file`, key: s.f.keys.demo }),
    status: 200,
    check: async (_r, s) => {
      const exp = (await s.req({ path: `/exports/${s.ids.main}`, key: s.f.keys.demo })).body;
      expect(exp.downloads).toHaveLength(2);
    },
  },
  // Lookups across accounts and malformed IDs
  {
    name: "another account's export is 404 with an empty body",
    request: (s) => ({ path: `/exports/${s.ids.main}`, key: s.f.keys.other }),
    status: 404,
    check: (r) => expect(r.text).toBe(''),
  },
  {
    name: 'an unknown export is 404 with an empty body',
    request: (s) => ({ path: `/exports/${UNKNOWN_ID}`, key: s.f.keys.demo }),
    status: 404,
    check: (r) => expect(r.text).toBe(''),
  },
  {
    name: 'a malformed export ID is 400',
    request: (s) => ({ path: '/exports/not-an-id', key: s.f.keys.demo }),
    status: 400,
    check: problem('BadRequest'),
  },
  {
    name: "another account's export file is 404",
    request: (s) => ({ path: `/exports/${s.ids.main}/file`, key: s.f.keys.other }),
    status: 404,
  },
  {
    name: 'a malformed ID on the file endpoint is 422',
    request: (s) => ({ path: '/exports/12345/file', key: s.f.keys.demo }),
    status: 422,
    check: problem('Validation'),
  },
  // Truncated and error
  {
    name: 'an export past the row limit ends truncated with a reason',
    before: async (s) => {
      await create(s, 'truncated', { ...valid, filter_rules: [], standard_dates: true })();
      await s.f.service.exports.runPending();
    },
    request: (s) => ({ path: `/exports/${s.ids.truncated}`, key: s.f.keys.demo }),
    status: 200,
    check: (r) => {
      expect(r.body).toMatchObject({ status: 'truncated', exported_docs: ROW_LIMIT, date_format: 'standard' });
      expect(r.body.reason.message).toMatch(/More than 5 rows match, the row limit/);
      expect(r.body).not.toHaveProperty('file_name');
    },
  },
  // The spec: a file is available only after the export is complete (#19.10).
  {
    name: '#19.10 a truncated export has no file: the file endpoint answers 404',
    request: (s) => ({ path: `/exports/${s.ids.truncated}/file`, key: s.f.keys.demo }),
    status: 404,
  },
  {
    name: 'an export whose file cannot be written ends in error and its file is 404',
    before: async (s) => {
      // A second later than the truncated one: exports made within one second list in ID order, which is random
      // (#18.1).
      s.clock.advance(1000);
      s.gate.fail();
      await create(s, 'failed', valid)();
      await s.f.service.exports.runPending();
      s.gate.pass();
    },
    request: (s) => ({ path: `/exports/${s.ids.failed}/file`, key: s.f.keys.demo }),
    status: 404,
    check: async (_r, s) => {
      const exp = (await s.req({ path: `/exports/${s.ids.failed}`, key: s.f.keys.demo })).body;
      expect(exp).toMatchObject({
        status: 'error',
        error: expect.stringMatching(/file store is down/),
        reason: { message: expect.stringMatching(/down/) },
      });
      expect(s.outbox.messages.at(-1)?.subject).toBe('[Demo] Export failed');
    },
  },
  // Listing
  {
    name: 'GET /exports lists the account\u2019s exports newest first',
    request: (s) => ({ path: '/exports', key: s.f.keys.demo }),
    status: 200,
    check: (r, s) => {
      expect(r.body.map((e: { id: string }) => e.id)).toEqual([s.ids.failed, s.ids.truncated, s.ids.main]);
    },
  },
  {
    name: 'limit and before_id page the list',
    request: (s) => ({ path: `/exports?limit=1&before_id=${s.ids.truncated}`, key: s.f.keys.demo }),
    status: 200,
    check: (r, s) => expect(r.body.map((e: { id: string }) => e.id)).toEqual([s.ids.main]),
  },
  {
    name: 'after_id pages the other way',
    request: (s) => ({ path: `/exports?after_id=${s.ids.main}`, key: s.f.keys.demo }),
    status: 200,
    check: (r, s) => expect(r.body.map((e: { id: string }) => e.id)).toEqual([s.ids.failed, s.ids.truncated]),
  },
  {
    name: 'another account lists none of them',
    request: (s) => ({ path: '/exports', key: s.f.keys.other }),
    status: 200,
    check: (r) => expect(r.body).toEqual([]),
  },
  ...['limit=0', 'limit=101', 'limit=ten', 'limit=1&limit=2', 'before_id=xyz', `after_id=${UNKNOWN_ID}0`].map((q) => ({
    name: `GET /exports?${q} is 400`,
    request: (s: State) => ({ path: `/exports?${q}`, key: s.f.keys.demo }),
    status: 400,
    check: problem('BadRequest'),
  })),
  {
    name: 'expired exports leave the list and their files',
    before: (s) => s.clock.advance(7 * DAY),
    request: (s) => ({ path: '/exports', key: s.f.keys.demo }),
    status: 200,
    check: async (r, s) => {
      expect(r.body).toEqual([]);
      const file = await s.req({ path: `/exports/${s.ids.main}/file`, key: s.f.keys.demo });
      expect(file.status).toBe(404);
      expect(file.body.detail).toMatch(/expired/);
    },
  },
];

describe.each(BINDINGS)('exports over HTTP through %s', (name) => {
  let binding: Binding;
  let s: State;

  beforeAll(async () => {
    const clock = manualClock('2026-03-10T12:00:00Z');
    const outbox = memoryOutbox();
    const gate = gatedFileStore(memoryFileStore());
    const f = await createFixture({
      clock,
      notifier: outbox,
      fileStore: gate.store,
      exports: { worker: false, rowLimit: ROW_LIMIT, maxAttempts: 1 },
    });
    binding = await startBinding(name, f.service);
    const demo = (await f.service.accounts.authenticate(f.keys.demo))._unsafeUnwrap();
    const other = (await f.service.accounts.authenticate(f.keys.other))._unsafeUnwrap();
    const at = (day: number) => Date.UTC(2026, 2, day, 12);
    const events = [
      exportEvent(demo.account.id, at(1), { first_name: 'Zed', state: 'CA' }),
      exportEvent(demo.account.id, at(2), { first_name: 'Ann', state: 'TX' }),
      exportEvent(demo.account.id, at(3), { first_name: 'Bo, Jr.', state: 'TX' }),
      exportEvent(demo.account.id, at(4), { first_name: 'Cy', state: 'TX' }),
      exportEvent(demo.account.id, at(5), { first_name: 'Di', state: 'NY' }),
      exportEvent(demo.account.id, at(6), { first_name: 'Ed', state: 'NY' }),
      exportEvent(demo.account.id, at(7), { first_name: 'Flo', state: 'NY' }),
      exportEvent(demo.account.id, at(11), { first_name: 'Late', state: 'TX' }),
      exportEvent(other.account.id, at(2), { first_name: 'Other', state: 'TX' }),
    ];
    for (const e of events) (await f.service.storage.events.insert(e))._unsafeUnwrap();
    s = { f, clock, outbox, gate, demo, ids: {}, req: (c) => call(binding.url, c) };
  });
  afterAll(async () => {
    await s.f.service.exports.worker.stop();
    await binding.close();
  });

  for (const c of cases) {
    it(c.name, async () => {
      await c.before?.(s);
      const r = c.request(s);
      // A link is relative to the file endpoint of the export it was made for.
      const res = 'url' in r ? await call(binding.url, { path: `/exports/${s.ids.main}/${r.url}` }) : await s.req(r);
      expect(res.status, res.text).toBe(c.status);
      await c.check?.(res, s);
    });
  }
});
