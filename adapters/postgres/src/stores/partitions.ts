import type { StoreError } from '@leadroute/core';
import { okAsync, type ResultAsync } from 'neverthrow';
import { type Queryable, query } from '../query';
import { qualified, quoteIdent } from '../sql';

const DAY_MS = 86_400_000;

/** Day partitions made ahead of the clock by each purge: today and the next 7 days. */
export const PARTITION_DAYS_AHEAD = 7;

/**
 * How long after expiring a row may stay in a partition that is not wholly expired yet.
 * A day partition's rows expire within one day of each other (their IDs were made within
 * one day and retention is a fixed span), so the partition is dropped within a day of its
 * first row expiring; rows more than this far past their expiry (an event whose expiry
 * does not follow its ID's day, or a row in the default partition) are deleted one by
 * one. Two days, not one, so that the one-by-one delete never reaches a day partition's
 * own rows before the partition's drop does (a lead's last events come seconds after its
 * ID was made).
 */
export const PURGE_GRACE_MS = 2 * DAY_MS;

/** `YYYY-MM-DD` of the UTC day holding `ms`. */
const utcDay = (ms: number): string => new Date(Math.floor(ms / DAY_MS) * DAY_MS).toISOString().slice(0, 10);

/** The UTC day start (ms) a partition named `<table>_pYYYYMMDD` holds, or undefined for another name. */
export function partitionDay(table: string, name: string): number | undefined {
  const match = new RegExp(`^${table}_p(\\d{4})(\\d{2})(\\d{2})$`).exec(name);
  if (!match) return undefined;
  return Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
}

/**
 * Creates `table`'s day partitions from the UTC day of `nowMs` through `daysAhead` days
 * later, where missing (one statement; concurrent callers create each once). Rows of
 * those days already in the default partition move into their new partition.
 */
export function ensureDayPartitions(
  db: Queryable,
  schema: string,
  table: string,
  nowMs: number,
  daysAhead = PARTITION_DAYS_AHEAD,
): ResultAsync<number, StoreError> {
  return query<{ created: number }>(
    db,
    `create ${table} partitions`,
    `SELECT count(*) FILTER (WHERE ${quoteIdent(schema)}.leadroute_ensure_day_partition($1::regclass, $2::date + n))::int AS created
       FROM generate_series(0, $3::int) AS n`,
    [qualified(schema, table), utcDay(nowMs), daysAhead],
  ).map(({ rows: [row] }) => row?.created ?? 0);
}

/**
 * The retention purge of a table partitioned by the day of its ID (events, leads):
 * 1. makes the partitions of the coming days ({@link ensureDayPartitions}), so intake
 *    never writes into the default partition;
 * 2. drops every day partition that ended before `before` and whose rows all expired
 *    before it (checked under a lock by `leadroute_drop_expired_partition`; a partition
 *    it cannot lock within 2 s is left for the next purge): no DELETE, no dead rows;
 * 3. deletes one by one only the rows of the default partition that expired, and rows
 *    elsewhere more than {@link PURGE_GRACE_MS} past their expiry.
 * Rows that expired less than the grace ago in a partition not wholly expired stay until
 * that partition is dropped, within a day; every read filters on expires_at, so none of
 * them is ever returned. Answers the number of rows removed.
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
  return ensureDayPartitions(db, schema, table, beforeMs)
    .andThen(() =>
      // Candidates: day partitions that ended by `before` and look wholly expired (max(expires_at)
      // reads one entry of each partition's expires_at index); the drop checks again under its lock.
      query<{ relname: string }>(
        db,
        `list ${table} partitions`,
        `SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
          WHERE i.inhparent = $1::regclass ORDER BY c.relname`,
        [parent],
      ),
    )
    .andThen(({ rows }) => {
      const ended = rows.filter((row) => {
        const day = partitionDay(table, row.relname);
        return day !== undefined && day + DAY_MS <= beforeMs;
      });
      return dropEach(
        db,
        s,
        ended.map((row) => qualified(schema, row.relname)),
        before,
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

/** Drops the partitions named, one statement (one short lock) each, oldest first; answers the rows dropped. */
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
          : query<{ dropped: string }>(
              db,
              'drop expired partition',
              `SELECT ${s}.leadroute_drop_expired_partition($1::regclass, $2) AS dropped`,
              [name, before],
            ).map(({ rows: [r] }) => sum + Math.max(0, Number(r?.dropped ?? -1))),
      ),
    );
  }
  return total;
}
