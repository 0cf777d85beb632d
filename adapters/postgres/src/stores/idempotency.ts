import {
  errors,
  type IdempotencyClaim,
  type IdempotencyRecord,
  type IdempotencyScope,
  type IdempotencyStore,
  type IdempotentAnswer,
  type StoreError,
} from '@leadroute/core';
import { errAsync, okAsync, type ResultAsync } from 'neverthrow';
import { type Queryable, query } from '../query';
import { iso, qualified } from '../sql';

type Row = Omit<IdempotencyRecord, 'created_at' | 'expires_at'> & {
  created_at: Date | string;
  expires_at: Date | string;
};

const COLUMNS = 'account_id, flow_id, source_id, key, fingerprint, answer, created_at, expires_at';
const SCOPE = 'account_id = $1 AND flow_id = $2 AND source_id = $3 AND key = $4';

const scopeValues = (s: IdempotencyScope) => [s.account_id, s.flow_id, s.source_id, s.key];
const toRecord = ({
  account_id,
  flow_id,
  source_id,
  key,
  fingerprint,
  answer,
  created_at,
  expires_at,
}: Row): IdempotencyRecord => ({
  account_id,
  flow_id,
  source_id,
  key,
  fingerprint,
  answer,
  created_at: iso(created_at),
  expires_at: iso(expires_at),
});

/** Idempotency keys of lead intake, one row per (account, flow, source, key). */
export function idempotencyStore(db: Queryable, schema: string): IdempotencyStore {
  const table = qualified(schema, 'idempotency_keys');
  // One statement: insert, or take over an expired row; a live row is left alone and read back.
  const statement = `
    WITH claimed AS (
      INSERT INTO ${table} (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, NULL, $6, $7)
      ON CONFLICT (account_id, flow_id, source_id, key) DO UPDATE
        SET fingerprint = EXCLUDED.fingerprint, answer = NULL, created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at
        WHERE ${table}.expires_at <= $8
      RETURNING 1
    )
    SELECT true AS claimed, NULL AS account_id, NULL AS flow_id, NULL AS source_id, NULL AS key, NULL AS fingerprint,
           NULL::jsonb AS answer, NULL::timestamptz AS created_at, NULL::timestamptz AS expires_at FROM claimed
    UNION ALL
    SELECT false, ${COLUMNS} FROM ${table} WHERE ${SCOPE} AND NOT EXISTS (SELECT 1 FROM claimed)`;
  const claim = (
    r: Omit<IdempotencyRecord, 'answer'>,
    now: string,
    tries: number,
  ): ResultAsync<IdempotencyClaim, StoreError> =>
    query<Row & { claimed: boolean }>(db, 'claim idempotency key', statement, [
      ...scopeValues(r),
      r.fingerprint,
      r.created_at,
      r.expires_at,
      now,
    ]).andThen(({ rows: [row] }) => {
      if (row)
        return okAsync(row.claimed ? { claimed: true as const } : { claimed: false as const, record: toRecord(row) });
      // No row: the holder committed after this statement's snapshot (the SELECT cannot see it), or was released
      // meanwhile. Ask again.
      if (tries > 1) return claim(r, now, tries - 1);
      return errAsync(
        errors.storageFailure(
          '[leadroute] [postgres] claim idempotency key failed: the key kept changing hands.',
        ) as StoreError,
      );
    });
  return {
    claim: (r, now) => claim(r, now, 3),
    complete: (scope, answer: IdempotentAnswer) =>
      query(db, 'complete idempotency key', `UPDATE ${table} SET answer = $5::jsonb WHERE ${SCOPE}`, [
        ...scopeValues(scope),
        JSON.stringify(answer),
      ]).map(() => undefined),
    release: (scope) =>
      query(
        db,
        'release idempotency key',
        `DELETE FROM ${table} WHERE ${SCOPE} AND answer IS NULL`,
        scopeValues(scope),
      ).map(() => undefined),
    purgeExpired: (before) =>
      query(db, 'purge idempotency keys', `DELETE FROM ${table} WHERE expires_at < $1`, [before]).map(
        ({ rowCount }) => rowCount,
      ),
  };
}
