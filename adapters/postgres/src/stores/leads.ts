import type { LeadRecord, LeadStore } from '@leadroute/core';
import { columnsOf, directWriter, jsonbArray, unnestOf, type WriteKind, type Writer } from '../batch/writer';
import { type Queryable, query } from '../query';
import { fromJsonb, iso, isoOrNull, qualified, toJsonb } from '../sql';
import { purgePartitioned } from './partitions';

type LeadRow = Omit<LeadRecord, 'submission_timestamp' | 'returned_at' | 'expires_at' | 'fields'> & {
  submission_timestamp: Date | string;
  returned_at: Date | string | null;
  expires_at: Date | string;
  fields: LeadRecord['fields'] | string;
};

const COLUMNS =
  'id, account_id, flow_id, flow_name, source_id, source_name, submission_timestamp, fields, purchase_price, latest_event_id, returned_at, expires_at';

const toLead = (row: LeadRow): LeadRecord => ({
  ...row,
  submission_timestamp: iso(row.submission_timestamp),
  fields: fromJsonb(row.fields),
  returned_at: isoOrNull(row.returned_at),
  expires_at: iso(row.expires_at),
});

/** The inserted columns but `fields`, which go as one jsonb array (see {@link jsonbArray}), with their types. */
const INSERTED: readonly (readonly [string, string])[] = [
  ['id', 'text'],
  ['account_id', 'text'],
  ['flow_id', 'text'],
  ['flow_name', 'text'],
  ['source_id', 'text'],
  ['source_name', 'text'],
  ['submission_timestamp', 'timestamptz'],
  ['purchase_price', 'float8'],
  ['latest_event_id', 'text'],
  ['returned_at', 'timestamptz'],
  ['expires_at', 'timestamptz'],
];
const NAMES = INSERTED.map(([name]) => name).join(', ');

/**
 * Inserting leads, any number in one statement of one text: each column's values are one array parameter, the
 * fields one jsonb array.
 */
export const insertLeads = (table: string): WriteKind<LeadRecord, undefined> => ({
  what: 'insert lead',
  plan: (leads) => ({
    statements: [
      {
        text: `INSERT INTO ${table} (${NAMES}, fields)
         SELECT ${NAMES}, $${INSERTED.length + 1}::jsonb -> (n - 1)::int
         FROM ${unnestOf(INSERTED.map(([, type]) => type))} WITH ORDINALITY AS t (${NAMES}, n)`,
        prepared: true,
        values: [
          ...columnsOf(leads, INSERTED.length, (l) => [
            l.id,
            l.account_id,
            l.flow_id,
            l.flow_name,
            l.source_id,
            l.source_name,
            l.submission_timestamp,
            l.purchase_price,
            l.latest_event_id,
            l.returned_at,
            l.expires_at,
          ]),
          jsonbArray(leads.map((l) => toJsonb(l.fields))),
        ],
      },
    ],
    answers: () => leads.map(() => undefined),
  }),
});

/**
 * Leads with their fields as jsonb, partitioned by the UTC week of the lead ID
 * (migration 17): a lookup by ID reads one partition, and retention drops whole weeks.
 * Inserts go through `writer`, which may send several callers' leads in one statement.
 */
export function leadStore(db: Queryable, schema: string, writer: Writer = directWriter(db)): LeadStore {
  const table = qualified(schema, 'leads');
  const insert = insertLeads(table);
  return {
    insert: (l) => writer.write(insert, l),
    get: (id) =>
      query<LeadRow>(db, 'get lead', `SELECT ${COLUMNS} FROM ${table} WHERE id = $1`, [id]).map(({ rows: [row] }) =>
        row ? toLead(row) : undefined,
      ),
    setLatestEvent: (id, eventId) =>
      query(db, 'set latest lead event', `UPDATE ${table} SET latest_event_id = $2 WHERE id = $1`, [id, eventId]).map(
        () => undefined,
      ),
    // One conditional UPDATE: concurrent callers queue on the row lock and re-check
    // `returned_at IS NULL` against the committed row, so exactly one matches.
    markReturned: (id, at) =>
      query(db, 'mark lead returned', `UPDATE ${table} SET returned_at = $2 WHERE id = $1 AND returned_at IS NULL`, [
        id,
        at,
      ]).map(({ rowCount }) => rowCount > 0),
    // Drops whole expired week partitions and makes the coming weeks' (see purgePartitioned).
    purgeExpired: (before) => purgePartitioned(db, schema, 'leads', before),
  };
}
