import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { quoteIdent } from './sql';
import { databaseAvailable, freshSchema, type TestSchema } from './test-support';

const available = await databaseAvailable('schema-keys.test.ts');

/**
 * The unique indexes (primary keys included) whose first column is not `account_id`, each
 * with why. Every other table's keys begin with `account_id`, so it can be distributed by
 * account on Citus with its keys intact (a distributed table's unique indexes must contain
 * the distribution column); docs/scaling.md gives each table's distribution key and each
 * query's routing. A new table or key fails this test until it begins with account_id or
 * is named here with its reason.
 */
const NOT_KEYED_BY_ACCOUNT: Readonly<Record<string, string>> = {
  // The account's own ID: distributed by `id`, which is the account ID (co-located with every account_id table).
  accounts_pkey: 'accounts.id is the account ID itself',
  // Authentication finds the key's account from the key: the account is not known yet.
  api_keys_pkey: 'an API key is looked up by its hash before its account is known (a reference table)',
  // Standard and connected entities are used by other accounts' flows and aliases, and looked up by ID alone.
  entities_pkey: 'entities are shared between accounts (a reference table)',
  // Intake (submit and ping) carries no API key: the flow is found by the ID in the URL, then gives the account.
  flows_pkey: 'key-less intake finds a flow by its ID alone (small, read on every lead: a reference table)',
  // Small configuration looked up by its own ID, the account checked on the row found.
  entity_aliases_pkey: 'looked up by alias ID, read on every lead (small: a reference table)',
  credentials_pkey: 'looked up by credential ID, read on deliveries (small: a reference table)',
  // Grows with use: to distribute, key it (account_id, id) as events and leads are.
  exports_pkey: 'looked up by export ID, the account checked on the row (to distribute: key (account_id, id))',
  // A consent certificate is a vendor's, claimed by many accounts, and pinged with no API key.
  certificates_pkey: 'certificates belong to no one account (claimed by many) and are found by ID without a key',
  certificates_ping_token: 'the certificate ping URL carries only the token',
  // The alert key is `type:account:entity`: it holds the account, but not first; timelines are numbered globally.
  alerts_pkey:
    'the key `type:account:entity` carries the account after the type (to distribute: key (account_id, key))',
  alert_activity_pkey: 'a global identity sequence (to distribute: key (account_id, seq))',
  alert_settings_pkey: 'settings are scoped service-wide or per account (`scope`): a reference table',
  // Cap and ping-limit counters are keyed by flow scope text (`cap:<scope>:<cap>:<window>`).
  counters_pkey: 'counter keys name a flow scope, not an account (to distribute: prefix the key with the account)',
  // Service machinery, not account data: each instance's background work and the schema's history.
  spool_pkey: 'firehose spool entries are keyed by target and delivery key (service-wide work queue)',
  jobs_pkey: 'background jobs are keyed by kind and ID (service-wide work queue)',
  leases_pkey: 'named leases of background passes (service-wide)',
  leadroute_migrations_pkey: 'the schema history',
};

describe.skipIf(!available)('schema keys', () => {
  let db: TestSchema;
  beforeAll(async () => {
    db = await freshSchema();
  });
  afterAll(async () => {
    await db?.drop();
  });

  it("begin every table's primary key and unique indexes with account_id, but for the named exceptions", async () => {
    // Unique indexes of tables and partitioned tables, not of their partitions (which inherit the parent's).
    const { rows } = await db.pool.query<{ index: string; table: string; first: string; columns: string[] }>(
      `SELECT i.relname AS index, t.relname AS table,
              (SELECT a.attname FROM pg_attribute a WHERE a.attrelid = t.oid AND a.attnum = x.indkey[0]) AS first,
              ARRAY(SELECT a.attname FROM unnest(x.indkey::int2[]) WITH ORDINALITY AS k (attnum, n)
                      JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum ORDER BY k.n)::text[] AS columns
         FROM pg_index x
         JOIN pg_class i ON i.oid = x.indexrelid
         JOIN pg_class t ON t.oid = x.indrelid
        WHERE t.relnamespace = $1::regnamespace AND x.indisunique AND t.relkind IN ('r', 'p') AND NOT t.relispartition
        ORDER BY i.relname`,
      [quoteIdent(db.schema)],
    );
    expect(rows.length).toBeGreaterThan(20);
    const offenders = rows.filter((row) => row.first !== 'account_id').map((row) => row.index);
    expect(offenders.filter((index) => !(index in NOT_KEYED_BY_ACCOUNT))).toEqual([]);
    // An exception whose index has gone (or now begins with account_id) is taken off the list.
    expect(Object.keys(NOT_KEYED_BY_ACCOUNT).filter((index) => !offenders.includes(index))).toEqual([]);
    // Every table has a primary key, and the partitioned ones keep (account_id, id).
    const keyed = await db.pool.query<{ table: string }>(
      `SELECT t.relname AS table FROM pg_class t
        WHERE t.relnamespace = $1::regnamespace AND t.relkind IN ('r', 'p') AND NOT t.relispartition
          AND NOT EXISTS (SELECT 1 FROM pg_index x WHERE x.indrelid = t.oid AND x.indisprimary)`,
      [quoteIdent(db.schema)],
    );
    expect(keyed.rows).toEqual([]);
    const columns = Object.fromEntries(rows.map((row) => [row.index, row.columns]));
    expect(columns.events_pkey).toEqual(['account_id', 'id']);
    expect(columns.leads_pkey).toEqual(['account_id', 'id']);
  });
});
