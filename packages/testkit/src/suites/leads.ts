import { expect } from 'vitest';
import { aLead, anAccount, freshId } from '../fixtures';
import type { Suite } from '../harness';

/** LeadStore: leads, their latest event, the returned flag and retention. */
export const leadStoreSuite: Suite = {
  name: 'LeadStore',
  cases: [
    {
      name: 'stores a lead with nested fields and reads it back',
      async run({ storage, raw }) {
        const lead = aLead(anAccount().id);
        (await storage.leads.insert(lead))._unsafeUnwrap();
        expect((await storage.leads.get(lead.id))._unsafeUnwrap()).toEqual(lead);
        expect(await raw.lead(lead.id)).toBeDefined();
        expect((await storage.leads.insert(lead))._unsafeUnwrapErr().type).toBe('Conflict');
      },
    },
    {
      name: 'moves the latest event',
      async run({ storage }) {
        const lead = aLead(anAccount().id);
        (await storage.leads.insert(lead))._unsafeUnwrap();
        const next = freshId();
        (await storage.leads.setLatestEvent(lead.id, next))._unsafeUnwrap();
        expect((await storage.leads.get(lead.id))._unsafeUnwrap()?.latest_event_id).toBe(next);
      },
    },
    {
      name: 'marks a lead returned exactly once, even under concurrent callers',
      async run({ storage }) {
        const lead = aLead(anAccount().id);
        (await storage.leads.insert(lead))._unsafeUnwrap();
        const at = '2026-03-01T12:00:00.000Z';
        const results = await Promise.all(Array.from({ length: 10 }, () => storage.leads.markReturned(lead.id, at)));
        expect(results.map((r) => r._unsafeUnwrap()).filter(Boolean)).toHaveLength(1);
        expect((await storage.leads.get(lead.id))._unsafeUnwrap()?.returned_at).toBe(at);
        expect((await storage.leads.markReturned(freshId(), at))._unsafeUnwrap()).toBe(false);
      },
    },
    {
      name: 'purges leads past retention and keeps the rest',
      async run({ storage }) {
        const account = anAccount().id;
        const old = aLead(account, { expires_at: '2026-01-01T00:00:00.000Z' });
        const live = aLead(account, { expires_at: '2026-06-01T00:00:00.000Z' });
        (await storage.leads.insert(old))._unsafeUnwrap();
        (await storage.leads.insert(live))._unsafeUnwrap();
        expect((await storage.leads.purgeExpired('2026-02-01T00:00:00.000Z'))._unsafeUnwrap()).toBe(1);
        expect((await storage.leads.get(old.id))._unsafeUnwrap()).toBeUndefined();
        expect((await storage.leads.get(live.id))._unsafeUnwrap()).toEqual(live);
      },
    },
  ],
};

/** CounterStore: caps and ping limits, atomic under concurrency. */
export const counterStoreSuite: Suite = {
  name: 'CounterStore',
  cases: [
    {
      name: 'never counts past the maximum, however many callers race',
      async run({ storage }) {
        const key = `cap:${freshId()}`;
        const results = await Promise.all(
          Array.from({ length: 25 }, () => storage.counters.tryIncrement(key, 7, '2030-01-01T00:00:00.000Z')),
        );
        expect(results.map((r) => r._unsafeUnwrap()).filter(Boolean)).toHaveLength(7);
        expect((await storage.counters.get(key))._unsafeUnwrap()).toBe(7);
      },
    },
    {
      name: 'gives a count back, never below zero, and counts keys apart',
      async run({ storage }) {
        const key = `cap:${freshId()}`;
        const other = `cap:${freshId()}`;
        (await storage.counters.tryIncrement(key, 1, '2030-01-01T00:00:00.000Z'))._unsafeUnwrap();
        expect((await storage.counters.tryIncrement(key, 1, '2030-01-01T00:00:00.000Z'))._unsafeUnwrap()).toBe(false);
        (await storage.counters.decrement(key))._unsafeUnwrap();
        expect((await storage.counters.tryIncrement(key, 1, '2030-01-01T00:00:00.000Z'))._unsafeUnwrap()).toBe(true);
        (await storage.counters.decrement(other))._unsafeUnwrap();
        expect((await storage.counters.get(other))._unsafeUnwrap()).toBe(0);
        expect((await storage.counters.tryIncrement(key, 0, '2030-01-01T00:00:00.000Z'))._unsafeUnwrap()).toBe(false);
      },
    },
  ],
};
