import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** A message the catcher received: its envelope recipients, its raw text and its (unfolded) subject. */
export interface CaughtMail {
  readonly to: string[];
  readonly raw: string;
  readonly subject: string;
}

/** A local SMTP server that keeps every message it is sent, for tests of e-mail from a real server process. */
export interface SmtpCatcher {
  readonly mails: CaughtMail[];
  /** `smtp://127.0.0.1:<port>`, for LEADROUTE_SMTP_URL. */
  readonly url: string;
  close(): Promise<void>;
}

export async function startSmtpCatcher(): Promise<SmtpCatcher> {
  const mails: CaughtMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const unfolded = raw.replace(/\r?\n[ \t]+/g, ' ');
        mails.push({
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
          subject: /^Subject: (.*)$/m.exec(unfolded)?.[1]?.trim() ?? '',
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    mails,
    url: `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
