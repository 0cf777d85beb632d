/** Export options of `createLeadService` (`exports: { ... }`). */
export interface ExportOptions {
  /**
   * How long after creation an export stays downloadable (its `expires_at`).
   * @default 7 days
   */
  readonly expiresInMs?: number;
  /**
   * Most rows one export writes; an export that has more matching events ends
   * `truncated` with a reason.
   * @default 1_000_000
   */
  readonly rowLimit?: number;
  /**
   * HMAC key of the download links the service serves itself (memory and directory
   * file stores). Give the same secret to every process that serves downloads.
   * @default 32 random bytes per service (links then verify only in the process that made them)
   */
  readonly linkSecret?: string | Uint8Array;
  /**
   * Absolute base URL of the API as clients reach it, for served download links
   * (`${baseUrl}/exports/{id}/download?...`).
   * @default undefined: the link is the reference `download?...`, relative to the file endpoint's URL
   * @example 'https://api.example.com/leadroute'
   */
  readonly baseUrl?: string;
  /**
   * How long a worker holds an export job without a heartbeat before another may take it over.
   * @default 120_000
   */
  readonly leaseMs?: number;
  /** Events read from storage per page (and rows between progress updates). @default 1000 */
  readonly pageSize?: number;
  /** Claims of one job before it ends in error (a job that keeps killing its worker). @default 3 */
  readonly maxAttempts?: number;
  /**
   * The in-process worker, which `service.start()` starts: `false` leaves it out
   * (call `service.exports.runPending()` or run a worker elsewhere), otherwise how
   * often it looks for work left by other processes. New exports start at once
   * when the worker runs.
   * @default { pollMs: 5000 }
   */
  readonly worker?: false | { readonly pollMs?: number };
}

/** {@link ExportOptions} with every default applied. */
export interface ExportSettings {
  readonly expiresInMs: number;
  readonly rowLimit: number;
  readonly linkSecret: Uint8Array;
  readonly baseUrl: string | undefined;
  readonly leaseMs: number;
  readonly pageSize: number;
  readonly maxAttempts: number;
  readonly worker: false | { readonly pollMs: number };
}

export const EXPORT_DEFAULTS = {
  expiresInMs: 7 * 24 * 60 * 60 * 1000,
  rowLimit: 1_000_000,
  leaseMs: 120_000,
  pageSize: 1000,
  maxAttempts: 3,
  pollMs: 5000,
} as const;

/** The job kind export work is queued under. */
export const EXPORT_JOB = 'export';
/** Seconds a download link stays valid (spec: 10 seconds). */
export const LINK_TTL_SECONDS = 10;

export function exportSettings(options: ExportOptions, randomSecret: () => Uint8Array): ExportSettings {
  const secret = options.linkSecret;
  const positive = (value: number | undefined, fallback: number, name: string): number => {
    if (value === undefined) return fallback;
    // A nonsensical setting is the embedder's bug: say so at start-up.
    if (!Number.isFinite(value) || value <= 0)
      throw new TypeError(`[leadroute] [exports] ${name} must be a positive number.`);
    return value;
  };
  return {
    expiresInMs: positive(options.expiresInMs, EXPORT_DEFAULTS.expiresInMs, 'expiresInMs'),
    rowLimit: Math.floor(positive(options.rowLimit, EXPORT_DEFAULTS.rowLimit, 'rowLimit')),
    linkSecret:
      secret === undefined ? randomSecret() : typeof secret === 'string' ? new TextEncoder().encode(secret) : secret,
    baseUrl: options.baseUrl?.replace(/\/+$/, ''),
    leaseMs: positive(options.leaseMs, EXPORT_DEFAULTS.leaseMs, 'leaseMs'),
    pageSize: Math.floor(positive(options.pageSize, EXPORT_DEFAULTS.pageSize, 'pageSize')),
    maxAttempts: Math.floor(positive(options.maxAttempts, EXPORT_DEFAULTS.maxAttempts, 'maxAttempts')),
    worker:
      options.worker === false
        ? false
        : { pollMs: positive(options.worker?.pollMs, EXPORT_DEFAULTS.pollMs, 'worker.pollMs') },
  };
}
