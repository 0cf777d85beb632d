import { EVENT_SCHEMA_VERSION, HANDLER_VERSION, newId, type StoredEvent } from '@leadroute/core';
import { manualClock } from '@leadroute/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Call, call } from '../support/call';
import { createFixture, type Fixture } from '../support/fixture';
import { BINDINGS, type Binding, startBinding } from '../support/servers';

// The script: one flow, sources S1 and S2, recipients R1 and R2, in America/New_York
// around the spring-forward change of 2026-03-08 (02:00 EST -> 03:00 EDT = 07:00Z).
const F = 'f0000000000000000000000f';
const S1 = 'a1000000000000000000000a';
const S2 = 'a2000000000000000000000a';
const R1 = 'b1000000000000000000000b';
const R2 = 'b2000000000000000000000b';
const lead = (n: number) => `${'c'.repeat(22)}0${n}`;
const P1 = 'd00000000000000000000001';
const P2 = 'd00000000000000000000002';
const P3 = 'd00000000000000000000003';
const t = (iso: string) => Date.parse(iso);

type Script = Partial<StoredEvent> &
  Pick<StoredEvent, 'type' | 'outcome' | 'lead_id' | 'source_id' | 'start_timestamp'>;

function event(accountId: string, s: Script, fields: Record<string, unknown> = {}): StoredEvent {
  const id = newId(s.start_timestamp);
  return {
    id,
    account_id: accountId,
    reason: '',
    vars: { lead: fields, event_id: id },
    host: 'test',
    end_timestamp: s.start_timestamp,
    ms: 0,
    wait_ms: 0,
    overhead_ms: 0,
    lag_ms: 0,
    total_ms: 0,
    handler_version: HANDLER_VERSION,
    version: EVENT_SCHEMA_VERSION,
    cap_reached: false,
    ping_limit_reached: false,
    expires_at: '2027-01-01T00:00:00.000Z',
    flow_id: F,
    recipient_id: null,
    ...s,
  };
}

const feedback = (type: 'conversion' | 'return', reason: string) => ({
  type,
  reason,
  occurred_at: '2026-03-08T00:00:00Z',
  event_id: 'e'.repeat(24),
});

/** Every event of the script, in the order recorded. Lead fields carry `state` for grouping by a lead field. */
function script(): [Script, Record<string, unknown>?][] {
  const L1 = { state: 'TX', first_name: 'Ann' };
  const L3 = { state: 'TX' };
  const L4 = { state: 'NY', ping_id: P1 };
  return [
    [
      {
        type: 'source',
        outcome: 'success',
        lead_id: lead(1),
        source_id: S1,
        start_timestamp: t('2026-03-07T15:00:00Z'),
        purchase_price: 10,
      },
      L1,
    ],
    [
      {
        type: 'recipient',
        outcome: 'success',
        lead_id: lead(1),
        source_id: S1,
        recipient_id: R1,
        step_id: 's1',
        start_timestamp: t('2026-03-07T15:00:01Z'),
        cost: 1,
        revenue: 25,
      },
      L1,
    ],
    [
      {
        type: 'source',
        outcome: 'failure',
        reason: 'Duplicate lead',
        lead_id: lead(2),
        source_id: S1,
        start_timestamp: t('2026-03-08T06:30:00Z'),
        purchase_price: 10,
      },
      { state: 'CA' },
    ],
    [
      {
        type: 'source',
        outcome: 'success',
        lead_id: lead(3),
        source_id: S2,
        start_timestamp: t('2026-03-08T07:30:00Z'),
        purchase_price: 5,
      },
      L3,
    ],
    [
      {
        type: 'recipient',
        outcome: 'skip',
        reason: 'Step criteria not met',
        lead_id: lead(3),
        source_id: S2,
        recipient_id: R1,
        step_id: 's1',
        start_timestamp: t('2026-03-08T07:30:01Z'),
        cost: 1,
        revenue: 0,
      },
      L3,
    ],
    [
      {
        type: 'recipient',
        outcome: 'failure',
        reason: 'Rejected',
        lead_id: lead(3),
        source_id: S2,
        recipient_id: R2,
        step_id: 's2',
        start_timestamp: t('2026-03-08T07:30:02Z'),
        cost: 2,
        revenue: 0,
      },
      L3,
    ],
    [
      { type: 'ping', outcome: 'success', lead_id: P1, source_id: S2, start_timestamp: t('2026-03-08T12:00:00Z') },
      { state: 'NY' },
    ],
    [
      {
        type: 'ping',
        outcome: 'failure',
        reason: 'Ping limit reached.',
        lead_id: P2,
        source_id: S2,
        start_timestamp: t('2026-03-08T12:05:00Z'),
      },
      { state: 'NY' },
    ],
    [
      {
        type: 'feedback-received',
        outcome: 'success',
        lead_id: lead(1),
        source_id: S1,
        recipient_id: R1,
        step_id: 's1',
        start_timestamp: t('2026-03-08T20:00:00Z'),
        feedback: feedback('conversion', 'sold'),
      },
      L1,
    ],
    [
      {
        type: 'feedback-received',
        outcome: 'success',
        lead_id: lead(3),
        source_id: S2,
        recipient_id: R2,
        step_id: 's2',
        start_timestamp: t('2026-03-08T21:00:00Z'),
        feedback: feedback('return', 'bad phone'),
      },
      L3,
    ],
    [
      {
        type: 'feedback-sent',
        outcome: 'success',
        lead_id: lead(3),
        source_id: S2,
        recipient_id: R2,
        step_id: 's2',
        start_timestamp: t('2026-03-08T21:01:00Z'),
        feedback: feedback('return', 'bad phone'),
      },
      L3,
    ],
    // 23:30 EDT on March 8: still March 8 in New York, March 9 in UTC.
    [
      {
        type: 'source',
        outcome: 'success',
        lead_id: lead(4),
        source_id: S2,
        start_timestamp: t('2026-03-09T03:30:00Z'),
        purchase_price: 5,
      },
      L4,
    ],
    [
      {
        type: 'recipient',
        outcome: 'success',
        lead_id: lead(4),
        source_id: S2,
        recipient_id: R2,
        step_id: 's2',
        start_timestamp: t('2026-03-09T03:30:01Z'),
        cost: 2,
        revenue: 30,
      },
      L4,
    ],
    [
      { type: 'ping', outcome: 'success', lead_id: P3, source_id: S1, start_timestamp: t('2026-03-09T14:00:00Z') },
      { state: 'TX' },
    ],
    [
      {
        type: 'feedback-received',
        outcome: 'success',
        lead_id: lead(4),
        source_id: S2,
        recipient_id: R2,
        step_id: 's2',
        start_timestamp: t('2026-03-09T14:30:00Z'),
        feedback: feedback('conversion', 'funded'),
      },
      L4,
    ],
    [
      {
        type: 'feedback-received',
        outcome: 'failure',
        reason: 'no match',
        lead_id: lead(4),
        source_id: S2,
        recipient_id: R2,
        step_id: 's2',
        start_timestamp: t('2026-03-09T14:31:00Z'),
        feedback: feedback('conversion', 'sold'),
      },
      L4,
    ],
    [
      {
        type: 'feedback-sent',
        outcome: 'error',
        reason: 'timeout',
        lead_id: lead(1),
        source_id: S1,
        recipient_id: R1,
        step_id: 's1',
        start_timestamp: t('2026-03-09T14:32:00Z'),
        feedback: feedback('conversion', 'sold'),
      },
      L1,
    ],
    // Fall-back change of 2026-11-01: 01:30 EDT (05:30Z) and 01:30 EST (06:30Z).
    [
      {
        type: 'source',
        outcome: 'success',
        lead_id: lead(5),
        source_id: S1,
        start_timestamp: t('2026-11-01T05:30:00Z'),
        purchase_price: 1,
      },
      { state: 'TX' },
    ],
    [
      {
        type: 'source',
        outcome: 'success',
        lead_id: lead(6),
        source_id: S1,
        start_timestamp: t('2026-11-01T06:30:00Z'),
        purchase_price: 1,
      },
      { state: 'TX' },
    ],
  ];
}

const KINDS = ['source', 'recipient', 'return-received', 'return-sent', 'conversion-received', 'conversion-sent'];
const ZERO: Record<string, number> = {};
for (const k of KINDS) {
  for (const o of ['submitted', 'success', 'failure', 'error']) ZERO[`${k}-${o}`] = 0;
  if (k === 'recipient') ZERO['recipient-skip'] = 0;
}
Object.assign(ZERO, {
  'ping-submitted': 0,
  'ping-success': 0,
  'ping-success-rate': 0,
  'ping-win-rate': 0,
  cost: 0,
  revenue: 0,
  profit: 0,
  'cost-per-conversion-received-success': 0,
  'avg-cost-per-lead': 0,
  'avg-revenue-per-lead': 0,
});
const STAGES = { 'conversion-received-success:funded': 0, 'conversion-received-success:sold': 0 };
const row = (
  keys: Record<string, unknown>,
  counters: Record<string, number>,
  stages: Record<string, number> | false = STAGES,
) => ({ ...keys, ...ZERO, ...(stages || {}), ...counters });

// Hand-computed from the script.
const MAR7 = {
  'source-submitted': 1,
  'source-success': 1,
  'recipient-submitted': 1,
  'recipient-success': 1,
  cost: 11,
  revenue: 25,
  profit: 14,
  'avg-cost-per-lead': 11,
  'avg-revenue-per-lead': 25,
};
const MAR8 = {
  'source-submitted': 3,
  'source-success': 2,
  'source-failure': 1,
  'recipient-submitted': 3,
  'recipient-success': 1,
  'recipient-failure': 1,
  'recipient-skip': 1,
  'return-received-submitted': 1,
  'return-received-success': 1,
  'return-sent-submitted': 1,
  'return-sent-success': 1,
  'conversion-received-submitted': 1,
  'conversion-received-success': 1,
  'ping-submitted': 2,
  'ping-success': 1,
  'ping-success-rate': 0.5,
  'ping-win-rate': 1,
  cost: 14,
  revenue: 30,
  profit: 16,
  'cost-per-conversion-received-success': 14,
  'avg-cost-per-lead': 7,
  'avg-revenue-per-lead': 15,
  'conversion-received-success:sold': 1,
};
const MAR9 = {
  'conversion-received-submitted': 2,
  'conversion-received-success': 1,
  'conversion-received-failure': 1,
  'conversion-sent-submitted': 1,
  'conversion-sent-error': 1,
  'ping-submitted': 1,
  'ping-success': 1,
  'ping-success-rate': 1,
  'conversion-received-success:funded': 1,
};
const TOTAL = {
  'source-submitted': 4,
  'source-success': 3,
  'source-failure': 1,
  'recipient-submitted': 4,
  'recipient-success': 2,
  'recipient-failure': 1,
  'recipient-skip': 1,
  'return-received-submitted': 1,
  'return-received-success': 1,
  'return-sent-submitted': 1,
  'return-sent-success': 1,
  'conversion-received-submitted': 3,
  'conversion-received-success': 2,
  'conversion-received-failure': 1,
  'conversion-sent-submitted': 1,
  'conversion-sent-error': 1,
  'ping-submitted': 3,
  'ping-success': 2,
  'ping-success-rate': 0.6667,
  'ping-win-rate': 0.5,
  cost: 25,
  revenue: 55,
  profit: 30,
  'cost-per-conversion-received-success': 12.5,
  'avg-cost-per-lead': 8.33,
  'avg-revenue-per-lead': 18.33,
  'conversion-received-success:sold': 1,
  'conversion-received-success:funded': 1,
};
const RANGE = 'start=2026-03-07&end=2026-03-10';

describe.each(BINDINGS)('event statistics over HTTP through %s', (name) => {
  let binding: Binding;
  let f: Fixture;
  const clock = manualClock('2026-03-09T15:00:00Z');
  const req = (c: Call) => call(binding.url, c);
  const stats = (query: string, headers: Record<string, string> = {}, key = f.keys.demo) =>
    req({ path: `/events/stats?${query}`, key, headers });

  beforeAll(async () => {
    f = await createFixture({ clock });
    binding = await startBinding(name, f.service);
    const demo = (await f.service.accounts.authenticate(f.keys.demo))._unsafeUnwrap().account.id;
    const other = (await f.service.accounts.authenticate(f.keys.other))._unsafeUnwrap().account.id;
    for (const [s, fields] of script()) (await f.service.recorder.record(event(demo, s, fields)))._unsafeUnwrap();
    (
      await f.service.recorder.record(
        event(other, {
          type: 'source',
          outcome: 'success',
          lead_id: lead(9),
          source_id: S1,
          start_timestamp: t('2026-03-08T12:00:00Z'),
          purchase_price: 99,
        }),
      )
    )._unsafeUnwrap();
  });
  afterAll(() => binding.close());

  it('counts every kind per day across the spring-forward change, from rollups', async () => {
    const res = await stats(`type=all&interval=daily&${RANGE}`);
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('x-leadroute-stats-source')).toBe('rollups');
    expect(res.body).toEqual([
      row({ time: '2026-03-07T00:00:00-05:00' }, MAR7),
      row({ time: '2026-03-08T00:00:00-05:00' }, MAR8),
      row({ time: '2026-03-09T00:00:00-04:00' }, MAR9),
    ]);
  });

  it('answers the same totals from rollups and from events', async () => {
    const fromRollups = await stats(`type=all&${RANGE}`);
    // A start off the hour cannot come from hourly rollups.
    const fromEvents = await stats(
      `type=all&start=${encodeURIComponent('2026-03-07T00:00:00.001-05:00')}&end=2026-03-10`,
    );
    expect(fromRollups.headers.get('x-leadroute-stats-source')).toBe('rollups');
    expect(fromEvents.headers.get('x-leadroute-stats-source')).toBe('events');
    expect(fromRollups.body).toEqual([row({}, TOTAL)]);
    expect(fromEvents.body).toEqual(fromRollups.body);
  });

  it('groups by source and by recipient', async () => {
    const bySource = await stats(`type=all&group_by=source_id&${RANGE}`);
    expect(bySource.body).toEqual([
      row(
        { source_id: S1 },
        {
          'source-submitted': 2,
          'source-success': 1,
          'source-failure': 1,
          'recipient-submitted': 1,
          'recipient-success': 1,
          'conversion-received-submitted': 1,
          'conversion-received-success': 1,
          'conversion-sent-submitted': 1,
          'conversion-sent-error': 1,
          'ping-submitted': 1,
          'ping-success': 1,
          'ping-success-rate': 1,
          cost: 11,
          revenue: 25,
          profit: 14,
          'cost-per-conversion-received-success': 11,
          'avg-cost-per-lead': 11,
          'avg-revenue-per-lead': 25,
          'conversion-received-success:sold': 1,
        },
      ),
      row(
        { source_id: S2 },
        {
          'source-submitted': 2,
          'source-success': 2,
          'recipient-submitted': 3,
          'recipient-success': 1,
          'recipient-failure': 1,
          'recipient-skip': 1,
          'return-received-submitted': 1,
          'return-received-success': 1,
          'return-sent-submitted': 1,
          'return-sent-success': 1,
          'conversion-received-submitted': 2,
          'conversion-received-success': 1,
          'conversion-received-failure': 1,
          'ping-submitted': 2,
          'ping-success': 1,
          'ping-success-rate': 0.5,
          'ping-win-rate': 1,
          cost: 14,
          revenue: 30,
          profit: 16,
          'cost-per-conversion-received-success': 14,
          'avg-cost-per-lead': 7,
          'avg-revenue-per-lead': 15,
          'conversion-received-success:funded': 1,
        },
      ),
    ]);
    const byRecipient = await stats(`type=recipient&group_by=recipient_id&group_by=flow_id&${RANGE}`);
    expect(byRecipient.body).toEqual([
      row(
        { recipient_id: R1, flow_id: F },
        { 'recipient-submitted': 2, 'recipient-success': 1, 'recipient-skip': 1, cost: 1, revenue: 25, profit: 24 },
        false,
      ),
      row(
        { recipient_id: R2, flow_id: F },
        { 'recipient-submitted': 2, 'recipient-success': 1, 'recipient-failure': 1, cost: 4, revenue: 30, profit: 26 },
        false,
      ),
    ]);
  });

  it('groups by a lead field from the events, and filters by rules', async () => {
    // state is rolled up by default (#22.6): its cells answer what the events would.
    const byState = await stats(`group_by=state&${RANGE}`);
    expect(byState.headers.get('x-leadroute-stats-source')).toBe('rollups');
    expect(byState.body).toEqual([
      row({ state: 'CA' }, { 'source-submitted': 1, 'source-failure': 1 }, false),
      row(
        { state: 'NY' },
        { 'source-submitted': 1, 'source-success': 1, cost: 5, profit: -5, 'avg-cost-per-lead': 5 },
        false,
      ),
      row(
        { state: 'TX' },
        { 'source-submitted': 2, 'source-success': 2, cost: 15, profit: -15, 'avg-cost-per-lead': 7.5 },
        false,
      ),
    ]);
    const rule = encodeURIComponent(JSON.stringify({ lhv: 'vars.lead.state', op: 'is equal to', rhv: 'TX' }));
    const filtered = await stats(`rule=${rule}&group_by=source_id&${RANGE}`);
    expect(filtered.headers.get('x-leadroute-stats-source')).toBe('events');
    expect(filtered.body).toEqual([
      row(
        { source_id: S1 },
        { 'source-submitted': 1, 'source-success': 1, cost: 10, profit: -10, 'avg-cost-per-lead': 10 },
        false,
      ),
      row(
        { source_id: S2 },
        { 'source-submitted': 1, 'source-success': 1, cost: 5, profit: -5, 'avg-cost-per-lead': 5 },
        false,
      ),
    ]);
  });

  it.each([
    [
      'minutely',
      'events',
      [
        ['2026-03-07T10:00:00-05:00', 1],
        ['2026-03-08T01:30:00-05:00', 1],
        ['2026-03-08T03:30:00-04:00', 1],
        ['2026-03-08T23:30:00-04:00', 1],
      ],
    ],
    [
      'hourly',
      'rollups',
      [
        ['2026-03-07T10:00:00-05:00', 1],
        ['2026-03-08T01:00:00-05:00', 1],
        ['2026-03-08T03:00:00-04:00', 1],
        ['2026-03-08T23:00:00-04:00', 1],
      ],
    ],
    [
      'daily',
      'rollups',
      [
        ['2026-03-07T00:00:00-05:00', 1],
        ['2026-03-08T00:00:00-05:00', 3],
      ],
    ],
    ['weekly', 'rollups', [['2026-03-02T00:00:00-05:00', 4]]],
    ['monthly', 'rollups', [['2026-03-01T00:00:00-05:00', 4]]],
    ['yearly', 'rollups', [['2026-01-01T00:00:00-05:00', 4]]],
  ] as const)('buckets source events %s in the zone', async (interval, source, expected) => {
    const res = await stats(`interval=${interval}&${RANGE}`);
    expect(res.headers.get('x-leadroute-stats-source')).toBe(source);
    expect(res.body.map((r: Record<string, unknown>) => [r.time, r['source-submitted']])).toEqual(expected);
  });

  it('keeps the repeated hour of the fall-back change apart, and the 25-hour day whole', async () => {
    const hourly = await stats('interval=hourly&start=2026-11-01&end=2026-11-02');
    expect(hourly.body.map((r: Record<string, unknown>) => [r.time, r['source-success']])).toEqual([
      ['2026-11-01T01:00:00-04:00', 1],
      ['2026-11-01T01:00:00-05:00', 1],
    ]);
    const daily = await stats('interval=daily&start=2026-11-01&end=2026-11-02');
    expect(daily.body.map((r: Record<string, unknown>) => [r.time, r['source-success']])).toEqual([
      ['2026-11-01T00:00:00-04:00', 2],
    ]);
  });

  it('reads days in the requested time zone; a half-hour zone reads events', async () => {
    const kolkata = await stats(`interval=daily&timezone=Asia/Kolkata&${RANGE}`);
    expect(kolkata.headers.get('x-leadroute-stats-source')).toBe('events');
    expect(kolkata.body.map((r: Record<string, unknown>) => [r.time, r['source-submitted']])).toEqual([
      ['2026-03-07T00:00:00+05:30', 1],
      ['2026-03-08T00:00:00+05:30', 2],
      ['2026-03-09T00:00:00+05:30', 1],
    ]);
    const utc = await stats(`interval=daily&timezone=UTC&${RANGE}`);
    expect(utc.body.map((r: Record<string, unknown>) => [r.time, r['source-submitted']])).toEqual([
      ['2026-03-07T00:00:00Z', 1],
      ['2026-03-08T00:00:00Z', 2],
      ['2026-03-09T00:00:00Z', 1],
    ]);
  });

  it("defaults to today in the account's zone and counts only the caller's events", async () => {
    const today = await stats('type=ping&type=feedback-received');
    expect(today.body).toEqual([
      row(
        {},
        {
          'ping-submitted': 1,
          'ping-success': 1,
          'ping-success-rate': 1,
          'conversion-received-submitted': 2,
          'conversion-received-success': 1,
          'conversion-received-failure': 1,
          'conversion-received-success:funded': 1,
        },
        { 'conversion-received-success:funded': 0 },
      ),
    ]);
    const other = await stats(RANGE, {}, f.keys.other);
    expect(other.body).toEqual([
      row({}, { 'source-submitted': 1, 'source-success': 1, cost: 99, profit: -99, 'avg-cost-per-lead': 99 }, false),
    ]);
  });

  it('answers CSV with a header row when asked, and 406 for other types', async () => {
    const res = await stats(`type=all&group_by=source_id&${RANGE}`, { accept: 'text/csv' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    const [header, s1, s2, end] = res.text.split('\n');
    const columns = (header ?? '').split(',');
    expect(columns.slice(0, 5)).toEqual([
      'source_id',
      'source-submitted',
      'source-success',
      'source-failure',
      'source-error',
    ]);
    expect(columns.slice(-2)).toEqual(['conversion-received-success:funded', 'conversion-received-success:sold']);
    const json = (await stats(`type=all&group_by=source_id&${RANGE}`)).body as Record<string, unknown>[];
    expect(columns).toEqual(Object.keys(json[0] ?? {}));
    expect(s1).toBe(columns.map((c) => String(json[0]?.[c])).join(','));
    expect(s2).toBe(columns.map((c) => String(json[1]?.[c])).join(','));
    expect(end).toBe('');
    expect((await stats(RANGE, { accept: 'application/xml' })).status).toBe(406);
  });

  it.each([
    ['interval=fortnightly', '/interval'],
    ['timezone=Mars/Olympus', '/timezone'],
    ['type=lead', '/type'],
    ['start=yesterday', '/start'],
    ['start=2026-03-09&end=2026-03-08', '/end'],
    ['rule=%7Bnot-json', '/rule'],
    ['rule=%7B%22lhv%22%3A%22lead.state%22%2C%22op%22%3A%22is%20shiny%22%7D', '/rule/0/0/op'],
    ['group_by=a%20b', '/group_by'],
    ['colour=red', '/colour'],
  ])('refuses %s with 400 naming the parameter', async (query, path) => {
    const res = await stats(query);
    expect(res.status, res.text).toBe(400);
    expect(JSON.stringify(res.body)).toContain(path);
  });

  it('#18.7 refuses start=1700-01-01&end=2300-01-01 with 400 naming end, quickly, and answers others meanwhile', async () => {
    const began = performance.now();
    const [long, other] = await Promise.all([
      stats('timezone=UTC&start=1700-01-01&end=2300-01-01'),
      stats(`type=all&${RANGE}`),
    ]);
    expect(long.status, long.text).toBe(400);
    expect(JSON.stringify(long.body)).toContain('/end');
    expect(JSON.stringify(long.body)).toContain('400 days');
    expect(other.status).toBe(200);
    // It took 16 s; a refusal reads nothing. Generous for a busy machine.
    expect(performance.now() - began).toBeLessThan(2000);
    // The longest allowed range (400 days) answers from rollups.
    const longest = await stats('type=all&start=2025-12-01&end=2027-01-05');
    expect(longest.status, longest.text).toBe(200);
    expect(longest.headers.get('x-leadroute-stats-source')).toBe('rollups');
    expect((await stats('type=all&start=2025-12-01&end=2027-01-06')).status).toBe(400);
  });

  it('refuses free accounts and missing keys with 401', async () => {
    expect((await stats(RANGE, {}, f.keys.free)).status).toBe(401);
    expect((await req({ path: '/events/stats' })).status).toBe(401);
  });
});
