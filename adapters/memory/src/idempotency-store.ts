import type { IdempotencyRecord, IdempotencyScope, IdempotencyStore } from '@leadroute/core';
import { okAsync } from 'neverthrow';
import { DONE } from './done';

// The four parts joined by a character none of them may hold (IDs are hex; a key is printable ASCII).
const keyOf = (s: IdempotencyScope): string => [s.account_id, s.flow_id, s.source_id, s.key].join('\u0000');

/** Idempotency keys in a map; a record's answer is cloned in and out so no caller shares it. */
export function idempotencyStore(records: Map<string, IdempotencyRecord> = new Map()): IdempotencyStore {
  return {
    claim: (record, now) => {
      const held = records.get(keyOf(record));
      if (held && held.expires_at > now) return okAsync({ claimed: false, record: structuredClone(held) });
      records.set(keyOf(record), { ...record, answer: null });
      return okAsync({ claimed: true });
    },
    complete: (scope, answer) => {
      const held = records.get(keyOf(scope));
      if (held) records.set(keyOf(scope), { ...held, answer: structuredClone(answer) });
      return DONE;
    },
    release: (scope) => {
      if (records.get(keyOf(scope))?.answer === null) records.delete(keyOf(scope));
      return DONE;
    },
    purgeExpired: (before) => {
      let purged = 0;
      for (const [k, r] of records) if (r.expires_at < before && records.delete(k)) purged++;
      return okAsync(purged);
    },
  };
}
