import type { CredentialRecord, CredentialStore } from '@leadroute/core';
import { type Queryable, query } from '../query';
import { iso, qualified } from '../sql';

type CredentialRow = Omit<CredentialRecord, 'created_at' | 'updated_at'> & {
  created_at: Date | string;
  updated_at: Date | string;
};

const COLUMNS = 'id, account_id, name, type, package, username, password, created_at, updated_at';

const toCredential = (row: CredentialRow): CredentialRecord => ({
  ...row,
  created_at: iso(row.created_at),
  updated_at: iso(row.updated_at),
});

/** Recipient credentials. The password is stored as given: treat the table as holding secrets. */
export function credentialStore(db: Queryable, schema: string): CredentialStore {
  const table = qualified(schema, 'credentials');
  return {
    insert: (c) =>
      query(db, 'insert credential', `INSERT INTO ${table} (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`, [
        c.id,
        c.account_id,
        c.name,
        c.type,
        c.package,
        c.username,
        c.password,
        c.created_at,
        c.updated_at,
      ]).map(() => undefined),
    get: (id) =>
      query<CredentialRow>(db, 'get credential', `SELECT ${COLUMNS} FROM ${table} WHERE id = $1`, [id]).map(
        ({ rows: [row] }) => (row ? toCredential(row) : undefined),
      ),
    listByAccount: (accountId) =>
      query<CredentialRow>(
        db,
        'list credentials',
        `SELECT ${COLUMNS} FROM ${table} WHERE account_id = $1 ORDER BY id`,
        [accountId],
      ).map(({ rows }) => rows.map(toCredential)),
  };
}
