import { scriptedRecipient } from '@leadroute/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Answer, type Call, call } from '../support/call';
import { createFixture, type Fixture } from '../support/fixture';
import { BINDINGS, type Binding, startBinding } from '../support/servers';

/**
 * Issue #18.1 replayed: a vendor with an account of its own submits a lead, derives
 * its neighbours' IDs the way the old scheme made them (same seconds and process
 * part, counter ± n) and tries them, and the other account's real lead and source
 * event IDs, on the key-less feedback routes. Nothing of the other account's leads
 * may come back, every such ID must be answered alike, and nothing may change.
 */
const enc = (value: unknown) => encodeURIComponent(JSON.stringify(value));
const byLead = (leadId: string) => enc([{ lhv: 'lead_id', op: 'is equal to', rhv: leadId }]);
const VICTIMS = 20;
const victimLead = (i: number) => ({
  first_name: `Vicfirst${i}x`,
  last_name: `Viclast${i}y`,
  email: `victim${i}@victim.example`,
  phone_1: `(305) 555-${String(1000 + i)}`,
  state: 'TX',
});

/** The IDs the old scheme (4 bytes of seconds, 5 fixed bytes per process, a 3-byte counter) put next to `id`. */
function oldNeighbours(id: string, reach: number): string[] {
  const counter = Number.parseInt(id.slice(18), 16);
  const out: string[] = [];
  for (let d = -reach; d <= reach; d += 1) {
    if (d !== 0) out.push(id.slice(0, 18) + ((counter + d + 0x1000000) % 0x1000000).toString(16).padStart(6, '0'));
  }
  return out;
}

describe.each(BINDINGS)('#18.1 key-less feedback enumeration through %s', (name) => {
  let binding: Binding;
  let f: Fixture;
  const scripted = scriptedRecipient();
  let references = 0;
  const req = (c: Call) => call(binding.url, c);
  const victim = {
    leads: [] as string[],
    sourceEvents: [] as string[],
    recipientEvents: [] as string[],
    references: [] as string[],
    flow: '',
    vendor: '',
  };
  const attacker = { lead: '', ids: [] as string[] };
  let victimEventsBefore: string[] = [];

  const entity = async (key: string, body: Record<string, unknown>) =>
    (await req({ path: '/entities', key, json: { module_ids: [], source: null, recipient: null, ...body } })).body
      .id as string;
  const flowFor = async (key: string, vendor: string, buyer: string) => {
    const res = await req({
      path: '/flows',
      key,
      json: {
        name: 'Feedback on',
        sources: [{ entity_id: vendor, feedback: { enabled: true }, pricing: { prices: [{ amount: 7.5 }] } }],
        steps: [{ type: 'recipient', entity_id: buyer, module_id: scripted.id, feedback: { enabled: true } }],
      },
    });
    expect(res.status, res.text).toBe(201);
    return res.body.id as string;
  };
  const eventsOf = async (key: string, leadId: string) =>
    (await req({ path: `/events?limit=100&rules=${byLead(leadId)}`, key })).body as {
      id: string;
      type: string;
      key?: string;
    }[];
  const allEventIds = async (key: string) =>
    ((await req({ path: '/events?limit=1000', key })).body as { id: string }[]).map((e) => e.id).sort();

  beforeAll(async () => {
    scripted.respondWith(() => ({ outcome: 'success', reference: `VIC-${name}-${++references}` }));
    f = await createFixture({ integrations: [scripted] });
    // The failed-look-up throttle (#18.3, test/security/intake-injection.test.ts) would answer most of this walk
    // with 429; here it is off so that what every look-up itself answers is compared.
    binding = await startBinding(name, f.service, { throttle: false });
    const victimKey = f.keys.other;
    victim.vendor = await entity(victimKey, { name: 'Victim vendor', source: 'seller' });
    victim.flow = await flowFor(
      victimKey,
      victim.vendor,
      await entity(victimKey, { name: 'Victim buyer', recipient: 'buyer' }),
    );
    const attackerVendor = await entity(f.keys.demo, { name: 'Attacker vendor', source: 'seller' });
    const attackerFlow = await flowFor(
      f.keys.demo,
      attackerVendor,
      await entity(f.keys.demo, { name: 'Attacker buyer', recipient: 'buyer' }),
    );
    // The attacker's lead arrives in the middle of the victim's, so the old scheme would have put victim IDs on both
    // sides of it.
    for (let i = 0; i < VICTIMS; i += 1) {
      if (i === VICTIMS / 2) {
        const mine = await req({
          path: `/flows/${attackerFlow}/sources/${attackerVendor}/submit`,
          json: { first_name: 'Mallory', state: 'TX' },
        });
        attacker.lead = mine.body.lead.id;
      }
      const res = await req({ path: `/flows/${victim.flow}/sources/${victim.vendor}/submit`, json: victimLead(i) });
      expect(res.status, res.text).toBe(201);
      victim.leads.push(res.body.lead.id);
    }
    // What the attacker can see of its own lead with its own key.
    attacker.ids = [attacker.lead, ...(await eventsOf(f.keys.demo, attacker.lead)).map((e) => e.id)];
    for (const lead of victim.leads) {
      for (const e of await eventsOf(victimKey, lead)) {
        if (e.type === 'source') victim.sourceEvents.push(e.id);
        if (e.type === 'recipient') {
          victim.recipientEvents.push(e.id);
          victim.references.push(e.key as string);
        }
      }
    }
    victimEventsBefore = await allEventIds(victimKey);
  });
  afterAll(async () => {
    await binding.close();
  });

  /** Every victim lead field and ID that must never appear in an answer. */
  const secrets = () => [
    ...victim.leads,
    ...Array.from({ length: VICTIMS }, (_, i) => Object.values(victimLead(i)).filter((v) => v !== 'TX')).flat(),
  ];
  const leaked = (answers: Answer[]) => answers.flatMap((a) => secrets().filter((s) => a.text.includes(s)));

  it('#18.1 guessed neighbour IDs, real lead IDs and wrong-kind IDs read zero leads and are answered byte for byte alike', async () => {
    const guessed = [...new Set(attacker.ids.flatMap((id) => oldNeighbours(id, 30)))].filter(
      (id) => !attacker.ids.includes(id),
    );
    const foreign = [...victim.leads, ...victim.sourceEvents];
    const unknown = ['0123456789abcdef01234567', 'ffffffffffffffffffffffff'];
    const probes = [...guessed, ...foreign, ...unknown, attacker.lead];
    expect(probes.length).toBeGreaterThan(90);
    const notFound = `404\napplication/problem+json; charset=utf-8\n${JSON.stringify({ type: 'about:blank', title: 'Not Found', status: 404, detail: 'No delivery event for event_id, or it is more than 90 days old.', code: 'NotFound' })}`;
    // A bad type is answered before any look-up, alike for every ID (real ones too: see the next test).
    const badType = `400\napplication/json; charset=utf-8\n${JSON.stringify({ outcome: 'error', reason: 'type must be conversion or return.', price: 0 })}`;
    const forms: [(id: string) => Call, string][] = [
      [(id) => ({ path: `/feedback?event_id=${id}&type=x` }), badType],
      [(id) => ({ path: `/feedback?event_id=${id}&type=return` }), notFound],
      [(id) => ({ path: `/feedback?event_id=${id}`, json: { type: 'x' } }), badType],
      [
        (id) => ({ path: `/feedback?event_id=${id.toUpperCase()}`, json: { type: 'conversion', reason: 'Sold' } }),
        notFound,
      ],
    ];
    const answers: Answer[] = [];
    for (const [form, expected] of forms) {
      const seen = new Set<string>();
      for (const id of probes) {
        const answer = await req(form(id));
        answers.push(answer);
        seen.add(`${answer.status}\n${answer.headers.get('content-type')}\n${answer.text}`);
      }
      // Unknown, another account's and wrong-kind IDs (a lead ID, a source event ID, the attacker's own lead) are one
      // answer: nothing to classify by.
      expect([...seen]).toEqual([expected]);
    }
    expect(leaked(answers)).toEqual([]);
  }, 120_000);

  it('a bad type is answered alike for a real delivery event and an unknown ID, before any look-up, and writes nothing', async () => {
    const seen = new Set<string>();
    for (const id of [...victim.recipientEvents.slice(0, 5), '0123456789abcdef01234567'])
      for (const call of [
        { path: `/feedback?event_id=${id}&type=bogus` },
        { path: `/feedback?event_id=${id}`, json: { type: 'bogus' } },
      ]) {
        const answer = await req(call);
        seen.add(`${answer.status} ${answer.text}`);
      }
    // Looked up first, a real delivery event got 400 and an unknown one 404: which IDs are real, for free.
    expect([...seen]).toEqual([
      `400 ${JSON.stringify({ outcome: 'error', reason: 'type must be conversion or return.', price: 0 })}`,
    ]);
    expect(await allEventIds(f.keys.other)).toEqual(victimEventsBefore);
  });

  it('#18.1 a refused call by a real record ID (bad type, not configured) shows nothing of the lead', async () => {
    const answers: Answer[] = [];
    for (const reference of victim.references.slice(0, 5)) {
      const bad = await req({ path: '/feedback/standard', json: { type: 'x', recipient_record_id: reference } });
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({ outcome: 'error', reason: 'type must be conversion or return.', price: 0 });
      answers.push(
        bad,
        await req({
          path: '/feedback/standard',
          raw: `type=x&recipient_record_id=${reference}`,
          headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/xml' },
        }),
      );
    }
    for (const eventId of victim.recipientEvents.slice(0, 5))
      answers.push(await req({ path: `/feedback?event_id=${eventId}&type=x` }));
    expect(answers.every((a) => a.status === 400)).toBe(true);
    expect(leaked(answers)).toEqual([]);
    // Feedback not configured on the step (403): a second victim flow without it.
    const noFeedback = await req({
      path: '/flows',
      key: f.keys.other,
      json: {
        name: 'No feedback',
        sources: [{ entity_id: victim.vendor }],
        steps: [
          {
            type: 'recipient',
            entity_id: await entity(f.keys.other, { name: 'Quiet buyer', recipient: 'buyer' }),
            module_id: scripted.id,
          },
        ],
      },
    });
    const lead = await req({
      path: `/flows/${noFeedback.body.id}/sources/${victim.vendor}/submit`,
      json: victimLead(0),
    });
    const [delivery] = (await eventsOf(f.keys.other, lead.body.lead.id)).filter((e) => e.type === 'recipient');
    const refused = [
      await req({ path: '/feedback/standard', json: { type: 'return', recipient_record_id: delivery?.key } }),
      await req({ path: `/feedback?event_id=${delivery?.id}&type=return` }),
    ];
    expect(refused.map((a) => a.status)).toEqual([403, 403]);
    expect(refused[0]?.body).toEqual({
      outcome: 'failure',
      reason: 'Feedback is not configured on the delivering step.',
      price: 0,
    });
    expect(leaked(refused)).toEqual([]);
    expect(refused.some((a) => a.text.includes(lead.body.lead.id))).toBe(false);
  });

  it('#18.1 the attack injected nothing: the other account has no new event and no returned lead', async () => {
    // The 403 case above submitted one more lead of its own; compare only what existed before the attack.
    const after = await allEventIds(f.keys.other);
    expect(victimEventsBefore.filter((id) => !after.includes(id))).toEqual([]);
    const feedback = await req({
      path: '/events?limit=1000&type=feedback-received&type=feedback-sent',
      key: f.keys.other,
    });
    expect(feedback.status).toBe(200);
    expect(feedback.body).toEqual([]);
    for (const lead of victim.leads)
      expect((await f.service.storage.leads.get(lead))._unsafeUnwrap()?.returned_at ?? null).toBeNull();
  });
});
