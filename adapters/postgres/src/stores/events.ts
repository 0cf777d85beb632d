import { type EventStore, type EventStoreQuery, errors, type StoreError, type StoredEvent } from '@leadroute/core';
import { err, ok, Result } from 'neverthrow';
import { columnsOf, directWriter, unnestOf, type WriteKind, type Writer } from '../batch/writer';
import { type Queryable, query } from '../query';
import { fromJsonb, qualified } from '../sql';
import { purgePartitioned } from './partitions';

interface EventRow {
  id: string;
  /** The record as JSON text (migration 21 on); null in rows written before, which have {@link body}. */
  doc: string | null;
  body: StoredEvent | string | null;
}

/** The columns an event is read from (see {@link EventRow}). */
const RECORD = 'id, doc, CASE WHEN doc IS NULL THEN body END AS body';

/**
 * A row's event. The store writes every row with its record, but since migration 21 the table no longer holds
 * anyone else to that (body became nullable): a row written some other way without one, or with text that is not
 * JSON, is a StorageFailure naming the event, never an event that is not there.
 */
function toEvent(row: EventRow): Result<StoredEvent, StoreError> {
  try {
    const event: unknown = row.doc !== null ? JSON.parse(row.doc) : row.body === null ? null : fromJsonb(row.body);
    if (typeof event === 'object' && event !== null) return ok(event as StoredEvent);
  } catch {
    // Not JSON: answered below as a row without a record.
  }
  return err(
    errors.storageFailure(`[leadroute] [postgres] event ${row.id} has no record that can be read.`) as StoreError,
  );
}

const toEvents = ({ rows }: { rows: EventRow[] }): Result<StoredEvent[], StoreError> =>
  Result.combine(rows.map(toEvent));

/**
 * The `key` column: the recipient's reference without NULs, which a text column
 * cannot hold. The body keeps the exact reference, and {@link eventStore}'s
 * `findByReference` compares against that, so the column is only the index's way in.
 */
const keyColumn = (reference: string): string => reference.replaceAll('\u0000', '');

/** The WHERE clause and parameters of one page of {@link EventStoreQuery}. */
export function eventFilter(q: EventStoreQuery): { where: string; values: unknown[] } {
  const values: unknown[] = [q.account_id, q.live_at];
  const clauses = ['account_id = $1', 'expires_at > $2'];
  const add = (clause: (param: string) => string, value: unknown) => {
    values.push(value);
    clauses.push(clause(`$${values.length}`));
  };
  if (q.after_id !== undefined) add((p) => `id > ${p}`, q.after_id);
  if (q.before_id !== undefined) add((p) => `id < ${p}`, q.before_id);
  if (q.start !== undefined) add((p) => `start_timestamp >= ${p}`, q.start);
  if (q.end !== undefined) add((p) => `start_timestamp < ${p}`, q.end);
  if (q.types !== undefined) add((p) => `type = ANY(${p}::text[])`, [...q.types]);
  if (q.lead_id !== undefined) add((p) => `lead_id = ${p}`, q.lead_id);
  if (q.flow_id !== undefined) add((p) => `flow_id = ${p}`, q.flow_id);
  return { where: clauses.join(' AND '), values };
}

const INSERTED = ['id', 'account_id', 'type', 'start_timestamp', 'lead_id', 'flow_id', 'key', 'expires_at', 'doc'];
/** The types of the columns but the record, whose texts go as one parameter, one line each. */
const TYPES = ['text', 'text', 'text', 'float8', 'text', 'text', 'text', 'timestamptz'];

/**
 * Inserting events, any number in one statement of one text: each column's values are one array parameter, the
 * records one text parameter, a line each, split by the server into the `doc` column. JSON text, not jsonb: jsonb
 * would parse every record into its binary form, a third of the server's work on a batch of leads' records (#22.3),
 * for a record that is only ever read whole. And text holds what jsonb refuses (a NUL, a lone surrogate: JSON text
 * escapes both), so the record needs no wrapping either.
 */
export const insertEvents = (table: string): WriteKind<StoredEvent, undefined> => ({
  what: 'insert event',
  plan: (events) => ({
    statements: [
      {
        text: `INSERT INTO ${table} (${INSERTED.join(', ')})
         SELECT ${INSERTED.join(', ')}
         FROM ${unnestOf(TYPES, 1, [`string_to_array($${TYPES.length + 1}::text, E'\\n')`])} AS t (${INSERTED.join(', ')})`,
        prepared: true,
        values: [
          ...columnsOf(events, TYPES.length, (e) => [
            e.id,
            e.account_id,
            e.type,
            e.start_timestamp,
            e.lead_id,
            e.flow_id,
            e.key ? keyColumn(e.key) : null,
            e.expires_at,
          ]),
          // JSON.stringify writes no line break (one inside a string comes out as the escape \n): a line is a record.
          events.map((e) => JSON.stringify(e)).join('\n'),
        ],
      },
    ],
    answers: () => events.map(() => undefined),
  }),
});

/**
 * Event records: the whole record is JSON text in `doc` (a jsonb `body` in rows written before migration 21), and
 * the columns beside it are what the events API pages and filters on (`(account_id, id)`, the key, and
 * `(account_id, lead_id, id)`), what an event is found by alone (`id`), what feedback
 * looks a delivery up by (`key`) and what the retention purge checks (`expires_at`).
 * The table is partitioned by the UTC week of the event ID (migration 17): a lookup by
 * ID reads one partition, and retention drops whole weeks. Inserts go through `writer`,
 * which may send several callers' events in one statement.
 */
export function eventStore(db: Queryable, schema: string, writer: Writer = directWriter(db)): EventStore {
  const table = qualified(schema, 'events');
  const insert = insertEvents(table);
  return {
    insert: (e) => writer.write(insert, e),
    get: (id) =>
      query<EventRow>(db, 'get event', `SELECT ${RECORD} FROM ${table} WHERE id = $1`, [id]).andThen(
        ({ rows: [row] }): Result<StoredEvent | undefined, StoreError> => (row ? toEvent(row) : ok(undefined)),
      ),
    query: (q) => {
      const { where, values } = eventFilter(q);
      values.push(Math.max(0, Math.floor(q.limit)));
      return query<EventRow>(
        db,
        'query events',
        `SELECT ${RECORD} FROM ${table} WHERE ${where} ORDER BY id ${q.sort === 'asc' ? 'ASC' : 'DESC'} LIMIT $${values.length}`,
        values,
      ).andThen(toEvents);
    },
    // The key index narrows to the few deliveries the recipient answered with this reference; the recipient is checked
    // on the record.
    findByReference: (q) =>
      query<EventRow>(
        db,
        'find events by reference',
        `SELECT ${RECORD} FROM ${table} WHERE key = $1 AND expires_at > $2`,
        [keyColumn(q.reference), q.live_at],
      )
        .andThen(toEvents)
        .map((events) =>
          events.filter(
            (event) =>
              event.key === q.reference && (q.recipient_id === undefined || event.recipient_id === q.recipient_id),
          ),
        ),
    // Drops whole expired week partitions and makes the coming weeks' (see purgePartitioned).
    purgeExpired: (before) => purgePartitioned(db, schema, 'events', before),
  };
}
