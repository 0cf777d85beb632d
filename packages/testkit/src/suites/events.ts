import { expect } from 'vitest';
import type { StoredEvent } from '@leadroute/core';
import { anAccount, anEvent, freshId } from '../fixtures';
import type { Suite } from '../harness';

const LIVE = '2026-01-01T00:00:00.000Z';
const base = { live_at: LIVE, sort: 'desc' as const, limit: 100 };

async function seed(storage: Parameters<Suite['cases'][number]['run']>[0]['storage'], events: StoredEvent[]) {
  for (const e of events) expect((await storage.events.insert(e)).isOk()).toBe(true);
  return events;
}

/** EventStore: append-only events, paged by ID, filtered, found by reference, purged. */
export const eventStoreSuite: Suite = {
  name: 'EventStore',
  cases: [
    {
      name: 'stores an event with every field and reads it back exactly',
      async run({ storage, raw }) {
        const event = anEvent(anAccount().id, {
          acceptance_criteria: { outcome: 'success', reason: '' },
          transactions: [
            {
              request: { method: 'POST', version: '1.1', headers: { a: 'b' }, body: '{}', timestamp: 1 },
              response: null,
              ms: 4,
            },
          ],
          feedback: { type: 'return', reason: 'bad', occurred_at: LIVE, event_id: freshId() },
        });
        await seed(storage, [event]);
        expect((await storage.events.get(event.id))._unsafeUnwrap()).toEqual(event);
        expect(await raw.event(event.id)).toBeDefined();
        expect((await storage.events.insert(event))._unsafeUnwrapErr().type).toBe('Conflict');
      },
    },
    {
      name: "pages one account's events by ID in both directions",
      async run({ storage }) {
        const account = anAccount().id;
        const mine = await seed(storage, [
          anEvent(account),
          anEvent(anAccount().id),
          anEvent(account),
          anEvent(account),
          anEvent(account),
        ]);
        const ids = mine.filter((e) => e.account_id === account).map((e) => e.id);
        const desc = (await storage.events.query({ ...base, account_id: account }))._unsafeUnwrap().map((e) => e.id);
        expect(desc).toEqual([...ids].reverse());
        const asc = (await storage.events.query({ ...base, account_id: account, sort: 'asc', limit: 2 }))
          ._unsafeUnwrap()
          .map((e) => e.id);
        expect(asc).toEqual(ids.slice(0, 2));
        const after = (
          await storage.events.query({ ...base, account_id: account, sort: 'asc', after_id: ids[1] as string })
        )
          ._unsafeUnwrap()
          .map((e) => e.id);
        expect(after).toEqual(ids.slice(2));
        const before = (await storage.events.query({ ...base, account_id: account, before_id: ids[2] as string }))
          ._unsafeUnwrap()
          .map((e) => e.id);
        expect(before).toEqual([ids[1], ids[0]]);
      },
    },
    {
      name: 'filters by time range, type, lead and flow, and hides expired events',
      async run({ storage }) {
        const account = anAccount().id;
        const lead = freshId();
        const flow = freshId();
        const [a, b, c, d] = await seed(storage, [
          anEvent(account, { start_timestamp: 1000, type: 'source', lead_id: lead, flow_id: flow }),
          anEvent(account, { start_timestamp: 2000, type: 'recipient', lead_id: lead, flow_id: flow }),
          anEvent(account, { start_timestamp: 3000, type: 'recipient' }),
          anEvent(account, { start_timestamp: 4000, type: 'ping', expires_at: '2025-12-31T00:00:00.000Z' }),
        ]);
        const q = (extra: object) =>
          storage.events.query({ ...base, account_id: account, ...extra }).map((r) => r.map((e) => e.id));
        expect((await q({ start: 2000, end: 4000 }))._unsafeUnwrap()).toEqual([c?.id, b?.id]);
        expect((await q({ types: ['source', 'ping'] }))._unsafeUnwrap()).toEqual([a?.id]);
        expect((await q({ lead_id: lead }))._unsafeUnwrap()).toEqual([b?.id, a?.id]);
        expect((await q({ flow_id: flow, types: ['recipient'] }))._unsafeUnwrap()).toEqual([b?.id]);
        expect((await q({}))._unsafeUnwrap()).not.toContain(d?.id);
      },
    },
    {
      name: 'finds live events by exact reference, in any order',
      async run({ storage }) {
        const ref = `REF-${freshId()}`;
        const [first, second] = await seed(storage, [
          anEvent(anAccount().id, { key: ref }),
          anEvent(anAccount().id, { key: ref }),
          anEvent(anAccount().id, { key: ref, expires_at: '2025-01-01T00:00:00.000Z' }),
          anEvent(anAccount().id),
          anEvent(anAccount().id, { key: `${ref}-2` }),
        ]);
        const found = (await storage.events.findByReference({ reference: ref, live_at: LIVE }))
          ._unsafeUnwrap()
          .map((e) => e.id);
        expect(found.sort()).toEqual([first?.id, second?.id].sort());
        expect((await storage.events.findByReference({ reference: 'nothing', live_at: LIVE }))._unsafeUnwrap()).toEqual(
          [],
        );
        expect(
          (await storage.events.findByReference({ reference: ref.toLowerCase(), live_at: LIVE }))._unsafeUnwrap(),
        ).toEqual([]);
      },
    },
    {
      name: '#18.4 scopes a reference to one recipient entity when recipient_id is given',
      async run({ storage }) {
        const ref = `CRM-${freshId()}`;
        const buyerA = freshId();
        const buyerB = freshId();
        const [ofA, ofB, alsoA] = await seed(storage, [
          anEvent(anAccount().id, { key: ref, recipient_id: buyerA }),
          anEvent(anAccount().id, { key: ref, recipient_id: buyerB }),
          anEvent(anAccount().id, { key: ref, recipient_id: buyerA }),
          anEvent(anAccount().id, { key: `${ref}-other`, recipient_id: buyerA }),
        ]);
        const scoped = async (recipient_id: string) =>
          (await storage.events.findByReference({ reference: ref, recipient_id, live_at: LIVE }))
            ._unsafeUnwrap()
            .map((e) => e.id)
            .sort();
        expect(await scoped(buyerA)).toEqual([ofA?.id, alsoA?.id].sort());
        expect(await scoped(buyerB)).toEqual([ofB?.id]);
        expect(await scoped(freshId())).toEqual([]);
        // The stored events are untouched by a look-up.
        expect((await storage.events.get(ofB?.id as string))._unsafeUnwrap()).toEqual(ofB);
      },
    },
    {
      name: 'purges events past retention',
      async run({ storage }) {
        const account = anAccount().id;
        const [old, live] = await seed(storage, [
          anEvent(account, { expires_at: '2025-06-01T00:00:00.000Z', key: 'OLD-REF' }),
          anEvent(account),
        ]);
        expect((await storage.events.purgeExpired('2025-07-01T00:00:00.000Z'))._unsafeUnwrap()).toBe(1);
        expect((await storage.events.get(old?.id as string))._unsafeUnwrap()).toBeUndefined();
        expect((await storage.events.get(live?.id as string))._unsafeUnwrap()).toEqual(live);
        expect(
          (
            await storage.events.findByReference({ reference: 'OLD-REF', live_at: '2020-01-01T00:00:00.000Z' })
          )._unsafeUnwrap(),
        ).toEqual([]);
      },
    },
  ],
};
