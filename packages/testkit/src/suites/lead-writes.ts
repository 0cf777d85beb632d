import type { LeadRecord, LeadWriteBundle, LeadWrites, Storage } from '@leadroute/core';
import { expect } from 'vitest';
import { aLead, anAccount, anEvent, aRollupRow } from '../fixtures';
import type { Suite } from '../types';
import { aSearchDocument } from '../records';

const HOUR = '2026-03-08T07:00:00.000Z';
const LIVE = '2026-03-01T00:00:00.000Z';

/** A lead with a source and a recipient event, one rollup row per event and its search document. */
function aBundle(
  accountId: string,
  reference: string,
  overrides: { sourceEventId?: string } = {},
): LeadWriteBundle & { lead: LeadRecord } {
  const lead = aLead(accountId);
  const ids = { lead_id: lead.id, flow_id: lead.flow_id, source_id: lead.source_id };
  const recipient = anEvent(accountId, ids);
  const source = anEvent(accountId, {
    ...ids,
    type: 'source',
    recipient_id: null,
    key: undefined,
    ...(overrides.sourceEventId ? { id: overrides.sourceEventId } : {}),
  });
  const row = { hour: HOUR, flow_id: lead.flow_id, source_id: lead.source_id };
  return {
    lead: { ...lead, latest_event_id: source.id },
    events: [recipient, source],
    rollups: [
      aRollupRow(accountId, { ...row, kind: 'recipient', recipient_id: recipient.recipient_id ?? '' }),
      aRollupRow(accountId, { ...row, kind: 'source' }),
    ],
    search: aSearchDocument(accountId, { first_name: 'Ada', reference }, { lead_id: lead.id, event_id: source.id }),
  };
}

function writes(storage: Storage): LeadWrites {
  if (!storage.leadWrites)
    throw new Error('The adapter has no storage.leadWrites: a lead written record by record can be left half written.');
  return storage.leadWrites;
}

/** What is stored of a bundle: its lead, each event, its search hit, and the rollup count of its flow. */
async function stored(storage: Storage, b: LeadWriteBundle & { lead: LeadRecord }) {
  const account_id = b.lead.account_id;
  const lead = (await storage.leads.get(b.lead.id))._unsafeUnwrap();
  const events = await Promise.all(b.events.map(async (e) => (await storage.events.get(e.id))._unsafeUnwrap()));
  const hits = (
    await storage.search.search({ account_id, terms: [b.lead.id.toLowerCase()], phrases: [], from: 0, limit: 10 })
  )._unsafeUnwrap();
  const rollups = (
    await storage.rollups.query({ account_id, from: HOUR, to: '2026-03-08T08:00:00.000Z', flow_id: b.lead.flow_id })
  )._unsafeUnwrap();
  return {
    lead: lead !== undefined,
    events: events.map((e) => e !== undefined && e.lead_id === b.lead.id),
    search: hits.documents.some((d) => d.lead_id === b.lead.id),
    rollups: rollups.reduce((n, r) => n + r.count, 0),
  };
}

const whole = { lead: true, events: [true, true], search: true, rollups: 2 };
const none = { lead: false, events: [false, false], search: false, rollups: 0 };

/** LeadWrites: a lead's records are stored together or not at all (issue #18 item 12). */
export const leadWritesSuite: Suite = {
  name: 'LeadWrites',
  cases: [
    {
      name: '#18.12 commits a lead whole: the lead, its events, their rollup rows and its search document',
      async run({ storage }) {
        const b = aBundle(anAccount().id, 'whole');
        (await writes(storage).commit(b))._unsafeUnwrap();
        expect(await stored(storage, b)).toEqual(whole);
        expect(
          (
            await storage.events.query({
              account_id: b.lead.account_id,
              lead_id: b.lead.id,
              live_at: LIVE,
              sort: 'asc',
              limit: 10,
            })
          )._unsafeUnwrap(),
        ).toHaveLength(2);
      },
    },
    {
      name: '#18.12 a refused row rolls back the whole lead: no lead, no event, no rollup, no search document',
      async run({ storage }) {
        const account = anAccount().id;
        const first = aBundle(account, 'first');
        (await writes(storage).commit(first))._unsafeUnwrap();
        // The second lead's source event reuses an ID already stored; its delivery event before it is valid.
        const second = aBundle(account, 'second', { sourceEventId: (first.events[1] as { id: string }).id });
        const refused = await writes(storage).commit(second);
        expect(refused._unsafeUnwrapErr().type).toBe('Conflict');
        expect(await stored(storage, second)).toEqual(none);
        expect(await stored(storage, first)).toEqual(whole);
      },
    },
    {
      name: '#18.12 among leads committed together, a refused one fails alone and the others are whole',
      async run({ storage }) {
        const account = anAccount().id;
        const taken = aBundle(account, 'taken');
        (await writes(storage).commit(taken))._unsafeUnwrap();
        const bundles = Array.from({ length: 12 }, (_, i) =>
          aBundle(account, `batch${i}`, i === 5 ? { sourceEventId: (taken.events[1] as { id: string }).id } : {}),
        );
        const results = await Promise.all(bundles.map((b) => writes(storage).commit(b)));
        expect(results.map((r) => r.isOk())).toEqual(bundles.map((_, i) => i !== 5));
        for (const [i, b] of bundles.entries()) expect(await stored(storage, b)).toEqual(i === 5 ? none : whole);
      },
    },
  ],
};
