import { stringify } from 'csv-stringify';
import type { Result } from 'neverthrow';
import type { Stringifier } from 'csv-stringify';
import type { Account } from '../ports/accounts';
import type { Clock } from '../ports/clock';
import type { FileStore } from '../ports/files';
import type { JobRef, LeasedJob } from '../ports/jobs';
import type { Logger } from '../ports/logger';
import type { Notifier } from '../ports/notifier';
import type { Storage } from '../ports/storage';
import { compileRules } from '../rules';
import { formatInZone, isoTime } from '../time';
import { timeSlices } from '../turns';
import { compileColumns, rulesOnEvents } from './columns';
import { notifyFinished } from './notify';
import type { ExportSettings } from './settings';
import { FINAL_EXPORT_STATUSES, type StoredExport } from '../domain/exports';

/** What running one export job needs. */
export interface ExportRunDeps {
  readonly storage: Storage;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly fileStore: FileStore | undefined;
  readonly notifier: Notifier;
  readonly settings: ExportSettings;
  /**
   * Aborted when the worker stops (a shutdown): the job ends at the next page,
   * releases its lease at once and is taken up again from the start by the next worker.
   */
  readonly signal?: AbortSignal;
}

/** How a job run ended: settled (done or failed for good), retried later, or lost to another worker. */
export type JobRunOutcome = 'settled' | 'retry' | 'lost';

type Produced =
  | { readonly kind: 'written'; readonly rows: number; readonly truncated: boolean }
  | { readonly kind: 'lost' }
  | { readonly kind: 'interrupted'; readonly rows: number }
  | { readonly kind: 'failed'; readonly message: string; readonly cause?: unknown };

/** Waits until the stringifier wants more, or is gone (its consumer failed). */
function drained(stream: Stringifier): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      stream.off('drain', done);
      stream.off('close', done);
      resolve();
    };
    stream.on('drain', done);
    stream.on('close', done);
  });
}

/** The CSV's name: the day it was requested in the account's zone, and the export's ID. */
export function exportFileName(exp: StoredExport, timeZone: string): string {
  return `leads_${formatInZone(Date.parse(exp.created_at), timeZone, 'yyyy-MM-dd')}_${exp.id}.csv`;
}

/**
 * Runs one claimed export job: streams the account's events in the range, page by
 * page, through the filter and the column mapper into csv-stringify and on into the
 * file store, so neither the events nor the CSV are ever held whole. Each page
 * extends the lease and publishes `exported_docs`; a worker that finds its lease
 * gone stops without touching the export, which the new holder is redoing.
 */
export async function runExportJob(deps: ExportRunDeps, job: LeasedJob): Promise<JobRunOutcome> {
  const { storage, clock, logger, settings } = deps;
  const ref: JobRef = { kind: job.kind, id: job.id, leaseId: job.leaseId };
  const log = { exportId: job.id, attempt: job.attempts };

  const found = await storage.exports.get(job.id);
  if (found.isErr()) return retry(deps, ref, job, found.error.message);
  const exp = found.value;
  if (!exp || FINAL_EXPORT_STATUSES.includes(exp.status)) {
    settle(deps, 'complete the job', await storage.jobs.complete(ref, clock.now()));
    return 'settled';
  }
  const account = await storage.accounts.get(exp.account_id);
  if (account.isErr()) return retry(deps, ref, job, account.error.message);
  if (!account.value)
    return finishWithError(deps, ref, exp, undefined, 'The account that requested the export no longer exists.');
  if (!deps.fileStore)
    return finishWithError(deps, ref, exp, account.value, 'No file store is configured for exports.');
  if (job.attempts > settings.maxAttempts)
    return finishWithError(
      deps,
      ref,
      exp,
      account.value,
      `The export was interrupted ${job.attempts - 1} times and was given up.`,
    );

  // A job taken over from a stopped worker starts again from the beginning.
  const started = await storage.exports.update(exp.id, { status: 'processing', exported_docs: 0 });
  if (started.isErr()) return retry(deps, ref, job, started.error.message);
  logger.info(log, 'export started');

  const fileKey = `exports/${exp.account_id}/${exp.id}-${job.attempts}.csv`;
  // Rows are small: a few hundred buffered rows and 64 KiB of text keep the pipe busy, not the heap.
  const stringifier = stringify({ eof: true, writableHighWaterMark: 256, readableHighWaterMark: 64 * 1024 });
  // Failures come back through the store's result and produce(); the stream's own error event adds nothing.
  stringifier.on('error', () => {});
  const upload = deps.fileStore.put(fileKey, stringifier, { contentType: 'text/csv; charset=utf-8' });
  // A store that gives up without reading the stream must not leave the rows waiting for room forever; nor one that
  // throws (a host's store with a bug), whose rejection, unhandled here, would end the process.
  const giveUp = () => {
    if (!stringifier.destroyed) stringifier.destroy();
  };
  void upload.then((result) => result.isErr() && giveUp(), giveUp);
  const produced = await produce(deps, ref, exp, account.value, stringifier);
  if (produced.kind === 'written') stringifier.end();
  else stringifier.destroy(new Error(produced.kind === 'failed' ? produced.message : produced.kind));
  const uploaded = await upload;

  if (produced.kind === 'interrupted') {
    // Released due now rather than left to its lease, so a restarted (or another) worker takes it up at once.
    if (uploaded.isOk()) settle(deps, 'remove the partial file', await deps.fileStore.remove(fileKey));
    const now = clock.now();
    const reason = 'The worker stopped before the export ended; it starts again.';
    settle(deps, 'release the job', await storage.jobs.fail(ref, now, reason, now));
    logger.info({ ...log, rows: produced.rows }, 'export interrupted by shutdown; released for the next worker');
    return 'retry';
  }

  if (produced.kind === 'lost') {
    logger.warn(log, 'export lease lost to another worker; stopping');
    return 'lost';
  }
  // When both failed, the store's own error says more than "the store stopped reading".
  if (produced.kind === 'failed')
    return retry(deps, ref, job, uploaded.isErr() ? uploaded.error.message : produced.message, exp, account.value);
  if (uploaded.isErr()) return retry(deps, ref, job, uploaded.error.message, exp, account.value);
  // The file may have taken a while: only the lease holder may publish it.
  const held = await storage.jobs.extend(ref, clock.now(), settings.leaseMs);
  if (held.isErr() || !held.value) {
    settle(deps, 'remove the unpublished file', await deps.fileStore.remove(fileKey));
    return held.isErr() ? retry(deps, ref, job, held.error.message) : 'lost';
  }

  const limitReason = {
    message: `More than ${settings.rowLimit} rows match, the row limit: the export stopped without a file. Narrow the range or the filter rules and request it again.`,
  };
  // Only a complete export has a file (the spec, #19.10): a truncated one keeps its status and reason, and its partial
  // file is removed.
  if (produced.truncated) settle(deps, 'remove the truncated file', await deps.fileStore.remove(fileKey));
  const finished = await storage.exports.update(
    exp.id,
    produced.truncated
      ? { status: 'truncated', exported_docs: produced.rows, reason: limitReason }
      : {
          status: 'complete',
          exported_docs: produced.rows,
          file_key: fileKey,
          file_name: exportFileName(exp, account.value.time_zone),
        },
  );
  if (finished.isErr()) return retry(deps, ref, job, finished.error.message);
  settle(deps, 'complete the job', await storage.jobs.complete(ref, clock.now()));
  logger.info(
    { ...log, rows: produced.rows, bytes: uploaded.value.bytes, truncated: produced.truncated },
    'export finished',
  );
  if (finished.value) await notifyFinished(deps, finished.value, account.value);
  return 'settled';
}

/** Reads, filters and writes the rows; never throws. */
async function produce(
  deps: ExportRunDeps,
  ref: JobRef,
  exp: StoredExport,
  account: Account,
  out: Stringifier,
): Promise<Produced> {
  const { storage, clock, settings } = deps;
  const now = clock.now();
  const env = { now, timeZone: account.time_zone };
  const filter = exp.filter_rules.length > 0 ? compileRules(rulesOnEvents(exp.filter_rules), 'and') : undefined;
  const toRow = compileColumns(exp.fields, { format: exp.date_format, timeZone: account.time_zone });
  // A file store and storage in memory never make the loop wait: it lets the event loop turn as it goes.
  const slices = timeSlices();
  const write = async (row: string[]): Promise<boolean> => {
    if (out.destroyed) return false;
    if (!out.write(row)) await drained(out);
    if (slices.due()) await slices.pause();
    return !out.destroyed;
  };
  const consumerGone = (): Produced => ({ kind: 'failed', message: 'The file store stopped reading the export.' });

  if (!(await write([...exp.fields]))) return consumerGone();
  let rows = 0;
  let after: string | undefined;
  for (;;) {
    const page = await storage.events.query({
      account_id: exp.account_id,
      start: Date.parse(exp.start),
      end: Date.parse(exp.end),
      live_at: isoTime(now),
      sort: 'asc',
      limit: settings.pageSize,
      ...(after === undefined ? {} : { after_id: after }),
    });
    if (page.isErr()) return { kind: 'failed', message: page.error.message, cause: page.error };
    for (const event of page.value) {
      if (filter && !filter(event as unknown as Record<string, unknown>, env).pass) continue;
      if (rows === settings.rowLimit) return { kind: 'written', rows, truncated: true };
      if (!(await write(toRow(event)))) return consumerGone();
      rows++;
    }
    const last = page.value[page.value.length - 1];
    if (page.value.length < settings.pageSize || !last) return { kind: 'written', rows, truncated: false };
    after = last.id;
    if (deps.signal?.aborted) return { kind: 'interrupted', rows };
    // The heartbeat: a worker that stops here (a crash) lets its lease run out.
    const held = await storage.jobs.extend(ref, clock.now(), settings.leaseMs);
    if (held.isErr()) return { kind: 'failed', message: held.error.message };
    if (!held.value) return { kind: 'lost' };
    const progress = await storage.exports.update(exp.id, { exported_docs: rows });
    if (progress.isErr()) return { kind: 'failed', message: progress.error.message };
  }
}

/**
 * A failure worth another try (storage or file store down): the job is released
 * for a later attempt with a growing delay, the export staying `processing`; on
 * the last attempt the export ends in error.
 */
async function retry(
  deps: ExportRunDeps,
  ref: JobRef,
  job: LeasedJob,
  message: string,
  exp?: StoredExport,
  account?: Account,
): Promise<JobRunOutcome> {
  const { storage, clock, logger, settings } = deps;
  logger.warn({ exportId: job.id, attempt: job.attempts, err: message }, 'export attempt failed');
  if (exp && job.attempts >= settings.maxAttempts) return finishWithError(deps, ref, exp, account, message);
  const now = clock.now();
  settle(deps, 'reschedule the job', await storage.jobs.fail(ref, now, message, now + 30_000 * job.attempts));
  return 'retry';
}

/**
 * A clean-up write whose failure changes nothing for this attempt: the job's lease runs out
 * and another pass takes it up, or a file stays until the store's own expiry. Logged, not dropped.
 */
function settle(deps: ExportRunDeps, what: string, result: Result<unknown, { readonly message: string }>): void {
  if (result.isErr()) deps.logger.warn({ err: result.error.message }, `export job: could not ${what}`);
}

/** Ends the export in error for good, tells its recipients, and settles the job. */
async function finishWithError(
  deps: ExportRunDeps,
  ref: JobRef,
  exp: StoredExport,
  account: Account | undefined,
  message: string,
): Promise<JobRunOutcome> {
  const { storage, clock } = deps;
  const updated = await storage.exports.update(exp.id, { status: 'error', error: message, reason: { message } });
  // If even that write fails, the lease runs out and another attempt tries again.
  if (updated.isErr()) return 'retry';
  settle(deps, 'settle the failed job', await storage.jobs.fail(ref, clock.now(), message));
  if (account && updated.value) await notifyFinished(deps, updated.value, account);
  return 'settled';
}
