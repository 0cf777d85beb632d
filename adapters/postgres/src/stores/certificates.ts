import type { CertificateClaim, CertificateRecord, CertificateStore } from '@leadroute/core';
import { type Queryable, query } from '../query';
import { fromJsonb, fromJsonbArray, iso, qualified, toJsonb, toJsonbArray } from '../sql';

interface CertificateRow {
  expires_at: Date | string;
  claims: CertificateClaim[] | string;
  certificate: Omit<CertificateRecord, 'expires_at' | 'claims'> | string;
}

const COLUMNS = 'expires_at, claims, certificate';

const toCertificate = (row: CertificateRow): CertificateRecord => ({
  ...fromJsonb(row.certificate),
  expires_at: iso(row.expires_at),
  claims: fromJsonbArray<CertificateClaim>(row.claims),
});

/**
 * Consent certificates. The ID is the primary key and the ping token has a unique
 * index, so a taken one is a Conflict. A claim is one UPDATE appending to the jsonb
 * array and keeping the later expiry: concurrent claims all land.
 */
export function certificateStore(db: Queryable, schema: string): CertificateStore {
  const table = qualified(schema, 'certificates');
  const one = ({ rows: [row] }: { rows: CertificateRow[] }) => (row ? toCertificate(row) : undefined);
  return {
    insert: (c) => {
      const { expires_at, claims, ...certificate } = c;
      return query(
        db,
        'insert certificate',
        `INSERT INTO ${table} (id, ping_token, expires_at, claims, certificate) VALUES ($1, $2, $3, $4::jsonb, $5::jsonb)`,
        [c.id, c.ping_token, expires_at, toJsonbArray(claims), toJsonb(certificate)],
      ).map(() => undefined);
    },
    get: (id) =>
      query<CertificateRow>(db, 'get certificate', `SELECT ${COLUMNS} FROM ${table} WHERE id = $1`, [id]).map(one),
    findByPingToken: (token) =>
      query<CertificateRow>(
        db,
        'find certificate by ping token',
        `SELECT ${COLUMNS} FROM ${table} WHERE ping_token = $1`,
        [token],
      ).map(one),
    claim: (id, claim, expiresAt) =>
      query<CertificateRow>(
        db,
        'claim certificate',
        `UPDATE ${table} SET claims = claims || jsonb_build_array($2::jsonb), expires_at = GREATEST(expires_at, $3::timestamptz)
         WHERE id = $1 RETURNING ${COLUMNS}`,
        [id, toJsonb(claim), expiresAt],
      ).map(one),
  };
}
