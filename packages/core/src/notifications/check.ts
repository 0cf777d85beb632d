import type { EmailMessage, NotifyError } from '../ports/notifier';

// A deliberately loose shape check: the mail server has the last word on addresses,
// this only catches what would corrupt the envelope or the headers.
const ADDRESS = /^[^\s@<>,;"]+@[^\s@<>,;"]+$/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is what this looks for.
const LINE_BREAK = /[\r\n\u0000]/;
const HEADER_NAME = /^[!-9;-~]+$/;
// Headers the message's own fields or the notifier set; overriding them through
// `headers` would change who receives the message or how it is parsed.
const RESERVED = new Set([
  'from',
  'to',
  'cc',
  'bcc',
  'sender',
  'subject',
  'content-type',
  'content-transfer-encoding',
  'mime-version',
]);

/**
 * Why `message` cannot be sent, or `undefined` when it can: no recipients, an
 * address that is not `local@domain`, a line break in the subject or a header
 * (which would inject headers), or a header that the message's own fields set
 * (From, To, Cc, Bcc, Subject, Content-Type ...). Notifiers call it before sending,
 * so every notifier refuses the same messages. `driver` names the notifier in the
 * error message.
 * @example
 * const problem = checkEmailMessage(message, 'smtp');
 * if (problem) return errAsync(problem);
 */
export function checkEmailMessage(message: EmailMessage, driver: string): NotifyError | undefined {
  const fail = (why: string): NotifyError => ({
    type: 'UpstreamFailure',
    message: `[leadroute] [${driver}] Cannot send ${JSON.stringify(message.subject.slice(0, 80))}: ${why}.`,
  });
  if (message.to.length === 0) return fail('no recipients');
  const bad = message.to.find((to) => !ADDRESS.test(to));
  if (bad !== undefined) return fail(`invalid recipient address ${JSON.stringify(bad)}`);
  if (LINE_BREAK.test(message.subject)) return fail('the subject contains a line break');
  for (const [name, value] of Object.entries(message.headers ?? {})) {
    if (!HEADER_NAME.test(name)) return fail(`invalid header name ${JSON.stringify(name)}`);
    if (RESERVED.has(name.toLowerCase())) return fail(`header ${name} is set by the notifier, not through headers`);
    if (LINE_BREAK.test(value)) return fail(`header ${name} contains a line break`);
  }
  return undefined;
}
