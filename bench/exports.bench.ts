import { stringify } from 'csv-stringify';
import { createLeadService } from '../packages/core/src';
import { memoryStorage } from '../adapters/memory/src';
import { countingFileStore, SYNTHETIC_FIELDS, syntheticEvent, syntheticEventStore } from '../test/exports/synthetic';
import type { BenchRow } from './harness';
import { compare } from './harness';

// One export of 1,000,000 events to CSV through the service (paging the event
// store, rule filter, column mapping, legacy dates, csv-stringify, a file store
// that counts bytes and keeps none), against csv-stringify alone writing the same
// rows built by hand from the same generated events. Events are generated page by
// page as the store is asked, so memory measures the export, not the data set.
// Throughput is per second of this process's CPU time (see harness.ts). Target:
// peak memory under 250 MB.

const EVENTS = 1_000_000;
const START = Date.UTC(2026, 2, 2);
const MB = 1024 * 1024;
const PEAK_TARGET_MB = 250;

function cpuMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

/** Runs `fn` while sampling RSS; answers CPU ms, wall ms and the peak RSS in MB. */
async function observe(fn: () => Promise<void>): Promise<{ cpu: number; wall: number; peakMb: number }> {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 10);
  const cpu0 = cpuMs();
  const wall0 = performance.now();
  await fn();
  const wall = performance.now() - wall0;
  const cpu = cpuMs() - cpu0;
  clearInterval(timer);
  peak = Math.max(peak, process.memoryUsage().rss);
  return { cpu, wall, peakMb: peak / MB };
}

async function viaService(): Promise<{ bytes: number; rows: number }> {
  const storage = memoryStorage();
  const sink = countingFileStore();
  const service = createLeadService({ storage, fileStore: sink, exports: { worker: false, rowLimit: 2 * EVENTS } });
  const { api_key } = (await service.accounts.create({ name: 'Bench', time_zone: 'America/New_York' }))._unsafeUnwrap();
  const principal = (await service.accounts.authenticate(api_key))._unsafeUnwrap();
  const events = syntheticEventStore(principal.account.id, EVENTS, START);
  const run = createLeadService({
    storage: { ...storage, events },
    fileStore: sink,
    exports: { worker: false, rowLimit: 2 * EVENTS },
  });
  const exp = (
    await run.exports.create(principal, {
      start: '2026-03-01T00:00:00Z',
      end: '2026-03-31T00:00:00Z',
      fields: SYNTHETIC_FIELDS,
      filter_rules: [{ lhv: 'lead.email', op: 'is not blank' }],
    })
  )._unsafeUnwrap();
  await run.exports.runPending();
  const done = (await run.exports.get(principal, exp.id))._unsafeUnwrap();
  if (done.status !== 'complete') throw new Error(`export ended ${done.status}: ${done.error ?? ''}`);
  return { bytes: [...sink.written.values()][0] ?? 0, rows: done.exported_docs };
}

async function stringifyAlone(): Promise<{ bytes: number; rows: number }> {
  const out = stringify({ eof: true });
  const counted = (async () => {
    let bytes = 0;
    for await (const chunk of out) bytes += (chunk as Buffer).byteLength;
    return bytes;
  })();
  out.write(SYNTHETIC_FIELDS);
  for (let i = 0; i < EVENTS; i++) {
    const e = syntheticEvent('b'.repeat(24), i, START);
    const lead = e.vars.lead as Record<string, string>;
    const row = [
      e.id,
      e.type,
      e.outcome,
      e.reason,
      new Date(e.start_timestamp).toISOString(),
      lead.first_name,
      lead.last_name,
      lead.email,
      lead.phone_1,
      lead.address_1,
      lead.city,
      lead.state,
      lead.postal_code,
      lead.comments,
      lead.dob,
    ];
    if (!out.write(row)) await new Promise((resolve) => out.once('drain', resolve));
  }
  out.end();
  return { bytes: await counted, rows: EVENTS };
}

export default async function bench(): Promise<BenchRow[]> {
  const exported = await observe(async () => {
    const { rows, bytes } = await viaService();
    console.log(`export: ${rows.toLocaleString('en-US')} rows, ${(bytes / MB).toFixed(0)} MB of CSV`);
  });
  const alone = await observe(async () => {
    await stringifyAlone();
  });
  const perCpuSecond = (cpuMsSpent: number) => (EVENTS / cpuMsSpent) * 1000;
  console.log(
    `export: ${(exported.wall / 1000).toFixed(1)} s wall, ${(exported.cpu / 1000).toFixed(1)} s CPU, peak RSS ${exported.peakMb.toFixed(0)} MB`,
  );
  console.log(
    `csv-stringify alone: ${(alone.wall / 1000).toFixed(1)} s wall, ${(alone.cpu / 1000).toFixed(1)} s CPU, peak RSS ${alone.peakMb.toFixed(0)} MB`,
  );
  return [
    compare('exports: 1M events to CSV, rows/s', perCpuSecond(exported.cpu), {
      name: 'csv-stringify alone, same rows',
      value: perCpuSecond(alone.cpu),
    }),
    {
      name: 'exports: 1M events to CSV, peak RSS',
      unit: 'MB',
      value: exported.peakMb,
      target: `< ${PEAK_TARGET_MB}`,
      met: exported.peakMb < PEAK_TARGET_MB,
      measuredAt: new Date().toISOString(),
    },
  ];
}
