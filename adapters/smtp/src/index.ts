import {
  checkEmailMessage,
  type EmailMessage,
  type Logger,
  type Notifier,
  type NotifyError,
  silentLogger,
} from '@leadroute/core';
import { errAsync, ok, ResultAsync } from 'neverthrow';
import { createTransport, type SendMailOptions, type Transporter } from 'nodemailer';
// The file, not the directory: ESM resolution (node16/nodenext) does not look for index files.
import type SMTPTransport from 'nodemailer/lib/smtp-transport/index.js';

const DRIVER = 'smtp';

/** A sender address with a display name. */
export interface SmtpAddress {
  /** @example 'Leadroute' */
  readonly name: string;
  /** @example 'alerts@example.com' */
  readonly address: string;
}

interface SmtpNotifierCommon {
  /**
   * The sender of every message.
   * @example 'Leadroute <alerts@example.com>'
   * @example { name: 'Leadroute', address: 'alerts@example.com' }
   */
  readonly from: string | SmtpAddress;
  /**
   * Where a partial delivery is reported (the server refused some recipients and
   * took the others). @default silentLogger
   */
  readonly logger?: Logger;
}

/** Send through a nodemailer transporter you built and own (pooled SMTP, SES, a stream transport in tests). */
export interface SmtpNotifierWithTransport extends SmtpNotifierCommon {
  readonly transport: Transporter<unknown>;
  readonly transportOptions?: never;
}

/** Let the notifier build (and `close()`) an SMTP transporter. */
export interface SmtpNotifierWithOptions extends SmtpNotifierCommon {
  /**
   * nodemailer SMTP options, or a connection URL. Timeouts not given default to
   * 10 s to connect, 10 s for the greeting and 30 s of socket inactivity, shorter
   * than nodemailer's minutes, so a dead server fails a send quickly.
   * @example { host: 'smtp.example.com', port: 587, auth: { user: 'apikey', pass: process.env.SMTP_PASS } }
   * @example 'smtps://user:pass@smtp.example.com'
   */
  readonly transportOptions: SMTPTransport.Options | string;
  readonly transport?: never;
}

/** Options of {@link smtpNotifier}: `from` plus either `transport` or `transportOptions`. */
export type SmtpNotifierOptions = SmtpNotifierWithTransport | SmtpNotifierWithOptions;

/** The SMTP notifier: the notifier port plus a connection check and `close()`. */
export interface SmtpNotifier extends Notifier {
  /** Connects and authenticates without sending, for a start-up check. */
  verify(): ResultAsync<void, NotifyError>;
  /** Closes the transporter if this notifier built it; a `transport` you passed stays yours to close. */
  close(): void;
}

const TIMEOUT_DEFAULTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 } as const;

const failure = (message: string, cause?: unknown): NotifyError =>
  cause === undefined
    ? { type: 'UpstreamFailure', message: `[leadroute] [${DRIVER}] ${message}` }
    : { type: 'UpstreamFailure', message: `[leadroute] [${DRIVER}] ${message}`, cause };

/** The transport's message plus its code and SMTP response code when present (`EENVELOPE`, `550`). */
function describe(cause: unknown): string {
  if (!(cause instanceof Error)) return String(cause);
  const { code, responseCode } = cause as Error & { code?: unknown; responseCode?: unknown };
  const tags = [code, responseCode].filter((t) => typeof t === 'string' || typeof t === 'number');
  return tags.length > 0 ? `${cause.message} (${tags.join(', ')})` : cause.message;
}

/** The addresses the server refused, from nodemailer's send result. */
function refusedRecipients(info: unknown): string[] {
  if (typeof info !== 'object' || info === null || !('rejected' in info) || !Array.isArray(info.rejected)) return [];
  return info.rejected.map((r: unknown) =>
    typeof r === 'object' && r !== null && 'address' in r ? String(r.address) : String(r),
  );
}

/**
 * A notifier that sends e-mail over SMTP with nodemailer (a peer dependency). Every
 * failure, from a refused connection to a rejected recipient list, comes back as
 * an `UpstreamFailure` value with nodemailer's error as `cause`; `send` never throws.
 *
 * A message counts as sent when the server took it for at least one recipient;
 * recipients it refused alongside are logged as a warning, since failing the send
 * would make callers resend to the recipients who already have it.
 * @example
 * const notifier = smtpNotifier({
 *   from: 'Leadroute <alerts@example.com>',
 *   transportOptions: { host: 'smtp.example.com', port: 587, auth: { user, pass } },
 * });
 * const service = createLeadService({ storage, notifier });
 */
export function smtpNotifier(options: SmtpNotifierOptions): SmtpNotifier {
  // Missing options are programmer errors, found at start-up rather than at the first e-mail.
  if (!options.from) throw new TypeError(`[leadroute] [${DRIVER}] Missing required option from.`);
  if (!options.transport && !options.transportOptions) {
    throw new TypeError(`[leadroute] [${DRIVER}] Missing required option transport or transportOptions.`);
  }
  const logger = options.logger ?? silentLogger;
  const owned = options.transport === undefined;
  const transport: Transporter<unknown> =
    options.transport ??
    createTransport(
      typeof options.transportOptions === 'string'
        ? options.transportOptions
        : { ...TIMEOUT_DEFAULTS, ...options.transportOptions },
    );
  const from =
    typeof options.from === 'string' ? options.from : { name: options.from.name, address: options.from.address };

  return {
    send(message: EmailMessage): ResultAsync<void, NotifyError> {
      const problem = checkEmailMessage(message, DRIVER);
      if (problem) return errAsync(problem);
      const mail: SendMailOptions = {
        from,
        to: [...message.to],
        subject: message.subject,
        text: message.text,
        html: message.html,
        headers: { ...message.headers },
        // The bodies are strings, never paths or URLs: forbid nodemailer from reading either.
        disableFileAccess: true,
        disableUrlAccess: true,
      };
      // Through a promise chain so that a transport throwing synchronously becomes an error value too.
      return ResultAsync.fromPromise(
        Promise.resolve().then(() => transport.sendMail(mail)),
        (cause) => failure(`Sending ${JSON.stringify(message.subject)} failed: ${describe(cause)}`, cause),
      ).andThen((info) => {
        const refused = refusedRecipients(info);
        if (refused.length > 0) {
          logger.warn(
            { refused, subject: message.subject },
            `[leadroute] [${DRIVER}] The server refused ${refused.length} of ${message.to.length} recipients.`,
          );
        }
        return ok(undefined);
      });
    },

    verify(): ResultAsync<void, NotifyError> {
      return ResultAsync.fromPromise(
        Promise.resolve().then(() => transport.verify()),
        (cause) => failure(`Connection check failed: ${describe(cause)}`, cause),
      ).map(() => undefined);
    },

    close(): void {
      if (owned) transport.close();
    },
  };
}
