import { errors, type FlowRecord, type FlowStore, type StoreError } from '@leadroute/core';
import { errAsync, okAsync } from 'neverthrow';
import { type Queryable, query } from '../query';
import { fromJsonb, qualified, toJsonb } from '../sql';

interface FlowRow {
  body: FlowRecord | string;
}

/**
 * Flow configurations as one jsonb document each. `version` is also a column, so an
 * update is a single `UPDATE ... WHERE version = expected`: of two concurrent
 * updates from the same version, the row lock lets exactly one match.
 */
export function flowStore(db: Queryable, schema: string): FlowStore {
  const table = qualified(schema, 'flows');
  return {
    insert: (flow) =>
      query(db, 'insert flow', `INSERT INTO ${table} (id, account_id, version, body) VALUES ($1, $2, $3, $4::jsonb)`, [
        flow.id,
        flow.account_id,
        flow.version,
        toJsonb(flow),
      ]).map(() => undefined),
    get: (id) => query<FlowRow>(db, 'get flow', `SELECT body FROM ${table} WHERE id = $1`, [id]).map(({ rows: [row] }) => (row ? fromJsonb(row.body) : undefined)),
    // IDs grow with creation time, so ID order is oldest first.
    listByAccount: (accountId) =>
      query<FlowRow>(db, 'list flows', `SELECT body FROM ${table} WHERE account_id = $1 ORDER BY id`, [accountId]).map(({ rows }) =>
        rows.map((row) => fromJsonb(row.body)),
      ),
    update: (flow, expectedVersion) =>
      query(db, 'update flow', `UPDATE ${table} SET account_id = $2, version = $3, body = $4::jsonb WHERE id = $1 AND version = $5`, [
        flow.id,
        flow.account_id,
        flow.version,
        toJsonb(flow),
        expectedVersion,
      ]).andThen(({ rowCount }) =>
        rowCount > 0
          ? okAsync(undefined)
          : errAsync(errors.conflict(`[leadroute] [postgres] update flow: flow ${flow.id} is not at version ${expectedVersion}.`) as StoreError),
      ),
  };
}
