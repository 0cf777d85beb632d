import type { EntityRecord, EntityStore } from '@leadroute/core';
import { directReader, type ReadKind, type Reader } from '../batch/reads';
import { type Queryable, query } from '../query';
import { iso, isoOrNull, placeholders, qualified } from '../sql';

/** An `entities` row as `pg` returns it: timestamptz as Date, text[] as string[]. */
type EntityRow = Omit<
  EntityRecord,
  'flow_ids' | 'module_ids' | 'created_at' | 'updated_at' | 'invitation_expires_at'
> & {
  flow_ids: string[];
  module_ids: string[];
  invitation_expires_at: Date | string | null;
  created_at: Date | string;
  updated_at: Date | string;
};

/** Every column, in the order {@link values} lists them; `id` first so an UPDATE can address it as `$1`. */
const COLUMNS = [
  'id',
  'owner_account_id',
  'name',
  'description',
  'standard',
  'account',
  'pending',
  'connected',
  'connected_account_id',
  'deprecated',
  'see',
  'field_suffix',
  'invitation_id',
  'invitation_expires_at',
  'expired',
  'flow_ids',
  'logo_url',
  'module_ids',
  'source',
  'recipient',
  'time_zone',
  'consent_certified_vendor',
  'website',
  'created_at',
  'updated_at',
] as const satisfies readonly (keyof EntityRecord)[];

const values = (e: EntityRecord): unknown[] =>
  COLUMNS.map((column) => (Array.isArray(e[column]) ? [...(e[column] as string[])] : e[column]));

const toEntity = (row: EntityRow): EntityRecord => ({
  ...row,
  flow_ids: row.flow_ids,
  module_ids: row.module_ids,
  invitation_expires_at: isoOrNull(row.invitation_expires_at),
  created_at: iso(row.created_at),
  updated_at: iso(row.updated_at),
});

/**
 * Custom and account entities. Never deleted: deprecation is an update. Entities are
 * read through `reader`, which may look several up in one statement.
 */
export function entityStore(db: Queryable, schema: string, reader: Reader = directReader(db)): EntityStore {
  const table = qualified(schema, 'entities');
  const select = `SELECT ${COLUMNS.join(', ')} FROM ${table}`;
  const byId: ReadKind<EntityRow> = {
    what: 'get entity',
    statement: (ids) => ({ text: `${select} WHERE id = ANY($1::text[])`, values: [ids] }),
    id: (row) => row.id,
  };
  const assignments = COLUMNS.slice(1)
    .map((column, i) => `${column} = $${i + 2}`)
    .join(', ');
  return {
    insert: (entity) =>
      query(
        db,
        'insert entity',
        `INSERT INTO ${table} (${COLUMNS.join(', ')}) VALUES (${placeholders(COLUMNS.length)})`,
        values(entity),
      ).map(() => undefined),
    get: (id) => reader.get(byId, id).map((row) => (row ? toEntity(row) : undefined)),
    listByOwner: (accountId) =>
      query<EntityRow>(db, 'list entities', `${select} WHERE owner_account_id = $1 ORDER BY created_at, id`, [
        accountId,
      ]).map(({ rows }) => rows.map(toEntity)),
    update: (entity) =>
      query(db, 'update entity', `UPDATE ${table} SET ${assignments} WHERE id = $1`, values(entity)).map(
        () => undefined,
      ),
  };
}
