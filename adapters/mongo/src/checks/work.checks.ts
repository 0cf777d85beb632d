import { aCertificate, anExport, freshId } from '@leadroute/testkit';
import { describe, expect, it } from 'vitest';
import { type CounterDoc, certificateDocument, type JobDoc, jobDocument, toCertificate, toJob } from '../records-work';
import { exportDocument, toExport } from '../records';
import { DuplicateKey, find, findOne, findOneAndUpdate, updateOneIn, upsertOne } from '../mingo.test-helper';
import {
  certificateById,
  certificateByPingToken,
  claimableJobs,
  claimCertificateUpdate,
  claimUpdate,
  completeUpdate,
  counterAboveZero,
  counterBelow,
  counterById,
  counterClaimable,
  counterClaimUpdate,
  decrementUpdate,
  downloadPush,
  exportById,
  exportPage,
  extendUpdate,
  failUpdate,
  heldJob,
  incrementUpdate,
  jobById,
  progressUpdate,
} from '../queries';
import type { Checks } from './checks';

const T0 = Date.UTC(2026, 2, 1, 12);
const USER = { id: freshId(), first_name: 'Ada', last_name: 'L', email: 'ada@example.com', sso_id: 'sso-1' };

/** Counters, exports, jobs and certificates: their builders run by mingo over documents the adapter makes. */
export function workChecks(checks: Checks): void {
  describe('counter queries', () => {
    /**
     * What the store's tryIncrement does: the conditional upsert, and on a duplicate key the conditional update once
     * more.
     */
    const tryIncrement = (docs: CounterDoc[], key: string, maximum: number): boolean => {
      const update = incrementUpdate(new Date(T0));
      try {
        upsertOne(docs, counterBelow(key, maximum), update);
        return true;
      } catch (error) {
        if (!(error instanceof DuplicateKey)) throw error;
        return updateOneIn(docs, counterBelow(key, maximum), update).matchedCount > 0;
      }
    };

    it('counterBelow and incrementUpdate count up to the maximum and no further; an absent counter starts at 1', () => {
      checks('counterBelow', 'incrementUpdate', 'counterById');
      const docs: CounterDoc[] = [];
      expect([1, 2, 3, 4].map(() => tryIncrement(docs, 'cap:a', 3))).toEqual([true, true, true, false]);
      expect(findOne(docs, counterById('cap:a'))).toEqual({ _id: 'cap:a', count: 3, expires_at: new Date(T0) });
      expect(tryIncrement(docs, 'cap:b', 1)).toBe(true);
      expect(tryIncrement(docs, 'cap:b', 1)).toBe(false);
      // A fractional maximum lets the counter reach the next whole number, as the memory adapter compares.
      expect([1, 2, 3].map(() => tryIncrement(docs, 'cap:c', 1.5))).toEqual([true, true, false]);
      expect(docs).toHaveLength(3);
    });

    it('a full counter makes the upsert meet its _id: the duplicate key the store reads as full', () => {
      const docs: CounterDoc[] = [{ _id: 'k', count: 2, expires_at: new Date(T0) }];
      expect(() => upsertOne(docs, counterBelow('k', 2), incrementUpdate(new Date(T0)))).toThrow(DuplicateKey);
      // The loser of a race to create the key meets the same error while there is room: the retry counts it.
      const raced: CounterDoc[] = [{ _id: 'k', count: 1, expires_at: new Date(T0) }];
      expect(updateOneIn(raced, counterBelow('k', 5), incrementUpdate(new Date(T0 + 1)))).toEqual({ matchedCount: 1 });
      expect(raced[0]).toEqual({ _id: 'k', count: 2, expires_at: new Date(T0 + 1) });
    });

    it('counterClaimable and counterClaimUpdate claim a key once until it expires or is released', () => {
      checks('counterClaimable', 'counterClaimUpdate');
      const claim = (docs: CounterDoc[], key: string, now: number, until: number): boolean => {
        try {
          upsertOne(docs, counterClaimable(key, new Date(now)), counterClaimUpdate(new Date(until)));
          return true;
        } catch (error) {
          if (!(error instanceof DuplicateKey)) throw error;
          return false;
        }
      };
      const docs: CounterDoc[] = [];
      expect(claim(docs, 'dup:a', T0, T0 + 60_000)).toBe(true);
      expect(claim(docs, 'dup:a', T0 + 1, T0 + 60_001)).toBe(false);
      expect(claim(docs, 'dup:a', T0 + 60_000, T0 + 120_000)).toBe(true);
      expect(findOne(docs, counterById('dup:a'))).toEqual({
        _id: 'dup:a',
        count: 1,
        expires_at: new Date(T0 + 120_000),
      });
      // Released (decremented to 0): free again before it expires.
      updateOneIn(docs, counterAboveZero('dup:a'), decrementUpdate());
      expect(claim(docs, 'dup:a', T0 + 60_001, T0 + 120_001)).toBe(true);
      expect(docs).toHaveLength(1);
    });

    it('counterAboveZero and decrementUpdate give a count back, never below zero', () => {
      checks('counterAboveZero', 'decrementUpdate');
      const docs: CounterDoc[] = [{ _id: 'k', count: 1, expires_at: new Date(T0) }];
      expect(updateOneIn(docs, counterAboveZero('k'), decrementUpdate())).toEqual({ matchedCount: 1 });
      expect(updateOneIn(docs, counterAboveZero('k'), decrementUpdate())).toEqual({ matchedCount: 0 });
      expect(docs[0]?.count).toBe(0);
    });
  });

  describe('export queries', () => {
    const account = freshId();
    const exports = [
      anExport(account),
      anExport(freshId()),
      anExport(account, { expires_at: '2026-03-01T00:00:00.000Z' }),
      anExport(account),
      anExport(account),
    ];
    const docs = exports.map(exportDocument);
    const page = (q: Partial<Parameters<typeof exportPage>[0]>) => {
      const { filter, sort, limit } = exportPage({
        account_id: account,
        live_at: '2026-03-02T00:00:00.000Z',
        limit: 10,
        ...q,
      });
      return find(docs, filter, sort)
        .slice(0, limit)
        .map((d) => exports.findIndex((e) => e.id === d._id));
    };

    it('exportById finds the export; exportPage lists the account’s unexpired exports newest first, between cursors', () => {
      checks('exportById', 'exportPage');
      expect(toExport(findOne(docs, exportById(exports[3]!.id))!)).toEqual(exports[3]);
      expect(page({})).toEqual([4, 3, 0]);
      expect(page({ limit: 2 })).toEqual([4, 3]);
      expect(page({ before_id: exports[4]!.id })).toEqual([3, 0]);
      expect(page({ after_id: exports[0]!.id })).toEqual([4, 3]);
      expect(page({ limit: 0 })).toEqual([]);
    });

    it('progressUpdate sets only the fields the patch names, and nothing for an empty patch', () => {
      checks('progressUpdate');
      const e = anExport(account, { file_name: 'old.csv' });
      const own = [exportDocument(e)];
      expect(progressUpdate({})).toBeUndefined();
      expect(progressUpdate({ status: undefined })).toBeUndefined();
      const after = findOneAndUpdate(
        own,
        exportById(e.id),
        progressUpdate({ status: 'complete', exported_docs: 12, reason: { message: 'done' } })!,
      );
      expect(toExport(after!)).toEqual({ ...e, status: 'complete', exported_docs: 12, reason: { message: 'done' } });
      expect(findOneAndUpdate(own, exportById(freshId()), progressUpdate({ status: 'error' })!)).toBeNull();
    });

    it('downloadPush appends each download in order', () => {
      checks('downloadPush');
      const e = anExport(account);
      const own = [exportDocument(e)];
      const first = { at: '2026-03-01T11:00:00.000Z', user: USER };
      const second = { at: '2026-03-01T12:00:00.000Z', user: { ...USER, first_name: 'Bo' } };
      expect(updateOneIn(own, exportById(e.id), downloadPush(first))).toEqual({ matchedCount: 1 });
      expect(updateOneIn(own, exportById(e.id), downloadPush(second))).toEqual({ matchedCount: 1 });
      expect(updateOneIn(own, exportById(freshId()), downloadPush(second))).toEqual({ matchedCount: 0 });
      expect(toExport(own[0]!).downloads).toEqual([first, second]);
    });
  });

  describe('job queries', () => {
    const job = (id: string, dueAt: number, enqueuedAt = T0, kind = 'export'): JobDoc =>
      jobDocument({ kind, id, payload: { n: id }, dueAt }, enqueuedAt);

    it('claimableJobs and claimUpdate hand each due job to one lease, earliest due first, counting attempts', () => {
      checks('claimableJobs', 'claimUpdate');
      const docs = [
        job('late', T0 + 20),
        job('b', T0 + 10, T0 + 1),
        job('a', T0 + 10, T0),
        job('future', T0 + 10_000),
        job('other-kind', T0, T0, 'report'),
      ];
      const claim = (now: number, lease: string) => {
        const { filter, sort } = claimableJobs('export', now);
        const doc = findOneAndUpdate(docs, filter, claimUpdate(lease, now + 1000), sort);
        return doc ? toJob(doc) : undefined;
      };
      expect(claim(T0 + 100, 'L1')).toMatchObject({
        id: 'a',
        leaseId: 'L1',
        leasedUntil: T0 + 1100,
        attempts: 1,
        payload: { n: 'a' },
      });
      expect(claim(T0 + 100, 'L2')?.id).toBe('b');
      expect(claim(T0 + 100, 'L3')?.id).toBe('late');
      expect(claim(T0 + 100, 'L4')).toBeUndefined();
      // The first lease ran out: the job is taken over, its attempt counted again.
      expect(claim(T0 + 1100, 'L5')).toMatchObject({ id: 'a', leaseId: 'L5', attempts: 2 });
    });

    it('heldJob with extendUpdate, completeUpdate and failUpdate act only under the current lease', () => {
      checks('heldJob', 'extendUpdate', 'completeUpdate', 'failUpdate', 'jobById');
      const docs = [job('a', T0), job('b', T0), job('c', T0)];
      for (const [n, id] of ['a', 'b', 'c'].entries())
        updateOneIn(docs, jobById('export', id), claimUpdate(`L${n}`, T0 + 1000));
      const ref = (id: string, leaseId: string) => ({ kind: 'export', id, leaseId });
      expect(updateOneIn(docs, heldJob(ref('a', 'stale')), extendUpdate(T0 + 5000))).toEqual({ matchedCount: 0 });
      expect(updateOneIn(docs, heldJob(ref('a', 'L0')), extendUpdate(T0 + 5000))).toEqual({ matchedCount: 1 });
      expect(toJob(findOne(docs, jobById('export', 'a'))!).leasedUntil).toBe(T0 + 5000);
      expect(updateOneIn(docs, heldJob(ref('a', 'L0')), completeUpdate())).toEqual({ matchedCount: 1 });
      expect(toJob(docs[0]!)).toMatchObject({ state: 'done' });
      expect(toJob(docs[0]!)).not.toHaveProperty('leaseId');
      expect(updateOneIn(docs, heldJob(ref('a', 'L0')), completeUpdate())).toEqual({ matchedCount: 0 });
      expect(updateOneIn(docs, heldJob(ref('b', 'L1')), failUpdate('boom', T0 + 9000))).toEqual({ matchedCount: 1 });
      expect(toJob(docs[1]!)).toMatchObject({ state: 'pending', dueAt: T0 + 9000, error: 'boom' });
      // Pending again from its retry time (c is claimable too: its lease ran out long ago).
      expect(find(docs, claimableJobs('export', T0 + 8999).filter).map((d) => d._id.id)).toEqual(['c']);
      expect(find(docs, claimableJobs('export', T0 + 9000).filter).map((d) => d._id.id)).toEqual(['b', 'c']);
      expect(updateOneIn(docs, heldJob(ref('c', 'L2')), failUpdate('fatal'))).toEqual({ matchedCount: 1 });
      expect(toJob(docs[2]!)).toMatchObject({ state: 'failed', dueAt: T0, error: 'fatal' });
      expect(toJob(docs[2]!)).not.toHaveProperty('leasedUntil');
    });
  });

  describe('certificate queries', () => {
    it('certificateById and certificateByPingToken find the certificate, exactly', () => {
      checks('certificateById', 'certificateByPingToken');
      const [a, b] = [aCertificate(), aCertificate()];
      const docs = [a!, b!].map(certificateDocument);
      expect(toCertificate(findOne(docs, certificateById(b!.id))!)).toEqual(b);
      expect(toCertificate(findOne(docs, certificateByPingToken(a!.ping_token))!)).toEqual(a);
      expect(findOne(docs, certificateByPingToken(a!.ping_token.toUpperCase()))).toBeNull();
    });

    it('claimCertificateUpdate appends claims and keeps the later expiry', () => {
      checks('claimCertificateUpdate');
      const c = aCertificate({ expires_at: '2026-01-18T15:00:00.000Z' });
      const docs = [certificateDocument(c)];
      const claim = (n: number) => ({ at: `2026-01-1${n}T15:00:00.000Z`, event_id: freshId(), lead_id: freshId() });
      const [one, two] = [claim(6), claim(7)];
      const later = findOneAndUpdate(
        docs,
        certificateById(c.id),
        claimCertificateUpdate(one, new Date('2026-04-16T15:00:00.000Z')),
      );
      expect(toCertificate(later!)).toEqual({ ...c, claims: [one], expires_at: '2026-04-16T15:00:00.000Z' });
      const earlier = findOneAndUpdate(
        docs,
        certificateById(c.id),
        claimCertificateUpdate(two, new Date('2026-02-01T00:00:00.000Z')),
      );
      expect(toCertificate(earlier!)).toEqual({ ...c, claims: [one, two], expires_at: '2026-04-16T15:00:00.000Z' });
      expect(
        findOneAndUpdate(docs, certificateById('f'.repeat(40)), claimCertificateUpdate(two, new Date(T0))),
      ).toBeNull();
    });
  });
}
