import { describe, expect, it } from 'vitest';
import { deleteMany, DuplicateKey, findOne, upsertOne, updateOneIn } from '../mingo.test-helper';
import {
  answerIdempotencyUpdate,
  claimIdempotencyUpdate,
  expiredIdempotencyKey,
  type IdempotencyDoc,
  idempotencyExpiredBefore,
  idempotencyKeyById,
  toIdempotencyRecord,
  unansweredIdempotencyKey,
} from '../queries';
import type { Checks } from './checks';

const SCOPE = { account_id: 'a1', flow_id: 'f1', source_id: 's1', key: 'k1' };
const times = (created: string, expires: string) => ({ fingerprint: 'fp', created_at: created, expires_at: expires });

/** Idempotency keys: the claim, answer, release and purge the store runs, executed by mingo. */
export function idempotencyChecks(checks: Checks): void {
  describe('idempotency key queries', () => {
    /** What the store's claim does: the conditional upsert, and on a duplicate key the record that holds the key. */
    const claim = (docs: IdempotencyDoc[], now: string, expires: string) => {
      try {
        upsertOne(docs, expiredIdempotencyKey(SCOPE, now), claimIdempotencyUpdate(times(now, expires)));
        return { claimed: true as const };
      } catch (error) {
        if (!(error instanceof DuplicateKey)) throw error;
        return {
          claimed: false as const,
          record: toIdempotencyRecord(findOne(docs, idempotencyKeyById(SCOPE)) as IdempotencyDoc),
        };
      }
    };

    it('claims a free key once; a live claim holds it; an expired one is taken over', () => {
      checks(
        'expiredIdempotencyKey',
        'claimIdempotencyUpdate',
        'idempotencyKeyById',
        'toIdempotencyRecord',
        'answerIdempotencyUpdate',
      );
      const docs: IdempotencyDoc[] = [];
      expect(claim(docs, '2026-01-01T00:00:00Z', '2026-01-02T00:00:00Z')).toEqual({ claimed: true });
      const again = claim(docs, '2026-01-01T01:00:00Z', '2026-01-02T01:00:00Z');
      expect(again).toMatchObject({
        claimed: false,
        record: { ...SCOPE, answer: null, expires_at: '2026-01-02T00:00:00Z' },
      });
      updateOneIn(docs, idempotencyKeyById(SCOPE), answerIdempotencyUpdate({ status: 201, body: { ok: true } }));
      expect(claim(docs, '2026-01-01T02:00:00Z', '2026-01-02T02:00:00Z')).toMatchObject({
        claimed: false,
        record: { answer: { status: 201 } },
      });
      expect(claim(docs, '2026-01-03T00:00:00Z', '2026-01-04T00:00:00Z')).toEqual({ claimed: true });
      expect(docs).toHaveLength(1);
      expect(toIdempotencyRecord(docs[0] as IdempotencyDoc)).toMatchObject({
        ...SCOPE,
        answer: null,
        expires_at: '2026-01-04T00:00:00Z',
      });
    });

    it('releases only an unanswered claim, and purges what expired', () => {
      checks('unansweredIdempotencyKey', 'idempotencyExpiredBefore');
      const docs: IdempotencyDoc[] = [];
      claim(docs, '2026-01-01T00:00:00Z', '2026-01-02T00:00:00Z');
      updateOneIn(docs, idempotencyKeyById(SCOPE), answerIdempotencyUpdate({ status: 201, body: {} }));
      expect(deleteMany(docs, unansweredIdempotencyKey(SCOPE)).deletedCount).toBe(0);
      expect(deleteMany(docs, idempotencyExpiredBefore('2026-01-01T12:00:00Z')).deletedCount).toBe(0);
      expect(deleteMany(docs, idempotencyExpiredBefore('2026-01-02T12:00:00Z')).deletedCount).toBe(1);
      claim(docs, '2026-01-05T00:00:00Z', '2026-01-06T00:00:00Z');
      expect(deleteMany(docs, unansweredIdempotencyKey(SCOPE)).deletedCount).toBe(1);
    });
  });
}
