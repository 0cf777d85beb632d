import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { createClient } from '@leadroute/client';
import { newId } from '@leadroute/core';
import { manualClock } from '@leadroute/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Answer, type Call, call } from '../support/call';
import { basic, createFixture, type Fixture } from '../support/fixture';
import { BINDINGS, type Binding, startBinding } from '../support/servers';

/** An ID `delta` away from `id`, as a neighbour-walking attacker computes it. */
const near = (id: string, delta: number): string =>
  (BigInt(`0x${id}`) + BigInt(delta)).toString(16).padStart(24, '0').slice(-24);

/** Whether two IDs made one after the other are neighbours (the ID scheme the issue exploited). */
function sequentialIds(): boolean {
  const now = Date.now();
  const a = BigInt(`0x${newId(now)}`);
  const b = BigInt(`0x${newId(now)}`);
  return (b > a ? b - a : a - b) < 1_000_000n;
}

/** An ID nobody has: 96 random bits. */
const randomId = (): string => randomBytes(12).toString('hex');

/** One POST from a chosen local address (127.0.0.0/8 is all loopback), so a test can be two clients. */
type Raw = { status: number; headers: Record<string, unknown>; text: string };
function postFrom(
  localAddress: string,
  url: string,
  json: unknown,
  headers: Record<string, string> = {},
): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify(json);
    const all = { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), ...headers };
    const req = httpRequest(url, { method: 'POST', localAddress, headers: all }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

interface Victim {
  flow: string;
  source: string;
  securedFlow: string;
  securedSource: string;
  secret: string;
  buyer: string;
  removedSource: string;
  stepId: string;
}

/** Two accounts: the victim (demo) with an open and a secured flow, the attacker (other) with its own flow. */
async function setUp(f: Fixture, req: (c: Call) => Promise<Answer>) {
  const entity = async (key: string, body: Record<string, unknown>) => {
    const res = await req({ path: '/entities', key, json: { module_ids: [], source: null, recipient: null, ...body } });
    expect(res.status, res.text).toBe(201);
    return res.body.id as string;
  };
  const flow = async (key: string, body: Record<string, unknown>) => {
    const res = await req({ path: '/flows', key, json: body });
    expect(res.status, res.text).toBe(201);
    return res.body as {
      id: string;
      version: number;
      steps: { id: string }[];
      sources: { entity_id: string; posting_secret?: string }[];
    };
  };
  const attackerSource = await entity(f.keys.other, { name: 'Attacker vendor', source: 'seller' });
  const attackerFlow = await flow(f.keys.other, { name: 'Attacker flow', sources: [{ entity_id: attackerSource }] });
  // Created right after the attacker's, as the issue's victim was: neighbours under any ID scheme that leaks order.
  const source = await entity(f.keys.demo, { name: 'Victim vendor', source: 'seller' });
  const securedSource = await entity(f.keys.demo, { name: 'Victim secured vendor', source: 'seller' });
  const removedSource = await entity(f.keys.demo, { name: 'Victim former vendor', source: 'seller' });
  const buyer = await entity(f.keys.demo, { name: 'Victim buyer', recipient: 'buyer' });
  const open = await flow(f.keys.demo, {
    name: 'Victim flow',
    sources: [{ entity_id: source }, { entity_id: removedSource }],
    steps: [{ type: 'filter', entity_id: buyer }],
  });
  // The former vendor is taken off the flow: its posting URL must now answer like any unknown one.
  const replacement = { name: 'Victim flow', version: open.version, sources: [{ entity_id: source }], steps: [] };
  const put = await req({ method: 'PUT', path: `/flows/${open.id}`, key: f.keys.demo, json: replacement });
  expect(put.status, put.text).toBe(200);
  const secured = await flow(f.keys.demo, {
    name: 'Victim secured flow',
    sources: [{ entity_id: securedSource, require_posting_secret: true }],
  });
  const secret = secured.sources[0]?.posting_secret;
  expect(secret).toMatch(/^lps_[\w-]{43}$/);
  const stepId = open.steps[0]?.id ?? '';
  const victim: Victim = {
    flow: open.id,
    source,
    securedFlow: secured.id,
    securedSource,
    secret: secret as string,
    buyer,
    removedSource,
    stepId,
  };
  return { attacker: { flow: attackerFlow.id, source: attackerSource }, victim };
}

describe.each(BINDINGS)('issue #18.2: key-less intake through %s', (name) => {
  let binding: Binding;
  let f: Fixture;
  let attacker: { flow: string; source: string };
  let victim: Victim;
  const req = (c: Call) => call(binding.url, c);
  const post = (flow: string, source: string, kind: 'submit' | 'ping', headers: Record<string, string> = {}) =>
    req({
      path: `/flows/${flow}/sources/${source}/${kind}`,
      json: { first_name: 'Injected', email: 'mallory@example.com' },
      headers,
    });
  /** What the victim account can see: search hits and source events. */
  const victimView = async () => {
    const search = await req({ path: '/search/leads', key: f.keys.demo });
    const events = await req({ path: '/events?limit=1000', key: f.keys.demo });
    expect(search.status, search.text).toBe(200);
    expect(events.status, events.text).toBe(200);
    const injected = (events.body as { vars?: { lead?: { first_name?: string } } }[]).filter(
      (e) => e.vars?.lead?.first_name === 'Injected',
    );
    return { leads: search.body.total as number, injected: injected.length };
  };

  beforeAll(async () => {
    f = await createFixture();
    // Throttling is tested on its own below; here every probe must reach the look-up.
    binding = await startBinding(name, f.service, { throttle: false });
    ({ attacker, victim } = await setUp(f, req));
  });
  afterAll(async () => {
    await binding.close();
  });

  it('#18.2 an unknown flow, a foreign flow, a source not on the flow and wrong-kind IDs get one identical 404 on submit and ping', async () => {
    const cases: [string, string, string][] = [
      ['unknown flow', 'aaaaaaaaaaaaaaaaaaaaaaaa', victim.source],
      ["another account's flow with a made-up source", victim.flow, near(victim.source, 7)],
      ["another account's flow with the attacker's own source", victim.flow, attacker.source],
      ['a recipient entity as the source', victim.flow, victim.buyer],
      ['a source taken off the flow', victim.flow, victim.removedSource],
      ['a flow ID as the source', victim.flow, victim.flow],
      ['a step ID as the flow', victim.stepId, victim.source],
      ["the attacker's flow with the victim's source", attacker.flow, victim.source],
      ['a malformed flow ID', 'not-an-id', victim.source],
      ['a malformed source ID', victim.flow, 'zzzzzzzzzzzzzzzzzzzzzzzz'],
    ];
    const before = await victimView();
    for (const kind of ['submit', 'ping'] as const) {
      const answers = await Promise.all(cases.map(([, flow, source]) => post(flow, source, kind)));
      const first = answers[0] as Answer;
      expect(first.status).toBe(404);
      expect(first.body).toMatchObject({ status: 404, detail: 'No such posting URL.', code: 'NotFound' });
      answers.forEach((a, i) => {
        const label = `${kind}: ${cases[i]?.[0]}`;
        expect(a.status, label).toBe(404);
        expect(a.text, label).toBe(first.text);
        expect(a.headers.get('content-type'), label).toBe(first.headers.get('content-type'));
      });
    }
    expect(await victimView()).toEqual(before);
  });

  it('#18.2 a lead that is not an object is 422 whatever the IDs, so the body check reveals nothing either', async () => {
    const bad = (flow: string, source: string) =>
      req({ path: `/flows/${flow}/sources/${source}/submit`, json: [1, 2] });
    const answers = await Promise.all([
      bad(victim.flow, victim.source),
      bad('aaaaaaaaaaaaaaaaaaaaaaaa', victim.source),
      bad(victim.flow, attacker.source),
      bad('not-an-id', victim.source),
    ]);
    for (const a of answers) {
      expect(a.status).toBe(422);
      expect(a.text).toBe(answers[0]?.text);
    }
  });

  it('#18.2 replaying the walk against a source that requires its posting secret: zero leads; misses answer one 404, the real pair 401', async () => {
    const before = await victimView();
    const probes: [string, string][] = [];
    for (let d = -50; d <= 50; d++)
      if (d !== 0)
        probes.push([near(attacker.flow, d), victim.securedSource], [victim.securedFlow, near(attacker.source, d)]);
    probes.push([victim.securedFlow, victim.securedSource]);
    const answers: Answer[] = [];
    for (let i = 0; i < probes.length; i += 20)
      answers.push(...(await Promise.all(probes.slice(i, i + 20).map(([fl, so]) => post(fl, so, 'submit')))));
    const real = (i: number) => probes[i]?.[0] === victim.securedFlow && probes[i]?.[1] === victim.securedSource;
    const misses = answers.filter((_, i) => !real(i));
    expect(new Set(misses.map((a) => `${a.status} ${a.text}`))).toEqual(new Set([`404 ${misses[0]?.text}`]));
    // The pair itself (named once on purpose, and found by the walk while IDs still count up) only ever gets the 401.
    const hits = answers.filter((_, i) => real(i));
    expect(hits.length).toBeGreaterThanOrEqual(1);
    expect(new Set(hits.map((a) => a.status))).toEqual(new Set([401]));
    expect(await victimView()).toEqual(before);
  });

  // Walking to an open source's posting URL is stopped by unguessable IDs (ids.ts, #18.3's first
  // point, changed on another branch) and by the throttle below; while IDs still count up, this walk
  // does reach the open flow, so the test runs only once newId no longer gives neighbours.
  const walk =
    '#18.2 replaying the attack: 300 probes walked from the own flow and source IDs find no open posting URL and inject zero leads';
  it.skipIf(sequentialIds())(walk, async () => {
    const before = await victimView();
    const probes: [string, string][] = [];
    for (let d = -50; d <= 50; d++)
      if (d !== 0) {
        probes.push([near(attacker.flow, d), attacker.source], [victim.flow, near(attacker.source, d)]);
        probes.push([near(attacker.flow, d), near(attacker.source, d)]);
      }
    const answers: Answer[] = [];
    for (let i = 0; i < probes.length; i += 20)
      answers.push(...(await Promise.all(probes.slice(i, i + 20).map(([fl, so]) => post(fl, so, 'submit')))));
    expect(answers).toHaveLength(300);
    expect(new Set(answers.map((a) => `${a.status} ${a.text}`))).toEqual(new Set([`404 ${answers[0]?.text}`]));
    expect(await victimView()).toEqual(before);
  });

  it("#18.3 the victim's real flow and source, posting secret required: 401 with WWW-Authenticate without it or with a wrong one; zero leads", async () => {
    const before = await victimView();
    const wrongs: Record<string, string>[] = [
      {},
      { 'x-posting-secret': 'lps_guess' },
      { 'x-posting-secret': `${victim.secret}x` },
      { authorization: basic('lps_guess') },
      { authorization: `Basic ${Buffer.from(`vendor:${victim.secret.slice(0, -1)}`).toString('base64')}` },
      { authorization: `Bearer ${victim.secret}` },
    ];
    for (const kind of ['submit', 'ping'] as const) {
      for (const headers of wrongs) {
        const a = await post(victim.securedFlow, victim.securedSource, kind, headers);
        expect(a.status, JSON.stringify(headers)).toBe(401);
        expect(a.headers.get('www-authenticate')).toMatch(/^Basic /);
        expect(a.body).toMatchObject({
          status: 401,
          code: 'Unauthorized',
          detail: expect.stringContaining('X-Posting-Secret'),
        });
        expect(a.text).not.toContain('lead');
      }
    }
    expect(await victimView()).toEqual(before);
  });

  it('#18.3 the vendor that sends the posting secret (header, or Basic password under any user name) is accepted, and the secret is not recorded', async () => {
    const path = `/flows/${victim.securedFlow}/sources/${victim.securedSource}/submit`;
    const byHeader = await req({ path, json: { first_name: 'Real' }, headers: { 'x-posting-secret': victim.secret } });
    expect(byHeader.status, byHeader.text).toBe(201);
    expect(byHeader.body.outcome).toBe('success');
    const byBasic = await req({
      path: `/flows/${victim.securedFlow}/sources/${victim.securedSource}/ping`,
      json: { first_name: 'Real' },
      headers: { authorization: `Basic ${Buffer.from(`acme-vendor:${victim.secret}`).toString('base64')}` },
    });
    expect(byBasic.status, byBasic.text).toBe(201);
    const events = await req({ path: '/events?limit=1000', key: f.keys.demo });
    expect(events.text).toContain('"Real"');
    expect(events.text).not.toContain(victim.secret);
    expect(events.text).not.toContain('x-posting-secret');
  });

  it('#18.3 the typed client sends the posting secret when given one', async () => {
    const api = createClient({ baseUrl: binding.url, apiKey: f.keys.other });
    const without = await api.leads.submit(victim.securedFlow, victim.securedSource, { first_name: 'Client' });
    expect(without._unsafeUnwrapErr()).toMatchObject({ type: 'http', status: 401 });
    const withSecret = await api.leads.ping(
      victim.securedFlow,
      victim.securedSource,
      { first_name: 'Client' },
      { postingSecret: victim.secret },
    );
    expect(withSecret._unsafeUnwrap().outcome).toBe('success');
  });

  it('#18.3 the posting secret is shown once: GET and list show only that it is required; PUT keeps it; rotating replaces it', async () => {
    const read = await req({ path: `/flows/${victim.securedFlow}`, key: f.keys.demo });
    expect(read.status).toBe(200);
    expect(read.body.sources[0]).toMatchObject({ entity_id: victim.securedSource, require_posting_secret: true });
    expect(read.text).not.toContain(victim.secret);
    expect(read.text).not.toContain('posting_secret_sha256');
    const list = await req({ path: '/flows', key: f.keys.demo });
    expect(list.text).not.toContain(victim.secret);
    expect(list.text).not.toContain('posting_secret_sha256');

    // Read back and written back as is (and a PUT that forgets the field): the requirement and the secret stay.
    const { id: _id, created_at: _c, updated_at: _u, ...body } = read.body;
    const kept = await req({ method: 'PUT', path: `/flows/${victim.securedFlow}`, key: f.keys.demo, json: body });
    expect(kept.status, kept.text).toBe(200);
    expect(kept.body.sources[0].posting_secret).toBeUndefined();
    const put = (json: Record<string, unknown>) =>
      req({ method: 'PUT', path: `/flows/${victim.securedFlow}`, key: f.keys.demo, json: { ...body, ...json } });
    const forgot = await put({ version: kept.body.version, sources: [{ entity_id: victim.securedSource }] });
    expect(forgot.status, forgot.text).toBe(200);
    expect(forgot.body.sources[0]).toMatchObject({ require_posting_secret: true });
    const withOld = () => post(victim.securedFlow, victim.securedSource, 'ping', { 'x-posting-secret': victim.secret });
    expect((await withOld()).status).toBe(201);
    expect((await post(victim.securedFlow, victim.securedSource, 'ping')).status).toBe(401);

    // A body cannot plant a digest of its own choosing.
    const planted = await put({
      version: forgot.body.version,
      sources: [{ entity_id: victim.securedSource, posting_secret: 'mine', posting_secret_sha256: '00'.repeat(32) }],
    });
    expect(planted.status, planted.text).toBe(200);
    expect((await withOld()).status).toBe(201);

    const rotated = await put({
      version: planted.body.version,
      sources: [{ entity_id: victim.securedSource, require_posting_secret: true, rotate_posting_secret: true }],
    });
    expect(rotated.status, rotated.text).toBe(200);
    const fresh = rotated.body.sources[0].posting_secret as string;
    expect(fresh).toMatch(/^lps_/);
    expect(fresh).not.toBe(victim.secret);
    expect((await withOld()).status).toBe(401);
    expect((await post(victim.securedFlow, victim.securedSource, 'ping', { 'x-posting-secret': fresh })).status).toBe(
      201,
    );
    victim.secret = fresh;

    const invalid = await put({
      version: rotated.body.version,
      sources: [{ entity_id: victim.securedSource, require_posting_secret: 'yes' }],
    });
    expect(invalid.status).toBe(422);
    expect(invalid.body.errors).toEqual([expect.objectContaining({ path: '/sources/0/require_posting_secret' })]);
  });
});

describe.each(BINDINGS)('issue #18.3: throttling failed look-ups on key-less routes through %s', (name) => {
  let binding: Binding;
  let f: Fixture;
  const clock = manualClock();
  let victim: Victim;
  const req = (c: Call) => call(binding.url, c);
  const url = (flow: string, source: string, kind = 'submit') =>
    `${binding.url}/flows/${flow}/sources/${source}/${kind}`;
  const secret = () => ({ 'x-posting-secret': victim.secret });

  beforeAll(async () => {
    f = await createFixture({ clock });
    binding = await startBinding(name, f.service);
    ({ victim } = await setUp(f, req));
  });
  afterAll(async () => {
    await binding.close();
  });

  it('#18.3 successful posts are never throttled', async () => {
    for (let i = 0; i < 60; i++) {
      const a = await postFrom('127.0.0.1', url(victim.flow, victim.source), { first_name: `Good${i}` });
      expect(a.status, a.text).toBe(201);
    }
  });

  const beyond =
    '#18.3 beyond 20 failed look-ups a minute: 429 with Retry-After on every key-less route, before any look-up; other addresses unaffected';
  it(beyond, async () => {
    const attackerAddress = '127.0.0.3';
    for (let i = 0; i < 20; i++) {
      const a = await postFrom(attackerAddress, url(i % 2 ? victim.flow : randomId(), randomId()), {
        first_name: 'Injected',
      });
      expect(a.status, `probe ${i}`).toBe(404);
    }
    const refused = await postFrom(attackerAddress, url(victim.flow, randomId()), { first_name: 'Injected' });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(JSON.parse(refused.text)).toMatchObject({ status: 429, code: 'TooManyRequests' });
    // Refused before the look-up: even the right posting secret does not get a lead in from a blocked address
    // (documented).
    const good = (address: string, firstName: string) =>
      postFrom(address, url(victim.securedFlow, victim.securedSource), { first_name: firstName }, secret());
    const blockedGood = await good(attackerAddress, 'Blocked');
    expect(blockedGood.status).toBe(429);
    const feedback = await new Promise<number>((resolve, reject) => {
      httpRequest(
        `${binding.url}/feedback?event_id=${randomId()}&type=return`,
        { localAddress: attackerAddress },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      )
        .on('error', reject)
        .end();
    });
    expect(feedback).toBe(429);

    // Another client address still posts, and still gets the ordinary 404 for a miss.
    const other = await good('127.0.0.4', 'Other address');
    expect(other.status, other.text).toBe(201);
    expect((await postFrom('127.0.0.4', url(victim.flow, randomId()), {})).status).toBe(404);

    // After Retry-After seconds the blocked address gets one more try (the allowance refills one failure per 3 s).
    clock.advance(Number(refused.headers['retry-after']) * 1000);
    const again = await good(attackerAddress, 'After wait');
    expect(again.status, again.text).toBe(201);

    const search = await req({ path: '/search/leads?query=Injected', key: f.keys.demo });
    expect(search.body.total).toBe(0);
    const blocked = await req({ path: '/search/leads?query=Blocked', key: f.keys.demo });
    expect(blocked.body.total).toBe(0);
  });

  it('#18.3 wrong posting secrets count as failures too', async () => {
    const address = '127.0.0.5';
    const statuses: number[] = [];
    for (let i = 0; i < 22; i++) {
      const a = await postFrom(
        address,
        url(victim.securedFlow, victim.securedSource),
        {},
        { 'x-posting-secret': `lps_guess${i}` },
      );
      statuses.push(a.status);
    }
    expect(statuses.slice(0, 20)).toEqual(Array(20).fill(401));
    expect(statuses.slice(20)).toEqual([429, 429]);
  });
});
