import type { ExportDownload, ExportPatch, ExportStore, StoredExport } from '@leadroute/core';
import { type Queryable, query } from '../query';
import { fromJsonb, fromJsonbArray, fromJsonbText, iso, qualified, toJsonb, toJsonbArray } from '../sql';

/** What an export job changes: each a column, so a patch is a plain UPDATE. */
const PATCHABLE = [
  'status',
  'exported_docs',
  'file_name',
  'file_key',
  'reason',
  'error',
] as const satisfies readonly (keyof ExportPatch)[];

/** The request as stored in `request`: everything but the columns. */
type Request = Omit<StoredExport, (typeof PATCHABLE)[number] | 'id' | 'account_id' | 'expires_at' | 'downloads'>;

interface ExportRow {
  id: string;
  account_id: string;
  expires_at: Date | string;
  status: StoredExport['status'];
  exported_docs: number;
  file_name: string | null;
  file_key: string | null;
  reason: string | null;
  error: string | null;
  downloads: unknown[] | string;
  request: Request | string;
}

const COLUMNS =
  'id, account_id, expires_at, status, exported_docs, file_name, file_key, reason, error, downloads, request';
/** The optional columns come back as JSON text: one may hold a bare string, which `pg` would hand over parsed. */
const SELECTED =
  'id, account_id, expires_at, status, exported_docs, file_name::text, file_key::text, reason::text, error::text, downloads, request';

/** An optional field as a jsonb parameter: null when absent (jsonb, so any text round-trips). */
const optional = (value: unknown): string | null => (value === undefined ? null : toJsonb(value));

function toExport(row: ExportRow): StoredExport {
  const optionals: Record<string, unknown> = {};
  for (const key of ['file_name', 'file_key', 'reason', 'error'] as const) {
    const text = row[key];
    if (text !== null) optionals[key] = fromJsonbText(text);
  }
  return {
    ...fromJsonb(row.request),
    id: row.id,
    account_id: row.account_id,
    expires_at: iso(row.expires_at),
    status: row.status,
    exported_docs: row.exported_docs,
    ...optionals,
    downloads: fromJsonbArray<ExportDownload>(row.downloads),
  } as StoredExport;
}

/**
 * Export requests. The progress columns are updated in place by the export job,
 * and `addDownload` appends to the jsonb array in one UPDATE, so concurrent
 * downloads all land (each waits on the row lock and appends to what it finds).
 */
export function exportStore(db: Queryable, schema: string): ExportStore {
  const table = qualified(schema, 'exports');
  return {
    insert: (e) => {
      const {
        id,
        account_id,
        expires_at,
        status,
        exported_docs,
        file_name,
        file_key,
        reason,
        error,
        downloads,
        ...request
      } = e;
      return query(
        db,
        'insert export',
        `INSERT INTO ${table} (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7::jsonb, $8::jsonb, $9::jsonb, $10::jsonb, $11::jsonb)`,
        [
          id,
          account_id,
          expires_at,
          status,
          exported_docs,
          optional(file_name),
          optional(file_key),
          optional(reason),
          optional(error),
          toJsonbArray(downloads),
          toJsonb(request),
        ],
      ).map(() => undefined);
    },
    get: (id) =>
      query<ExportRow>(db, 'get export', `SELECT ${SELECTED} FROM ${table} WHERE id = $1`, [id]).map(
        ({ rows: [row] }) => (row ? toExport(row) : undefined),
      ),
    list: (q) =>
      query<ExportRow>(
        db,
        'list exports',
        `SELECT ${SELECTED} FROM ${table}
         WHERE account_id = $1 AND expires_at > $2 AND ($3::text IS NULL OR id < $3) AND ($4::text IS NULL OR id > $4)
         ORDER BY id DESC LIMIT $5`,
        [q.account_id, q.live_at, q.before_id ?? null, q.after_id ?? null, Math.max(0, Math.floor(q.limit))],
      ).map(({ rows }) => rows.map(toExport)),
    update: (id, patch) => {
      // Each patchable column is set only when the patch names it: `$<flag>` says so.
      const values: unknown[] = [id];
      const sets = PATCHABLE.map((column) => {
        const required = column === 'status' || column === 'exported_docs';
        // As in memory, naming an optional field with `undefined` clears it; the required two cannot be cleared.
        const given = Object.hasOwn(patch, column) && (!required || patch[column] !== undefined);
        const value = !given ? null : required ? patch[column] : optional(patch[column]);
        values.push(given, value);
        const cast = column === 'status' ? '::text' : column === 'exported_docs' ? '::float8' : '::jsonb';
        return `${column} = CASE WHEN $${values.length - 1}::boolean THEN $${values.length}${cast} ELSE ${column} END`;
      });
      return query<ExportRow>(
        db,
        'update export',
        `UPDATE ${table} SET ${sets.join(', ')} WHERE id = $1 RETURNING ${SELECTED}`,
        values,
      ).map(({ rows: [row] }) => (row ? toExport(row) : undefined));
    },
    addDownload: (id, entry) =>
      query(
        db,
        'add export download',
        `UPDATE ${table} SET downloads = downloads || jsonb_build_array($2::jsonb) WHERE id = $1`,
        [id, toJsonb(entry)],
      ).map(({ rowCount }) => rowCount > 0),
  };
}
