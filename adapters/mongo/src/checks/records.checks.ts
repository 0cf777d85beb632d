import { aCredential, aFlow, aLead, anEvent, freshId } from '@leadroute/testkit';
import { describe, expect, it } from 'vitest';
import { deleteMany, find, findOne, replaceOne, updateOneIn } from '../mingo.test-helper';
import {
  credentialById,
  credentialsByAccount,
  eventById,
  eventPage,
  eventsByReference,
  eventsExpiredBefore,
  flowAtVersion,
  flowById,
  flowsByAccount,
  latestEventUpdate,
  leadById,
  leadsExpiredBefore,
  returnedUpdate,
  unreturnedLead,
} from '../queries';
import { credentialDocument, eventDocument, flowDocument, leadDocument, toFlow, toLead } from '../records';
import type { Checks } from './checks';

/** Flows, leads, events and credentials: their builders run by mingo over documents the adapter makes. */
export function recordChecks(checks: Checks): void {
  describe('flow queries', () => {
    it('flowById and flowsByAccount find the flow, and the account’s flows oldest first', () => {
      checks('flowById', 'flowsByAccount');
      const account = freshId();
      const [a, other, b] = [aFlow(account, { name: 'A' }), aFlow(freshId()), aFlow(account, { name: 'B' })].map(
        flowDocument,
      );
      expect(findOne([a!, other!, b!], flowById(b!._id))).toEqual(b);
      const { filter, sort } = flowsByAccount(account);
      expect(find([b!, other!, a!], filter, sort).map((d) => toFlow(d).name)).toEqual(['A', 'B']);
    });

    it('flowAtVersion lets exactly one of two updates from one version replace the flow', () => {
      checks('flowAtVersion');
      const flow = aFlow(freshId(), { version: 3 });
      const docs = [flowDocument(flow)];
      expect(replaceOne(docs, flowAtVersion(flow.id, 3), flowDocument({ ...flow, version: 4, name: 'first' }))).toEqual(
        { matchedCount: 1 },
      );
      expect(
        replaceOne(docs, flowAtVersion(flow.id, 3), flowDocument({ ...flow, version: 4, name: 'second' })),
      ).toEqual({ matchedCount: 0 });
      expect(toFlow(docs[0]!)).toMatchObject({ version: 4, name: 'first' });
      expect(replaceOne(docs, flowAtVersion(freshId(), 4), flowDocument(flow))).toEqual({ matchedCount: 0 });
    });
  });

  describe('lead queries', () => {
    it('leadById and latestEventUpdate point the lead at its newest event, its fields untouched', () => {
      checks('leadById', 'latestEventUpdate');
      const lead = aLead(freshId(), { fields: { 'a.b': 1, $where: 'x', nested: { deep: [1, 'two'] } } });
      const docs = [leadDocument(aLead(freshId())), leadDocument(lead)];
      const event = freshId();
      expect(updateOneIn(docs, leadById(lead.id), latestEventUpdate(event))).toEqual({ matchedCount: 1 });
      expect(toLead(findOne(docs, leadById(lead.id))!)).toEqual({ ...lead, latest_event_id: event });
      expect(toLead(docs[0]!).latest_event_id).not.toBe(event);
    });

    it('unreturnedLead and returnedUpdate mark a lead returned once: the second return matches nothing', () => {
      checks('unreturnedLead', 'returnedUpdate');
      const lead = aLead(freshId(), { returned_at: null });
      const docs = [leadDocument(lead)];
      const first = new Date('2026-03-01T10:00:00.000Z');
      expect(updateOneIn(docs, unreturnedLead(lead.id), returnedUpdate(first))).toEqual({ matchedCount: 1 });
      expect(updateOneIn(docs, unreturnedLead(lead.id), returnedUpdate(new Date('2026-03-02T10:00:00.000Z')))).toEqual({
        matchedCount: 0,
      });
      expect(toLead(docs[0]!).returned_at).toBe('2026-03-01T10:00:00.000Z');
    });

    it('leadsExpiredBefore deletes only leads expired before the instant', () => {
      checks('leadsExpiredBefore');
      const docs = ['2026-01-01T00:00:00.000Z', '2026-02-01T00:00:00.000Z', '2026-03-01T00:00:00.000Z'].map(
        (expires_at) => leadDocument(aLead(freshId(), { expires_at })),
      );
      expect(deleteMany(docs, leadsExpiredBefore(new Date('2026-02-01T00:00:00.000Z')))).toEqual({ deletedCount: 1 });
      expect(docs.map((d) => d.expires_at.toISOString())).toEqual([
        '2026-02-01T00:00:00.000Z',
        '2026-03-01T00:00:00.000Z',
      ]);
    });
  });

  describe('event queries', () => {
    const account = freshId();
    const lead = freshId();
    const flow = freshId();
    const live = '2026-06-01T00:00:00.000Z';
    const events = [
      anEvent(account, {
        type: 'source',
        start_timestamp: 100,
        lead_id: lead,
        flow_id: flow,
        expires_at: '2026-09-01T00:00:00.000Z',
      }),
      anEvent(account, {
        type: 'recipient',
        start_timestamp: 200,
        lead_id: lead,
        flow_id: flow,
        expires_at: '2026-09-01T00:00:00.000Z',
      }),
      anEvent(freshId(), { type: 'source', start_timestamp: 250, expires_at: '2026-09-01T00:00:00.000Z' }),
      anEvent(account, {
        type: 'recipient',
        start_timestamp: 300,
        flow_id: flow,
        expires_at: '2026-09-01T00:00:00.000Z',
      }),
      anEvent(account, { type: 'source', start_timestamp: 50, expires_at: '2026-05-01T00:00:00.000Z' }),
      anEvent(account, { type: 'filter', start_timestamp: 400, expires_at: '2026-09-01T00:00:00.000Z' }),
    ];
    const docs = events.map(eventDocument);
    const ids = (q: Parameters<typeof eventPage>[0]) => {
      const { filter, sort, limit } = eventPage(q, new Date(q.live_at));
      return find(docs, filter, sort)
        .slice(0, limit)
        .map((d) => events.findIndex((e) => e.id === d._id));
    };
    const base = { account_id: account, live_at: live, sort: 'asc' as const, limit: 10 };

    it('eventById finds the event with that ID', () => {
      checks('eventById');
      expect(findOne(docs, eventById(events[3]!.id))?._id).toBe(events[3]!.id);
    });

    it('eventPage pages the account’s live events by ID either way, with every filter', () => {
      checks('eventPage');
      expect(ids(base)).toEqual([0, 1, 3, 5]);
      expect(ids({ ...base, sort: 'desc' })).toEqual([5, 3, 1, 0]);
      expect(ids({ ...base, limit: 2 })).toEqual([0, 1]);
      expect(ids({ ...base, after_id: events[1]!.id })).toEqual([3, 5]);
      expect(ids({ ...base, sort: 'desc', before_id: events[5]!.id })).toEqual([3, 1, 0]);
      expect(ids({ ...base, after_id: events[0]!.id, before_id: events[5]!.id })).toEqual([1, 3]);
      expect(ids({ ...base, start: 200, end: 400 })).toEqual([1, 3]);
      expect(ids({ ...base, types: ['source', 'filter'] })).toEqual([0, 5]);
      expect(ids({ ...base, types: [] })).toEqual([]);
      expect(ids({ ...base, lead_id: lead })).toEqual([0, 1]);
      expect(ids({ ...base, flow_id: flow, types: ['recipient'] })).toEqual([1, 3]);
      // Expired by the caller's clock though not yet deleted: never answered.
      expect(ids({ ...base, live_at: '2026-04-01T00:00:00.000Z' })).toEqual(
        [0, 1, 3, 4, 5].sort((a, b) => events[a]!.id.localeCompare(events[b]!.id)),
      );
      expect(ids({ ...base, limit: -3 })).toEqual([]);
    });

    it('eventsByReference finds live events with the reference, across accounts, newest first', () => {
      checks('eventsByReference');
      const ref = 'REC-42';
      const until = '2026-09-01T00:00:00.000Z';
      const mine = [
        anEvent(account, { key: ref, expires_at: until }),
        anEvent(freshId(), { key: ref, expires_at: until }),
        anEvent(account, { key: 'REC-4', expires_at: until }),
        anEvent(account, { key: ref, expires_at: '2020-01-01T00:00:00.000Z' }),
      ];
      const { key: _, ...keyless } = anEvent(account, { expires_at: until });
      const all = [...mine, keyless].map(eventDocument);
      const { filter, sort } = eventsByReference(ref, new Date(live));
      expect(find(all, filter, sort).map((d) => d._id)).toEqual([mine[1]!.id, mine[0]!.id]);
      expect(all[4]!.key).toBeNull();
    });

    it('eventsExpiredBefore deletes only events expired before the instant', () => {
      checks('eventsExpiredBefore');
      const copy = [...docs];
      expect(deleteMany(copy, eventsExpiredBefore(new Date(live)))).toEqual({ deletedCount: 1 });
      expect(copy.map((d) => d._id)).not.toContain(events[4]!.id);
    });
  });

  describe('credential queries', () => {
    it('credentialById and credentialsByAccount find the credential, and the account’s in ID order', () => {
      checks('credentialById', 'credentialsByAccount');
      const account = freshId();
      const [a, x, b] = [
        aCredential(account, { name: 'a' }),
        aCredential(freshId()),
        aCredential(account, { name: 'b' }),
      ].map(credentialDocument);
      expect(findOne([a!, x!, b!], credentialById(x!._id))).toEqual(x);
      const { filter, sort } = credentialsByAccount(account);
      expect(find([b!, x!, a!], filter, sort).map((d) => d.name)).toEqual(['a', 'b']);
    });
  });
}
