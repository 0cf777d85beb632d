import type { AlertStore, StoredActivity, StoredAlert } from '@leadroute/core';
import { okAsync } from 'neverthrow';
import { directWriter, valuesList, type WriteKind, type Writer } from '../batch/writer';
import { type Queryable, query } from '../query';
import { asStored, fromJsonb, qualified, toJsonb } from '../sql';

interface Sighting {
  readonly accountId: string;
  readonly sourceId: string;
  readonly at: string;
}

/**
 * Marking sources seen: one `INSERT ... ON CONFLICT DO NOTHING RETURNING` of each
 * distinct pair's first sighting in the batch; a pair RETURNING names is the one
 * insert that landed, and its first sighting the one that made it. Later sightings of
 * the pair in the batch answer false, as they would have one after the other.
 */
const markSourcesSeen = (table: string): WriteKind<Sighting, boolean> => ({
  what: 'mark source seen',
  plan: (sightings) => {
    const key = (accountId: string, sourceId: string) => JSON.stringify([asStored(accountId), asStored(sourceId)]);
    const first = new Map<string, number>();
    sightings.forEach((s, index) => {
      const k = key(s.accountId, s.sourceId);
      if (!first.has(k)) first.set(k, index);
    });
    const firsts = [...first.values()].map((index) => sightings[index] as Sighting);
    return {
      statements: [
        {
          text: `INSERT INTO ${table} (account_id, source_id, seen_at) VALUES ${valuesList(firsts.length, ['', '', ''])}
         ON CONFLICT DO NOTHING RETURNING account_id, source_id`,
          values: firsts.flatMap((s) => [s.accountId, s.sourceId, s.at]),
        },
      ],
      answers: (results) => {
        const landed = new Set(
          (results[0]?.rows ?? []).map((row: { account_id: string; source_id: string }) =>
            key(row.account_id, row.source_id),
          ),
        );
        return sightings.map((s, index) => {
          const k = key(s.accountId, s.sourceId);
          return first.get(k) === index && landed.has(k);
        });
      },
    };
  },
});

/** How many seen (account, source) pairs a process remembers before it starts over. */
const KNOWN_PAIRS = 100_000;

/**
 * Alerts, their timelines, settings overrides, seen sources and detector leases.
 * Every write that must be atomic is one statement: `markSourceSeen` an
 * `INSERT ... ON CONFLICT DO NOTHING` (true for the one insert that lands; through
 * `writer`, which may send several callers' sightings in one statement; a pair the
 * process has seen stored is answered false without a statement, as every lead from
 * a known source would otherwise cost a write), and
 * `tryLease` an upsert whose update only happens when the lease is free, expired or
 * the caller's own (the row lock makes concurrent callers re-check in turn).
 */
export function alertStore(db: Queryable, schema: string, writer: Writer = directWriter(db)): AlertStore {
  const alerts = qualified(schema, 'alerts');
  const activity = qualified(schema, 'alert_activity');
  const settings = qualified(schema, 'alert_settings');
  const seen = qualified(schema, 'alert_seen_sources');
  const leases = qualified(schema, 'leases');
  const markSeen = markSourcesSeen(seen);
  /** Pairs this process knows are stored as seen. */
  const known = new Set<string>();
  return {
    put: (alert) =>
      query(
        db,
        'put alert',
        `INSERT INTO ${alerts} (key, account_id, status, alert) VALUES ($1, $2, $3, $4::jsonb)
         ON CONFLICT (key) DO UPDATE SET account_id = EXCLUDED.account_id, status = EXCLUDED.status, alert = EXCLUDED.alert`,
        [alert.key, alert.account_id, alert.status, toJsonb(alert)],
      ).map(() => undefined),
    get: (key) =>
      query<{ alert: StoredAlert | string }>(db, 'get alert', `SELECT alert FROM ${alerts} WHERE key = $1`, [key]).map(
        ({ rows: [row] }) => (row ? fromJsonb(row.alert) : undefined),
      ),
    listActive: (accountId) =>
      query<{ alert: StoredAlert | string }>(
        db,
        'list active alerts',
        `SELECT alert FROM ${alerts} WHERE account_id = $1 AND status = 'active' ORDER BY key`,
        [accountId],
      ).map(({ rows }) => rows.map((row) => fromJsonb(row.alert))),
    accountsWithActive: () =>
      query<{ account_id: string }>(
        db,
        'list accounts with active alerts',
        `SELECT DISTINCT account_id FROM ${alerts} WHERE status = 'active' ORDER BY account_id`,
      ).map(({ rows }) => rows.map((row) => row.account_id)),
    addActivity: (e) =>
      query(
        db,
        'add alert activity',
        `INSERT INTO ${activity} (id, account_id, key, at, kind, visibility, entry) VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb)`,
        [e.id, e.account_id, e.key, e.at, e.kind, e.visibility, toJsonb(e)],
      ).map(() => undefined),
    activity: (q) => {
      const values: unknown[] = [q.key, q.account_id];
      const where = ['key = $1', 'account_id = $2'];
      const param = (value: unknown): string => (values.push(value), `$${values.length}`);
      if (q.kind !== undefined) where.push(`kind = ${param(q.kind)}`);
      if (q.customerOnly) where.push(`visibility = 'customer'`);
      if (q.before) {
        const at = param(q.before.at);
        // Strictly older: an earlier time, or the same time and a smaller ID when the cursor names one.
        where.push(
          q.before.id === undefined ? `at < ${at}` : `(at < ${at} OR (at = ${at} AND id < ${param(q.before.id)}))`,
        );
      }
      return query<{ entry: StoredActivity | string }>(
        db,
        'page alert activity',
        `SELECT entry FROM ${activity} WHERE ${where.join(' AND ')} ORDER BY at DESC, id DESC LIMIT ${param(Math.max(0, Math.floor(q.limit)))}`,
        values,
      ).map(({ rows }) => rows.map((row) => fromJsonb(row.entry)));
    },
    getSettings: (scope) =>
      query<{ overrides: Record<string, unknown> | string }>(
        db,
        'get alert settings',
        `SELECT overrides FROM ${settings} WHERE scope = $1`,
        [scope],
      ).map(({ rows: [row] }) => (row ? fromJsonb(row.overrides) : undefined)),
    setSettings: (scope, overrides) =>
      query(
        db,
        'set alert settings',
        `INSERT INTO ${settings} (scope, overrides) VALUES ($1, $2::jsonb) ON CONFLICT (scope) DO UPDATE SET overrides = EXCLUDED.overrides`,
        [scope, toJsonb(overrides)],
      ).map(() => undefined),
    markSourceSeen: (accountId, sourceId, at) => {
      // A pair once stored stays (nothing deletes a sighting): a later sighting is not new, without asking.
      const pair = JSON.stringify([asStored(accountId), asStored(sourceId)]);
      if (known.has(pair)) return okAsync(false);
      return writer.write(markSeen, { accountId, sourceId, at }).map((isNew) => {
        if (known.size >= KNOWN_PAIRS) known.clear();
        known.add(pair);
        return isNew;
      });
    },
    tryLease: (name, owner, now, until) =>
      query(
        db,
        'take lease',
        `INSERT INTO ${leases} AS l (name, owner, until) VALUES ($1, $2, $4)
         ON CONFLICT (name) DO UPDATE SET owner = EXCLUDED.owner, until = EXCLUDED.until
         WHERE l.owner = EXCLUDED.owner OR l.until <= $3`,
        [name, owner, now, until],
      ).map(({ rowCount }) => rowCount > 0),
    releaseLease: (name, owner) =>
      query(db, 'release lease', `DELETE FROM ${leases} WHERE name = $1 AND owner = $2`, [name, owner]).map(
        () => undefined,
      ),
  };
}
