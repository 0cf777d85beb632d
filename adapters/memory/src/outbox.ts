import { checkEmailMessage, type EmailMessage, type Notifier, type NotifyError } from '@leadroute/core';
import { errAsync, type ResultAsync } from 'neverthrow';
import { DONE } from './done';

/** Options of {@link memoryOutbox}. */
export interface MemoryOutboxOptions {
  /**
   * Makes a send fail, to test how callers handle a notifier failure: return a
   * reason to refuse the message (it is not kept), `undefined` to accept it.
   * @default accepts every valid message
   * @example memoryOutbox({ refuse: (m) => (m.to.includes('down@example.com') ? 'mail server down' : undefined) })
   */
  readonly refuse?: (message: EmailMessage) => string | undefined;
}

/** The outbox: a notifier that keeps what it is given. */
export interface MemoryOutbox extends Notifier {
  /** Every message accepted, oldest first; copies, so later changes by the sender do not show. */
  readonly messages: readonly EmailMessage[];
  /** Forgets the messages kept so far. */
  clear(): void;
}

const copy = (m: EmailMessage): EmailMessage =>
  Object.freeze({
    to: Object.freeze([...m.to]),
    subject: m.subject,
    text: m.text,
    html: m.html,
    ...(m.headers === undefined ? {} : { headers: Object.freeze({ ...m.headers }) }),
  });

/**
 * A notifier that sends nothing and keeps every message in `messages`: the
 * embedded default, and what tests read to see which e-mails went out. It refuses
 * the same malformed messages an SMTP notifier refuses.
 * @example
 * const outbox = memoryOutbox();
 * const service = createLeadService({ storage: memoryStorage(), notifier: outbox });
 * // ... complete an export ...
 * expect(outbox.messages[0]?.subject).toContain('Export ready');
 */
export function memoryOutbox(options: MemoryOutboxOptions = {}): MemoryOutbox {
  const messages: EmailMessage[] = [];
  return {
    messages,
    clear() {
      messages.length = 0;
    },
    send(message: EmailMessage): ResultAsync<void, NotifyError> {
      const problem = checkEmailMessage(message, 'memory');
      if (problem) return errAsync(problem);
      const refused = options.refuse?.(message);
      if (refused !== undefined) {
        return errAsync({
          type: 'UpstreamFailure',
          message: `[leadroute] [memory] Outbox refused the message: ${refused}`,
        });
      }
      messages.push(copy(message));
      return DONE;
    },
  };
}
