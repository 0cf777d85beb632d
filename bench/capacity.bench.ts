import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import type pg from 'pg';
import type { Bench, BenchRow } from './harness';
import { postgresLeadsPerSecond } from './intake.bench';

// Where one PostgreSQL tops out for intake (docs/scaling.md): the intake bench's flow
// on PostgreSQL at 10 and 40 leads in flight, with the CPU each lead costs the service
// process and the database backends serving its pool. A lead's database CPU sets how
// many leads/s one server's cores can take; the service's CPU is spread over instances.

const TICK_MS = 10; // /proc/<pid>/stat counts CPU in clock ticks of 1/100 s (USER_HZ).

/** CPU ms the process `pid` has used, user and system. */
function cpuOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces), from the state field on: utime is the 12th, stime the 13th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}

const appCpu = (): number => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
};

const row = (name: string, unit: BenchRow['unit'], value: number): BenchRow => ({
  name,
  unit,
  value,
  measuredAt: new Date().toISOString(),
});

const bench: Bench = async () => {
  const rows: BenchRow[] = [];
  let first = 0;
  for (const concurrency of [10, 40]) {
    let backends: number[] = [];
    let appStart = 0;
    let dbStart = 0;
    let appMs = 0;
    let dbMs = 0;
    let eventsPerLead = 0;
    let leads = 0;
    let walStart = '0/0';
    let walPerLead = 0;
    let bytesPerLead = 0;
    const onMeasured = async (phase: 'start' | 'end', pool: pg.Pool, schema: string, done: number) => {
      if (phase === 'start') {
        // Every connection of the pool, held at once so each answers with its own backend.
        const clients = await Promise.all(Array.from({ length: pool.options.max ?? 10 }, () => pool.connect()));
        backends = await Promise.all(
          clients.map(
            async (c) => (await c.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]?.pid ?? 0,
          ),
        );
        for (const c of clients) c.release();
        dbStart = backends.reduce((sum, pid) => sum + cpuOf(pid), 0);
        walStart =
          (await pool.query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn')).rows[0]?.lsn ?? '0/0';
        appStart = appCpu();
        return;
      }
      appMs = appCpu() - appStart;
      dbMs = backends.reduce((sum, pid) => sum + cpuOf(pid), 0) - dbStart;
      leads = done;
      // WAL is the server's: other work on a shared server counts too, so this is an upper bound.
      const wal = await pool.query<{ bytes: string }>(
        'SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), $1)::bigint AS bytes',
        [walStart],
      );
      walPerLead = Number(wal.rows[0]?.bytes ?? 0) / done;
      const { rows: counts } = await pool.query<{ events: number; leads: number; bytes: string }>(
        `SELECT (SELECT count(*) FROM "${schema}".events)::int AS events, (SELECT count(*) FROM "${schema}".leads)::int AS leads,
                (SELECT sum(pg_total_relation_size(c.oid)) FROM pg_class c
                  WHERE c.relnamespace = '"${schema}"'::regnamespace AND c.relkind = 'r')::bigint AS bytes`,
      );
      const stored = Math.max(1, counts[0]?.leads ?? 1);
      eventsPerLead = (counts[0]?.events ?? 0) / stored;
      bytesPerLead = Number(counts[0]?.bytes ?? 0) / stored;
    };
    const perSecond = await postgresLeadsPerSecond(first, { concurrency, ms: 8000, onMeasured });
    first += 1_000_000;
    if (perSecond === undefined) return rows;
    const app = appMs / leads;
    const db = dbMs / leads;
    console.log(
      `${concurrency} in flight: ${perSecond.toFixed(0)} leads/s; CPU per lead: service ${app.toFixed(2)} ms, ` +
        `database backends ${db.toFixed(2)} ms; ${eventsPerLead.toFixed(1)} events per lead; ` +
        `${(bytesPerLead / 1024).toFixed(1)} KiB stored and at most ${(walPerLead / 1024).toFixed(1)} KiB of WAL per lead ` +
        `(${((perSecond * eventsPerLead * 86_400) / 1e6).toFixed(1)} M events/day at this rate)`,
    );
    rows.push(
      row(
        `capacity: intake leads/s on PostgreSQL, ${concurrency} in flight (${cpus().length} cores shared)`,
        'ops/s',
        perSecond,
      ),
      row(`capacity: service CPU per lead, ${concurrency} in flight`, 'ms', app),
      row(`capacity: database backend CPU per lead, ${concurrency} in flight`, 'ms', db),
    );
    if (concurrency === 40) {
      console.log(
        `a database server's cores at 80% busy on intake alone would take about ${((0.8 * 1000) / db).toFixed(0)} leads/s per core ` +
          `(${((8 * 0.8 * 1000) / db).toFixed(0)} on 8 cores, ${((32 * 0.8 * 1000) / db).toFixed(0)} on 32), before WAL and I/O limits`,
      );
    }
  }
  return rows;
};

export default bench;
