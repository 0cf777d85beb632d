import type { AliasStore, EntityAlias } from '@leadroute/core';
import { type Queryable, query } from '../query';
import { iso, qualified } from '../sql';

interface AliasRow {
  id: string;
  entity_id: string;
  entity_alias: string;
  account_id: string;
  created_at: Date | string;
  updated_at: Date | string;
}

const toAlias = (row: AliasRow): EntityAlias => ({
  id: row.id,
  entity_id: row.entity_id,
  entity_alias: row.entity_alias,
  account_id: row.account_id,
  created_at: iso(row.created_at),
  updated_at: iso(row.updated_at),
});

/** Entity aliases; a unique index on (account_id, entity_id) turns a second alias into a Conflict. */
export function aliasStore(db: Queryable, schema: string): AliasStore {
  const table = qualified(schema, 'entity_aliases');
  const select = `SELECT id, entity_id, entity_alias, account_id, created_at, updated_at FROM ${table}`;
  const row = (a: EntityAlias): unknown[] => [
    a.id,
    a.entity_id,
    a.entity_alias,
    a.account_id,
    a.created_at,
    a.updated_at,
  ];
  return {
    insert: (alias) =>
      query(
        db,
        'insert entity alias',
        `INSERT INTO ${table} (id, entity_id, entity_alias, account_id, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6)`,
        row(alias),
      ).map(() => undefined),
    get: (id) =>
      query<AliasRow>(db, 'get entity alias', `${select} WHERE id = $1`, [id]).map(({ rows: [r] }) =>
        r ? toAlias(r) : undefined,
      ),
    listByAccount: (accountId) =>
      query<AliasRow>(db, 'list entity aliases', `${select} WHERE account_id = $1 ORDER BY created_at, id`, [
        accountId,
      ]).map(({ rows }) => rows.map(toAlias)),
    update: (alias) =>
      query(
        db,
        'update entity alias',
        `UPDATE ${table} SET entity_id = $2, entity_alias = $3, account_id = $4, created_at = $5, updated_at = $6 WHERE id = $1`,
        row(alias),
      ).map(() => undefined),
    remove: (id) =>
      query(db, 'remove entity alias', `DELETE FROM ${table} WHERE id = $1`, [id]).map(({ rowCount }) => rowCount > 0),
  };
}
