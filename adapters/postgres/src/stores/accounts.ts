import type { Account, AccountStore, ApiKeyRecord, User } from '@leadroute/core';
import { directReader, type ReadKind, type Reader } from '../batch/reads';
import { type Queryable, query } from '../query';
import { fromJsonb, iso, qualified, toJsonb } from '../sql';

interface AccountRow {
  id: string;
  name: string;
  plan: Account['plan'];
  time_zone: string;
  staff: boolean;
  notification_email: string | null;
  created_at: Date | string;
}

interface ApiKeyRow {
  hash: string;
  account_id: string;
  user: User | string;
  created_at: Date | string;
}

const toAccount = (row: AccountRow): Account => ({
  id: row.id,
  name: row.name,
  plan: row.plan,
  time_zone: row.time_zone,
  staff: row.staff,
  ...(row.notification_email ? { notification_email: row.notification_email } : {}),
  created_at: iso(row.created_at),
});

const toApiKey = (row: ApiKeyRow): ApiKeyRecord => ({
  hash: row.hash,
  account_id: row.account_id,
  user: fromJsonb(row.user),
  created_at: iso(row.created_at),
});

/** An account's columns in table order, without created_at (which an update keeps). */
const columns = (a: Account) => [a.id, a.name, a.plan, a.time_zone, a.staff, a.notification_email ?? null];

/**
 * Accounts and their hashed API keys; the hash is the key's primary key, so lookups
 * are exact. Accounts are read through `reader`, which may look several up in one statement.
 */
export function accountStore(db: Queryable, schema: string, reader: Reader = directReader(db)): AccountStore {
  const accounts = qualified(schema, 'accounts');
  const keys = qualified(schema, 'api_keys');
  const byId: ReadKind<AccountRow> = {
    what: 'get account',
    statement: (ids) => ({
      text: `SELECT id, name, plan, time_zone, staff, notification_email, created_at FROM ${accounts} WHERE id = ANY($1::text[])`,
      values: [ids],
    }),
    id: (row) => row.id,
  };
  return {
    insert: (a) =>
      query(
        db,
        'insert account',
        `INSERT INTO ${accounts} (id, name, plan, time_zone, staff, notification_email, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [...columns(a), a.created_at],
      ).map(() => undefined),
    get: (id) => reader.get(byId, id).map((row) => (row ? toAccount(row) : undefined)),
    findByEmail: (email) =>
      query<AccountRow>(
        db,
        'find accounts by e-mail',
        `SELECT id, name, plan, time_zone, staff, notification_email, created_at FROM ${accounts} WHERE notification_email = $1 ORDER BY id`,
        [email],
      ).map(({ rows }) => rows.map(toAccount)),
    update: (a) =>
      query(
        db,
        'update account',
        `UPDATE ${accounts} SET name = $2, plan = $3, time_zone = $4, staff = $5, notification_email = $6 WHERE id = $1`,
        columns(a),
      ).map(({ rowCount }) => (rowCount ?? 0) > 0),
    insertKey: (k) =>
      query(
        db,
        'insert API key',
        `INSERT INTO ${keys} (hash, account_id, "user", created_at) VALUES ($1, $2, $3::jsonb, $4)`,
        [k.hash, k.account_id, toJsonb(k.user), k.created_at],
      ).map(() => undefined),
    findKey: (hash) =>
      query<ApiKeyRow>(db, 'find API key', `SELECT hash, account_id, "user", created_at FROM ${keys} WHERE hash = $1`, [
        hash,
      ]).map(({ rows: [row] }) => (row ? toApiKey(row) : undefined)),
    keysOf: (accountId) =>
      query<ApiKeyRow>(
        db,
        'list API keys',
        `SELECT hash, account_id, "user", created_at FROM ${keys} WHERE account_id = $1 ORDER BY created_at, hash`,
        [accountId],
      ).map(({ rows }) => rows.map(toApiKey)),
    removeKey: (hash) =>
      query(db, 'remove API key', `DELETE FROM ${keys} WHERE hash = $1`, [hash]).map(
        ({ rowCount }) => (rowCount ?? 0) > 0,
      ),
  };
}
