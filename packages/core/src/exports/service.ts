import { randomBytes } from 'node:crypto';
import { errAsync, okAsync, type ResultAsync } from 'neverthrow';
import type { Principal } from '../context';
import { errors, type LeadrouteError } from '../errors';
import { isId, newId } from '../ids';
import type { Clock } from '../ports/clock';
import type { FileStore, StoredFile } from '../ports/files';
import type { Logger } from '../ports/logger';
import type { Notifier } from '../ports/notifier';
import type { Storage } from '../ports/storage';
import type { ExportCreateBody, ExportFileLink } from '../schemas/exports';
import { isoTime } from '../time';
import { signLink, verifyLink } from './links';
import { type ExportListParams, parseExportRequest } from './request';
import { EXPORT_JOB, type ExportOptions, exportSettings, LINK_TTL_SECONDS } from './settings';
import type { Export, StoredExport } from '../domain/exports';
import { createExportWorker, type ExportWorker } from './worker';

export type { ExportFileLink } from '../schemas/exports';

/** A file ready to send from the service's own download route. */
export interface ExportDownloadFile extends StoredFile {
  readonly fileName: string;
}

/** The `exports` sub-API: background CSV exports of the account's events. */
export interface ExportsApi {
  /**
   * Validates a `POST /exports` body (422), stores the export and queues its job. `body` is
   * checked again at run time: JavaScript callers and the HTTP API hand over what they were given.
   */
  create(principal: Principal, body: ExportCreateBody): ResultAsync<Export, LeadrouteError>;
  /** The account's unexpired exports, newest first. */
  list(principal: Principal, params: ExportListParams): ResultAsync<Export[], LeadrouteError>;
  /** One export of the account: 400 for a malformed ID, 404 for an unknown or another account's. */
  get(principal: Principal, id: string): ResultAsync<Export, LeadrouteError>;
  /**
   * A download link for a finished export's CSV, valid 10 seconds; each call is
   * recorded in the export's `downloads`. 422 for a malformed ID; 404 when there is
   * no such export or its file is not ready (running, in error, or expired).
   */
  fileLink(principal: Principal, id: string): ResultAsync<ExportFileLink, LeadrouteError>;
  /** The file behind a served link, after checking its signature and expiry (403 when refused). */
  download(
    id: string,
    expires: string | null,
    signature: string | null,
  ): ResultAsync<ExportDownloadFile, LeadrouteError>;
  /** Runs every pending export job now (what tests and cron-style hosts call); answers how many settled. */
  runPending(): Promise<number>;
  /** The in-process worker: `service.start()` and `service.close()` start and stop it. */
  readonly worker: ExportWorker;
  /** Whether `service.start()` runs the worker: false when created with `exports: { worker: false }`. */
  readonly backgroundWorker: boolean;
}

/** The API view of a stored export: no account ID, no file key. */
export function toExport(stored: StoredExport): Export {
  const { account_id: _account, file_key: _key, ...view } = stored;
  return view;
}

/** Only a complete export has a file (the spec: "a file is available only after the export is complete", #19.10). */
const READY = new Set(['complete']);

export function createExportsApi(deps: {
  storage: Storage;
  clock: Clock;
  logger: Logger;
  notifier: Notifier;
  fileStore: FileStore | undefined;
  options: ExportOptions;
}): ExportsApi {
  const { storage, clock, fileStore } = deps;
  const settings = exportSettings(deps.options, () => randomBytes(32));
  // Nothing starts here: service.start() starts the worker (unless `worker: false`), service.close() stops it.
  const worker = createExportWorker({ ...deps, settings }, settings.worker === false ? 5000 : settings.worker.pollMs);

  const own = (
    principal: Principal,
    id: string,
    malformed: () => LeadrouteError,
  ): ResultAsync<StoredExport, LeadrouteError> => {
    if (!isId(id)) return errAsync(malformed());
    // Another account's export answers exactly as an unknown one.
    return storage.exports
      .get(id.toLowerCase())
      .andThen((exp) =>
        exp && exp.account_id === principal.account.id ? okAsync(exp) : errAsync(errors.notFound('export', id)),
      );
  };

  const notReady = (exp: StoredExport, now: number): LeadrouteError | undefined => {
    if (!READY.has(exp.status) || exp.file_key === undefined)
      return { type: 'NotFound', message: `The file of export ${exp.id} is not ready: the export is ${exp.status}.` };
    if (exp.expires_at <= isoTime(now))
      return {
        type: 'NotFound',
        message: `Export ${exp.id} expired at ${exp.expires_at}; its file is no longer available.`,
      };
    return undefined;
  };

  return {
    worker,
    backgroundWorker: settings.worker !== false,
    runPending: () => worker.runPending(),
    create(principal, body) {
      const parsed = parseExportRequest(body, principal.account.time_zone);
      if (parsed.isErr()) return errAsync(errors.validation(parsed.error, 'The export is not valid.'));
      if (!fileStore)
        return errAsync(
          errors.storageFailure(
            '[leadroute] [exports] No file store is configured: pass fileStore to createLeadService.',
          ),
        );
      const request = parsed.value;
      const now = clock.now();
      const stored: StoredExport = {
        id: newId(now),
        account_id: principal.account.id,
        created_at: isoTime(now),
        status: 'created',
        start: isoTime(request.start),
        end: isoTime(request.end),
        filter_rules: request.filter_rules,
        email_to: request.email_to,
        fields: request.fields,
        date_format: request.standard_dates ? 'standard' : 'legacy',
        user: principal.user,
        expires_at: isoTime(now + settings.expiresInMs),
        exported_docs: 0,
        downloads: [],
      };
      return storage.exports
        .insert(stored)
        .andThen(() =>
          storage.jobs.enqueue({ kind: EXPORT_JOB, id: stored.id, dueAt: now }, now).orElse((e) =>
            // Never leave an export "created" with no job behind it.
            storage.exports
              .update(stored.id, {
                status: 'error',
                error: 'The export could not be queued.',
                reason: { message: e.message },
              })
              .andThen(() => errAsync(e)),
          ),
        )
        .map(() => {
          worker.kick();
          return toExport(stored);
        });
    },
    list(principal, params) {
      return storage.exports
        .list({
          account_id: principal.account.id,
          live_at: isoTime(clock.now()),
          limit: params.limit,
          ...(params.before_id ? { before_id: params.before_id } : {}),
          ...(params.after_id ? { after_id: params.after_id } : {}),
        })
        .map((page) => page.map(toExport));
    },
    get(principal, id) {
      return own(principal, id, () => errors.badRequest(`The export ID is not valid: ${JSON.stringify(id)}.`)).map(
        toExport,
      );
    },
    fileLink(principal, id) {
      return own(principal, id, () =>
        errors.validation(
          [{ path: '/id', message: 'id must be a 24-character hexadecimal ID.' }],
          'The export ID is not valid.',
        ),
      ).andThen((exp) => {
        const now = clock.now();
        const refused = notReady(exp, now);
        if (refused) return errAsync(refused);
        if (!fileStore) return errAsync(errors.storageFailure('[leadroute] [exports] No file store is configured.'));
        const key = exp.file_key as string;
        const expiresAt = isoTime(now + LINK_TTL_SECONDS * 1000);
        return storage.exports
          .addDownload(exp.id, { at: isoTime(now), user: principal.user })
          .andThen((): ResultAsync<string, LeadrouteError> => {
            if (fileStore.delivery === 'presigned') return fileStore.presign(key, LINK_TTL_SECONDS);
            const link = signLink(settings.linkSecret, exp.id, now, LINK_TTL_SECONDS);
            const query = `download?expires=${link.expires}&signature=${link.signature}`;
            return okAsync(settings.baseUrl === undefined ? query : `${settings.baseUrl}/exports/${exp.id}/${query}`);
          })
          .map((url) => ({ url, expires_at: expiresAt }));
      });
    },
    download(id, expires, signature) {
      const refused = isId(id)
        ? verifyLink(settings.linkSecret, id, expires, signature, clock.now())
        : 'The download link is malformed.';
      if (refused) return errAsync(errors.forbidden(refused));
      if (fileStore?.delivery !== 'served') return errAsync(errors.notFound('export file'));
      return storage.exports.get(id.toLowerCase()).andThen((exp) => {
        if (!exp) return errAsync(errors.notFound('export', id));
        const gone = notReady(exp, clock.now());
        if (gone) return errAsync(gone);
        return fileStore
          .read(exp.file_key as string)
          .andThen((file) =>
            file
              ? okAsync({ ...file, fileName: exp.file_name ?? `${exp.id}.csv` })
              : errAsync(errors.notFound('export file')),
          );
      });
    },
  };
}
