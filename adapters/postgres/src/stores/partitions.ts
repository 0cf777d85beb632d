import type { StoreError } from '@leadroute/core';
import { okAsync, type ResultAsync } from 'neverthrow';
import { type Queryable, query } from '../query';
import { qualified, quoteIdent } from '../sql';

const DAY_MS = 86_400_000;

/** The span of one partition: a UTC week, Monday to Sunday (see migration 17 for why not a day). */
export const PARTITION_DAYS = 7;

/** Each purge makes the partitions of today and of the next 7 days (this week's and next week's). */
export const PARTITION_DAYS_AHEAD = 7;

/**
 * How long after expiring a row may stay in a partition that is not wholly expired yet.
 * A week partition's rows expire within one week of each other (their IDs were made within
 * that week and retention is a fixed span), so the partition is dropped within a week of
 * its first row expiring; rows more than this far past their expiry (an event whose
 * expiry does not follow its ID's week) are deleted one by one. A day more than the
 * partition's span, so that the one-by-one delete never reaches a partition's own rows
 * before the partition's drop does (a lead's last events come seconds after its ID).
 */
export const PURGE_GRACE_MS = (PARTITION_DAYS + 1) * DAY_MS;

/** `YYYY-MM-DD` of the UTC day holding `ms`. */
const utcDay = (ms: number): string => new Date(Math.floor(ms / DAY_MS) * DAY_MS).toISOString().slice(0, 10);

/** The UTC day (ms) a partition named `<table>_pYYYYMMDD` starts on, or undefined for another name. */
export function partitionDay(table: string, name: string): number | undefined {
  const match = new RegExp(`^${table}_p(\\d{4})(\\d{2})(\\d{2})$`).exec(name);
  if (!match) return undefined;
  return Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
}

/**
 * Creates the partitions of `table` holding the UTC days from that of `nowMs` through
 * `daysAhead` days later, where missing (one statement; concurrent callers create each
 * once), and answers how many it created. Rows of those weeks already in the default
 * partition move into their new partition.
 */
export function ensurePartitions(
  db: Queryable,
  schema: string,
  table: string,
  nowMs: number,
  daysAhead = PARTITION_DAYS_AHEAD,
): ResultAsync<number, StoreError> {
  return query<{ created: number }>(
    db,
    `create ${table} partitions`,
    `SELECT count(*) FILTER (WHERE ${quoteIdent(schema)}.leadroute_ensure_week_partition($1::regclass, $2::date + n))::int AS created
       FROM generate_series(0, $3::int) AS n`,
    [qualified(schema, table), utcDay(nowMs), daysAhead],
  ).map(({ rows: [row] }) => row?.created ?? 0);
}

/**
 * The retention purge of a table partitioned by the week of its ID (events, leads):
 * 1. makes the partitions of the coming days ({@link ensurePartitions}), so intake
 *    never writes into the default partition;
 * 2. detaches every partition that ended before `before` and whose rows all expired
 *    before it (checked under a lock by `leadroute_detach_expired_partition`; a partition
 *    it cannot lock within 2 s is left for the next purge), then drops it: no DELETE, no
 *    dead rows, and the parent locked only for the detach, not while the files are freed.
 *    A table a purge detached but did not drop (it stopped in between) goes at the next;
 * 3. deletes one by one only the rows of the default partition that expired, and rows
 *    elsewhere more than {@link PURGE_GRACE_MS} past their expiry.
 * Rows that expired less than the grace ago in a partition not wholly expired stay until
 * that partition is dropped, within a week; every read filters on expires_at, so none of
 * them is ever returned. Answers the number of rows removed (for a dropped partition, the
 * count its last VACUUM or ANALYZE recorded: an estimate).
 */
export function purgePartitioned(
  db: Queryable,
  schema: string,
  table: string,
  before: string,
): ResultAsync<number, StoreError> {
  const beforeMs = Date.parse(before);
  const parent = qualified(schema, table);
  const s = quoteIdent(schema);
  return ensurePartitions(db, schema, table, beforeMs)
    .andThen(() =>
      // The partitions, and tables named like one but not attached: detached by a purge that stopped before its drop.
      query<{ relname: string; attached: boolean }>(
        db,
        `list ${table} partitions`,
        `SELECT c.relname, c.relispartition AS attached FROM pg_class c
          WHERE c.relnamespace = $1::regnamespace AND c.relkind = 'r' AND c.relname ~ $2
            AND (NOT c.relispartition
                 OR EXISTS (SELECT 1 FROM pg_inherits i WHERE i.inhrelid = c.oid AND i.inhparent = $3::regclass))
          ORDER BY c.relname`,
        [s, `^${table}_p[0-9]{8}$`, parent],
      ),
    )
    .andThen(({ rows }) => {
      const orphans = rows.filter((row) => !row.attached).map((row) => qualified(schema, row.relname));
      // Candidates: partitions that ended by `before`; each is checked in dropEach.
      const ended = rows.filter((row) => {
        const day = partitionDay(table, row.relname);
        return row.attached && day !== undefined && day + PARTITION_DAYS * DAY_MS <= beforeMs;
      });
      return dropOrphans(db, orphans).andThen((orphaned) =>
        dropEach(
          db,
          s,
          ended.map((row) => qualified(schema, row.relname)),
          before,
        ).map((dropped) => dropped + orphaned),
      );
    })
    .andThen((dropped) =>
      query(
        db,
        `purge expired ${table}`,
        `DELETE FROM ${parent} WHERE expires_at < $1::timestamptz - make_interval(secs => $2::float8 / 1000)`,
        [before, PURGE_GRACE_MS],
      ).map(({ rowCount }) => dropped + rowCount),
    )
    .andThen((removed) =>
      query(
        db,
        `purge expired ${table} (default partition)`,
        `DELETE FROM ${qualified(schema, `${table}_default`)} WHERE expires_at < $1`,
        [before],
      ).map(({ rowCount }) => removed + rowCount),
    );
}

/** Drops tables a purge detached (all their rows had expired) but did not drop; answers their rows. */
function dropOrphans(db: Queryable, names: readonly string[]): ResultAsync<number, StoreError> {
  let total: ResultAsync<number, StoreError> = okAsync(0);
  for (const name of names) {
    total = total.andThen((sum) =>
      // Its rows as its last VACUUM or ANALYZE recorded them, as for any dropped partition (counting would read it
      // all); counted when none has run. COALESCE evaluates the count only when no estimate is recorded.
      query<{ n: number }>(
        db,
        'count detached partition',
        `SELECT coalesce((SELECT reltuples FROM pg_class WHERE oid = $1::regclass AND reltuples >= 0),
                         (SELECT count(*) FROM ${name}))::float8 AS n`,
        [name],
      ).andThen(({ rows: [r] }) =>
        query(db, 'drop detached partition', `DROP TABLE ${name}`).map(() => sum + (r?.n ?? 0)),
      ),
    );
  }
  return total;
}

/**
 * Detaches and drops the expired partitions among those named, oldest first, in statements of their own; answers their
 * rows.
 */
function dropEach(db: Queryable, s: string, names: readonly string[], before: string): ResultAsync<number, StoreError> {
  let total: ResultAsync<number, StoreError> = okAsync(0);
  for (const name of names) {
    total = total.andThen((sum) =>
      // The unlocked look first: a partition with live rows (most of them, most days) is not locked at all.
      query<{ live: boolean }>(
        db,
        'check partition expiry',
        `SELECT EXISTS (SELECT 1 FROM ${name} WHERE expires_at >= $1) AS live`,
        [before],
      ).andThen(({ rows: [row] }) =>
        row?.live
          ? okAsync(sum)
          : query<{ rows: string }>(
              db,
              'detach expired partition',
              `SELECT ${s}.leadroute_detach_expired_partition($1::regclass, $2) AS rows`,
              [name, before],
            ).andThen(({ rows: [r] }) => {
              const rows = Number(r?.rows ?? -1);
              // The detached table is no one's now: freeing its files holds no lock intake waits on.
              return rows < 0
                ? okAsync(sum)
                : query(db, 'drop expired partition', `DROP TABLE ${name}`).map(() => sum + rows);
            }),
      ),
    );
  }
  return total;
}
