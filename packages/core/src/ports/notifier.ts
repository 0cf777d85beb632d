import type { ResultAsync } from 'neverthrow';
import type { LeadrouteError } from '../errors';

/**
 * One e-mail, already rendered: both bodies are complete and every field is final.
 * Build these with the renderers in `notifications/` (`exportReadyMessage`,
 * `alertMessage`) rather than by hand, so that HTML is escaped and subjects stay on
 * one line.
 */
export interface EmailMessage {
  /** Recipient addresses; at least one. Every address receives the same message. */
  readonly to: readonly string[];
  /** One line of text; the transport encodes non-ASCII characters. */
  readonly subject: string;
  /** The plain-text body. */
  readonly text: string;
  /** The HTML body, showing the same content as `text`. */
  readonly html: string;
  /**
   * Extra headers, such as `X-Leadroute-Alert-Key`, for recipients' mail filters.
   * Values are single lines; the sender's address is the notifier's business.
   */
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * What sending fails with: the mail server or service could not be reached, refused
 * the message, or the message was not sendable. `message` reads `[leadroute] [smtp] ...`
 * and `cause` keeps the transport's own exception.
 */
export type NotifyError = Extract<LeadrouteError, { type: 'UpstreamFailure' }>;

/**
 * Sends e-mail: export-ready notices and alert e-mails. The memory outbox of
 * `@leadroute/memory` is the default; `@leadroute/smtp` sends through an SMTP server.
 */
export interface Notifier {
  /**
   * Hands one message to the transport. `ok` means the transport accepted it for at
   * least one recipient, not that it was delivered. Never throws: every failure is an
   * `err` value.
   */
  send(message: EmailMessage): ResultAsync<void, NotifyError>;
}
