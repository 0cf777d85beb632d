import type { Principal, RollupRow } from '@leadroute/core';
import { manualClock } from '@leadroute/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Answer, type Call, call } from '../support/call';
import { createFixture, type Fixture } from '../support/fixture';
import { BINDINGS, type Binding, startBinding } from '../support/servers';

const NOW = '2026-01-15T15:00:00Z';
const WINDOW_HOUR = '2026-01-15T14:00:00.000Z';
const id = (n: number) => n.toString(16).padStart(24, 'a');

interface State {
  readonly f: Fixture;
  readonly demo: Principal;
  /** Alert keys of the demo account, in the order GET /alerts must give them. */
  readonly keys: string[];
  readonly otherKey: string;
  readonly staffKey: string;
  /** Raised an hour earlier, resolved by the pass at NOW. */
  readonly resolvedKey: string;
}

/** An hour in which `recipient` fails `failed` of `total` deliveries. */
function failing(accountId: string, recipient: string, failed: number, total: number, hour = WINDOW_HOUR): RollupRow[] {
  const base = {
    account_id: accountId,
    hour,
    flow_id: id(1),
    source_id: id(2),
    step_id: 's1',
    category: '',
    stage: '',
    cost: 0,
    revenue: 0,
    purchase_price: 0,
  };
  return [
    { ...base, recipient_id: recipient, kind: 'recipient', outcome: 'success', count: total - failed },
    { ...base, recipient_id: recipient, kind: 'recipient', outcome: 'failure', count: failed },
  ];
}

async function setup(): Promise<State> {
  const clock = manualClock('2026-01-15T14:00:00Z');
  const f = await createFixture({ clock });
  const principal = async (key: string) => (await f.service.accounts.authenticate(key))._unsafeUnwrap();
  const [demo, other, staff] = [
    await principal(f.keys.demo),
    await principal(f.keys.other),
    await principal(f.keys.staff),
  ];
  (
    await f.service.storage.rollups.add(failing(demo.account.id, id(15), 40, 40, '2026-01-15T13:00:00.000Z'))
  )._unsafeUnwrap();
  (await f.service.alerts.detect())._unsafeUnwrap();
  clock.set(NOW);
  (
    await f.service.storage.rollups.add([
      ...failing(demo.account.id, id(10), 30, 40), // serious, 30 failed today
      ...failing(demo.account.id, id(11), 40, 40), // critical
      ...failing(demo.account.id, id(12), 60, 80), // serious, 60 failed today
      ...failing(other.account.id, id(13), 40, 40),
      ...failing(staff.account.id, id(14), 40, 40),
    ])
  )._unsafeUnwrap();
  (
    await f.service.alerts.settings.setPlatformOverrides({ types: { 'no-leads': { zero_run_hours: 3 } } })
  )._unsafeUnwrap();
  (
    await f.service.alerts.settings.setAccountOverrides(demo.account.id, {
      types: { 'recipient-skip': { enabled: false } },
    })
  )._unsafeUnwrap();
  (await f.service.alerts.detect())._unsafeUnwrap();
  const key = (p: Principal, n: number) => `recipient-failure:${p.account.id}:${id(n)}`;
  const keys = [key(demo, 11), key(demo, 12), key(demo, 10)];
  const actor = { type: 'user', id: 'u1', name: 'Ann' };
  // Each entry a second after the last: entries of one instant are in ID order, which is random (#18.1).
  for (const k of [keys[0] as string, key(staff, 14)]) {
    clock.advance(1000);
    (await f.service.alerts.addActivity(k, { kind: 'ack', actor, source: 'ui' }))._unsafeUnwrap();
    clock.advance(1000);
    (
      await f.service.alerts.addActivity(k, {
        kind: 'comment',
        actor,
        source: 'slack',
        visibility: 'internal',
        data: { text: 'buyer endpoint down' },
      })
    )._unsafeUnwrap();
  }
  return { f, demo, keys, otherKey: key(other, 13), staffKey: key(staff, 14), resolvedKey: key(demo, 15) };
}

interface Case {
  readonly name: string;
  readonly request: (s: State) => Call;
  readonly status: number;
  readonly check?: (res: Answer, s: State) => void | Promise<void>;
}

const activity = (key: string, query = '') => `/alerts/${encodeURIComponent(key)}/activity${query}`;
const badRequest = (param: string) => (r: Answer) => {
  expect(r.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
  expect(JSON.stringify(r.body)).toContain(`/${param}`);
};

const cases: Case[] = [
  { name: 'GET /alerts without a key is 401', request: () => ({ path: '/alerts' }), status: 401 },
  { name: 'GET /alerts/settings without a key is 401', request: () => ({ path: '/alerts/settings' }), status: 401 },
  {
    name: 'GET /alerts/{key}/activity without a key is 401',
    request: (s) => ({ path: activity(s.keys[0] as string) }),
    status: 401,
  },
  {
    name: "GET /alerts lists the active alerts, critical first, then by today's affected volume",
    request: (s) => ({ path: '/alerts', key: s.f.keys.demo }),
    status: 200,
    check: (r, s) => {
      expect(r.body.map((a: { key: string }) => a.key)).toEqual(s.keys);
      expect(r.body.map((a: { severity: string }) => a.severity)).toEqual(['critical', 'serious', 'serious']);
      expect(Object.keys(r.body[0]).sort()).toEqual(
        [
          'key',
          'type',
          'kind',
          'severity',
          'message',
          'detail',
          'flow_id',
          'flow_name',
          'entity_id',
          'entity_name',
          'recipient_id',
          'outcome',
          'time_zone',
          'first_seen_at',
          'last_seen_at',
          'data',
        ].sort(),
      );
      expect(r.body[0]).toMatchObject({
        time_zone: 'America/New_York',
        first_seen_at: '2026-01-15T15:00:00.000Z',
        data: { rate: 1, total: 40 },
      });
    },
  },
  {
    name: 'another account sees only its own alerts',
    request: (s) => ({ path: '/alerts', key: s.f.keys.other }),
    status: 200,
    check: (r, s) => expect(r.body.map((a: { key: string }) => a.key)).toEqual([s.otherKey]),
  },
  {
    name: 'an account with no alerts gets []',
    request: (s) => ({ path: '/alerts', key: s.f.keys.free }),
    status: 200,
    check: (r) => expect(r.body).toEqual([]),
  },
  {
    name: 'GET /alerts/settings answers the effective settings: defaults, platform and account changes',
    request: (s) => ({ path: '/alerts/settings', key: s.f.keys.demo }),
    status: 200,
    check: (r) => {
      expect(r.body.enabled).toBe(true);
      expect(Object.keys(r.body.types).sort()).toEqual(
        [
          'recipient-failure',
          'recipient-skip',
          'source-rejects',
          'no-leads',
          'new-source',
          'duplicate-leads',
          'invalid-email',
          'invalid-phone',
          'missing-tf-cert',
          'tf-failures',
        ].sort(),
      );
      expect(r.body.types['recipient-skip'].enabled).toBe(false);
      expect(r.body.types['no-leads'].zero_run_hours).toBe(3);
      for (const t of Object.values(r.body.types) as Record<string, unknown>[]) {
        expect(typeof t.enabled).toBe('boolean');
        expect(typeof t.send_email).toBe('boolean');
        expect(t.messages).toEqual(expect.any(Object));
        expect(t.details).toEqual(expect.any(Object));
      }
    },
  },
  {
    name: "another account's settings do not carry this account's changes",
    request: (s) => ({ path: '/alerts/settings', key: s.f.keys.other }),
    status: 200,
    check: (r) => expect(r.body.types['recipient-skip'].enabled).toBe(true),
  },
  {
    name: 'GET /alerts/{key}/activity answers customer entries newest first; the last page has next_before null',
    request: (s) => ({ path: activity(s.keys[0] as string), key: s.f.keys.demo }),
    status: 200,
    check: (r) => {
      expect(r.body.entries.map((e: { kind: string }) => e.kind)).toEqual(['ack', 'created']);
      expect(r.body.next_before).toBeNull();
      expect(Object.keys(r.body.entries[0]).sort()).toEqual(['actor', 'at', 'data', 'kind', 'source', 'visibility']);
      expect(r.body.entries[1]).toMatchObject({
        kind: 'created',
        visibility: 'customer',
        source: 'collector',
        data: { severity: 'critical' },
      });
    },
  },
  {
    name: "#19.6 operator staff read another account's alert with its internal entries, with their own key",
    request: (s) => ({ path: activity(s.staffKey), key: s.f.keys.operator }),
    status: 200,
    check: (r) =>
      expect(r.body.entries.map((e: { kind: string; visibility: string }) => `${e.kind}:${e.visibility}`)).toEqual([
        'comment:internal',
        'ack:customer',
        'created:customer',
      ]),
  },
  {
    name: "#19.6 operator staff read any account's alert: the demo account's too",
    request: (s) => ({ path: activity(s.keys[0] as string), key: s.f.keys.operator }),
    status: 200,
    check: (r) =>
      expect(r.body.entries.map((e: { kind: string; visibility: string }) => `${e.kind}:${e.visibility}`)).toEqual([
        'comment:internal',
        'ack:customer',
        'created:customer',
      ]),
  },
  {
    name: '#19.6 an account flagged staff is a customer: its own alert shows customer entries only',
    request: (s) => ({ path: activity(s.staffKey), key: s.f.keys.staff }),
    status: 200,
    check: (r) =>
      expect(r.body.entries.map((e: { kind: string; visibility: string }) => `${e.kind}:${e.visibility}`)).toEqual([
        'ack:customer',
        'created:customer',
      ]),
  },
  {
    name: '#19.6 an operator key opens only what staff may read: GET /alerts is 401',
    request: (s) => ({ path: '/alerts', key: s.f.keys.operator }),
    status: 401,
  },
  {
    name: '#19.6 operator staff get 404 for an unknown alert',
    request: (s) => ({ path: activity('recipient-failure:nope'), key: s.f.keys.operator }),
    status: 404,
  },
  {
    name: 'limit pages with an opaque cursor',
    request: (s) => ({ path: activity(s.keys[0] as string, '?limit=1'), key: s.f.keys.demo }),
    status: 200,
    check: async (r, s) => {
      expect(r.body.entries.map((e: { kind: string }) => e.kind)).toEqual(['ack']);
      expect(typeof r.body.next_before).toBe('string');
      const base = (r as Answer & { base: string }).base;
      const next = await call(base, {
        path: activity(s.keys[0] as string, `?limit=1&before=${encodeURIComponent(r.body.next_before)}`),
        key: s.f.keys.demo,
      });
      expect(next.body.entries.map((e: { kind: string }) => e.kind)).toEqual(['created']);
      const last = await call(base, {
        path: activity(s.keys[0] as string, `?limit=1&before=${encodeURIComponent(next.body.next_before)}`),
        key: s.f.keys.demo,
      });
      expect(last.body).toEqual({ entries: [], next_before: null });
    },
  },
  {
    name: 'before as an ISO date returns only strictly older entries',
    request: (s) => ({ path: activity(s.keys[0] as string, '?before=2026-01-15T15:00:00Z'), key: s.f.keys.demo }),
    status: 200,
    check: (r) => expect(r.body).toEqual({ entries: [], next_before: null }),
  },
  {
    name: 'before as a later date includes everything',
    request: (s) => ({ path: activity(s.keys[0] as string, '?before=2026-01-16'), key: s.f.keys.demo }),
    status: 200,
    check: (r) => expect(r.body.entries).toHaveLength(2),
  },
  {
    name: 'kind filters entries',
    request: (s) => ({ path: activity(s.keys[0] as string, '?kind=created'), key: s.f.keys.demo }),
    status: 200,
    check: (r) => expect(r.body.entries.map((e: { kind: string }) => e.kind)).toEqual(['created']),
  },
  {
    name: 'an invalid before is 400',
    request: (s) => ({ path: activity(s.keys[0] as string, '?before=yesterday'), key: s.f.keys.demo }),
    status: 400,
    check: badRequest('before'),
  },
  {
    name: 'limit 0 is 400',
    request: (s) => ({ path: activity(s.keys[0] as string, '?limit=0'), key: s.f.keys.demo }),
    status: 400,
    check: badRequest('limit'),
  },
  {
    name: 'limit 201 is 400',
    request: (s) => ({ path: activity(s.keys[0] as string, '?limit=201'), key: s.f.keys.demo }),
    status: 400,
    check: badRequest('limit'),
  },
  {
    name: 'a non-numeric limit is 400',
    request: (s) => ({ path: activity(s.keys[0] as string, '?limit=ten'), key: s.f.keys.demo }),
    status: 400,
    check: badRequest('limit'),
  },
  {
    name: 'limit 200 is accepted',
    request: (s) => ({ path: activity(s.keys[0] as string, '?limit=200'), key: s.f.keys.demo }),
    status: 200,
  },
  {
    name: 'an unknown kind is 400',
    request: (s) => ({ path: activity(s.keys[0] as string, '?kind=deleted'), key: s.f.keys.demo }),
    status: 400,
    check: badRequest('kind'),
  },
  {
    name: 'an unknown key is 404',
    request: (s) => ({ path: activity(`recipient-failure:${s.demo.account.id}:${id(99)}`), key: s.f.keys.demo }),
    status: 404,
  },
  {
    name: "another account's key is 404",
    request: (s) => ({ path: activity(s.otherKey), key: s.f.keys.demo }),
    status: 404,
  },
  {
    name: 'a resolved alert is not listed but its timeline stays readable',
    request: (s) => ({ path: activity(s.resolvedKey), key: s.f.keys.demo }),
    status: 200,
    check: (r) => {
      expect(r.body.entries.map((e: { kind: string; at: string }) => `${e.kind}@${e.at}`)).toEqual([
        'resolved@2026-01-15T15:00:00.000Z',
        'created@2026-01-15T14:00:00.000Z',
      ]);
    },
  },
];

describe.each(BINDINGS)('alerts over %s', (name) => {
  let binding: Binding;
  let state: State;
  beforeAll(async () => {
    state = await setup();
    binding = await startBinding(name, state.f.service);
  });
  afterAll(() => binding.close());

  it.each(cases)('$name', async (c) => {
    const res = await call(binding.url, c.request(state));
    expect(res.status, res.text).toBe(c.status);
    await c.check?.(Object.assign(res, { base: binding.url }), state);
  });
});

describe.each(BINDINGS)('#19.5 a new-source alert over %s', (name) => {
  it('#19.5 is not flow-scoped: GET /alerts shows it with flow_id and flow_name null', async () => {
    const f = await createFixture();
    const principal = (await f.service.accounts.authenticate(f.keys.demo))._unsafeUnwrap();
    const vendor = (
      await f.service.entities.create(principal, {
        name: 'Fresh Vendor',
        module_ids: [],
        source: 'seller',
        recipient: null,
      })
    )._unsafeUnwrap().id;
    const flow = (
      await f.service.flows.create(principal, { name: 'Some flow', sources: [{ entity_id: vendor }], steps: [] })
    )._unsafeUnwrap();
    (await f.service.leads.submit(flow.id, vendor, { first_name: 'Ann' }))._unsafeUnwrap();
    const binding = await startBinding(name, f.service);
    try {
      const res = await call(binding.url, { path: '/alerts', key: f.keys.demo });
      expect(res.status).toBe(200);
      const alert = (res.body as Array<{ type: string }>).find((a) => a.type === 'new-source');
      expect(alert).toMatchObject({ type: 'new-source', entity_id: vendor, flow_id: null, flow_name: null });
    } finally {
      await binding.close();
    }
  });
});
