import { errors, type FlowRecord, type FlowStore, type StoreError } from '@leadroute/core';
import { errAsync, okAsync } from 'neverthrow';
import { directReader, type ReadKind, type Reader } from '../batch/reads';
import { type Queryable, query } from '../query';
import { fromJsonb, fromJsonbText, qualified, toJsonb } from '../sql';

interface FlowRow {
  body: FlowRecord | string;
}

/** A flow looked up by ID: the body as text, so callers asking one flow together each parse a copy of their own. */
interface KeyedFlowRow {
  id: string;
  body: string;
}

/**
 * Flow configurations as one jsonb document each. `version` is also a column, so an
 * update is a single `UPDATE ... WHERE version = expected`: of two concurrent
 * updates from the same version, the row lock lets exactly one match. Flows are read
 * through `reader`, which may look several up in one statement.
 */
export function flowStore(db: Queryable, schema: string, reader: Reader = directReader(db)): FlowStore {
  const table = qualified(schema, 'flows');
  const byId: ReadKind<KeyedFlowRow> = {
    what: 'get flow',
    statement: (ids) => ({
      text: `SELECT id, body::text AS body FROM ${table} WHERE id = ANY($1::text[])`,
      values: [ids],
    }),
    id: (row) => row.id,
  };
  return {
    insert: (flow) =>
      query(db, 'insert flow', `INSERT INTO ${table} (id, account_id, version, body) VALUES ($1, $2, $3, $4::jsonb)`, [
        flow.id,
        flow.account_id,
        flow.version,
        toJsonb(flow),
      ]).map(() => undefined),
    get: (id) => reader.get(byId, id).map((row) => (row ? fromJsonbText<FlowRecord>(row.body) : undefined)),
    // IDs grow with creation time, so ID order is oldest first.
    listByAccount: (accountId) =>
      query<FlowRow>(db, 'list flows', `SELECT body FROM ${table} WHERE account_id = $1 ORDER BY id`, [accountId]).map(
        ({ rows }) => rows.map((row) => fromJsonb(row.body)),
      ),
    update: (flow, expectedVersion) =>
      query(
        db,
        'update flow',
        `UPDATE ${table} SET account_id = $2, version = $3, body = $4::jsonb WHERE id = $1 AND version = $5`,
        [flow.id, flow.account_id, flow.version, toJsonb(flow), expectedVersion],
      ).andThen(({ rowCount }) =>
        rowCount > 0
          ? okAsync(undefined)
          : errAsync(
              errors.conflict(
                `[leadroute] [postgres] update flow: flow ${flow.id} is not at version ${expectedVersion}.`,
              ) as StoreError,
            ),
      ),
  };
}
