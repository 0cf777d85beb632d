import type { AddressInfo } from 'node:net';
import { alertMessage, type EmailMessage, exportReadyMessage, type Logger } from '@leadroute/core';
import { createTransport, type Transporter } from 'nodemailer';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { smtpNotifier } from './index';

// ---- A real SMTP server on loopback, keeping each message's raw DATA as text. ----

interface Received {
  readonly mailFrom: string;
  readonly rcptTo: readonly string[];
  readonly raw: string;
}

let server: SMTPServer;
let port: number;
const received: Received[] = [];

beforeAll(async () => {
  server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (address.address.endsWith('@refused.example')) {
        const e = new Error('Mailbox unavailable') as Error & { responseCode: number };
        e.responseCode = 550;
        callback(e);
        return;
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push({
          mailFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          rcptTo: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.server.address() as AddressInfo).port;
});

afterAll(() => new Promise<void>((resolve) => server.close(resolve)));
beforeEach(() => {
  received.length = 0;
});

// ---- Just enough MIME reading to assert on headers and both parts. ----

interface Part {
  readonly headers: ReadonlyMap<string, string>;
  readonly body: string;
}

function splitPart(raw: string): Part {
  const at = raw.indexOf('\r\n\r\n');
  const head = at < 0 ? raw : raw.slice(0, at);
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body: at < 0 ? '' : raw.slice(at + 4) };
}

function decodeBody(part: Part): string {
  const encoding = (part.headers.get('content-transfer-encoding') ?? '7bit').toLowerCase();
  if (encoding === 'base64') return Buffer.from(part.body.replace(/\s+/g, ''), 'base64').toString('utf8');
  return encoding === 'quoted-printable' ? decodeQuotedPrintable(part.body) : part.body;
}

function decodeQuotedPrintable(text: string): string {
  const chunks = text
    .replace(/=\r\n/g, '')
    .split(/(=[0-9A-F]{2})/i)
    .map((chunk) =>
      /^=[0-9A-F]{2}$/i.test(chunk) ? Buffer.from([parseInt(chunk.slice(1), 16)]) : Buffer.from(chunk, 'utf8'),
    );
  return Buffer.concat(chunks).toString('utf8');
}

/** RFC 2047 encoded words (`=?UTF-8?Q?...?=`, `=?UTF-8?B?...?=`) as text. */
function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?utf-8\?([qb])\?([^?]*)\?=/gi, (_, enc: string, text: string) =>
      enc.toLowerCase() === 'b'
        ? Buffer.from(text, 'base64').toString('utf8')
        : decodeQuotedPrintable(text.replace(/_/g, ' ')),
    );
}

/** The message's headers and its text/plain and text/html parts, decoded. */
function readMail(raw: string): { header: (name: string) => string | undefined; text: string; html: string } {
  const top = splitPart(raw);
  const boundary = /boundary="?([^";]+)"?/.exec(top.headers.get('content-type') ?? '')?.[1];
  if (!boundary) throw new Error(`not multipart: ${top.headers.get('content-type')}`);
  const parts = top.body
    .split(`--${boundary}`)
    .slice(1, -1)
    .map((p) => splitPart(p.replace(/^\r\n/, '').replace(/\r\n$/, '')));
  const find = (type: string): string => {
    const part = parts.find((p) => p.headers.get('content-type')?.startsWith(type));
    if (!part) throw new Error(`no ${type} part`);
    return decodeBody(part).replace(/\r\n/g, '\n');
  };
  const header = (name: string): string | undefined => {
    const v = top.headers.get(name.toLowerCase());
    return v === undefined ? undefined : decodeWords(v);
  };
  return { header, text: find('text/plain'), html: find('text/html') };
}

// ---- Fixtures ----

const notifierFor = (logger?: Logger) =>
  smtpNotifier({
    from: { name: 'Leadroute Alerts', address: 'alerts@leadroute.example' },
    transportOptions: { host: '127.0.0.1', port, secure: false, ignoreTLS: true },
    ...(logger ? { logger } : {}),
  });

const exportMail = exportReadyMessage({
  to: ['ops@acme.example', 'sales@acme.example'],
  exportId: '65f0c0ffee0000000000abcd',
  status: 'complete',
  fileName: 'leads_2025-03-01.csv',
  exportedDocs: 12345,
  expiresAt: '2025-03-08T10:00:00.000Z',
  accountName: 'Acme',
  timeZone: 'America/Chicago',
  downloadUrl: 'https://app.example.com/exports/65f0c0ffee0000000000abcd?x=1&y=2',
});

const alertMail = alertMessage({
  to: ['alerts@acme.example'],
  alert: {
    key: 'recipient-failure:65f0c0ffee0000000000abcd:65f0c0ffee0000000000beef',
    type: 'recipient-failure',
    severity: 'critical',
    message: 'Büyer <One> & Co is failing 92% of leads',
    detail: '46 of 50 deliveries failed in the last hour (baseline 3%).',
    flow_name: 'Auto',
    entity_name: 'Büyer <One> & Co',
    first_seen_at: '2025-03-01T13:05:00.000Z',
    time_zone: 'Europe/Berlin',
  },
  event: 'created',
  accountName: 'Café Acme',
});

// ---- Tests ----

describe('smtpNotifier against a local SMTP server', () => {
  it('sends an export-ready e-mail with both bodies to every recipient', async () => {
    const notifier = notifierFor();
    const result = await notifier.send(exportMail);
    notifier.close();
    expect(result.isOk()).toBe(true);
    expect(received).toHaveLength(1);
    const [got] = received;
    expect(got?.mailFrom).toBe('alerts@leadroute.example');
    expect(got?.rcptTo).toEqual(['ops@acme.example', 'sales@acme.example']);
    const mail = readMail(got?.raw ?? '');
    expect(mail.header('From')).toBe('Leadroute Alerts <alerts@leadroute.example>');
    expect(mail.header('To')).toBe('ops@acme.example, sales@acme.example');
    expect(mail.header('Subject')).toBe('[Acme] Export ready: leads_2025-03-01.csv');
    expect(mail.header('X-Leadroute-Export-Id')).toBe('65f0c0ffee0000000000abcd');
    expect(mail.header('Auto-Submitted')).toBe('auto-generated');
    expect(mail.text).toBe(exportMail.text);
    expect(mail.html).toBe(exportMail.html);
    expect(mail.text).toContain('12,345 records');
    expect(mail.html).toContain('<a href="https://app.example.com/exports/65f0c0ffee0000000000abcd?x=1&amp;y=2">');
  });

  it('sends an alert e-mail with non-ASCII text intact and HTML escaped', async () => {
    const notifier = notifierFor();
    const result = await notifier.send(alertMail);
    notifier.close();
    expect(result.isOk()).toBe(true);
    const [got] = received;
    expect(got?.rcptTo).toEqual(['alerts@acme.example']);
    const mail = readMail(got?.raw ?? '');
    expect(mail.header('Subject')).toBe('[Café Acme] Critical alert: Büyer <One> & Co is failing 92% of leads');
    expect(mail.header('X-Leadroute-Alert-Severity')).toBe('critical');
    expect(mail.text).toBe(alertMail.text);
    expect(mail.text).toContain('Büyer <One> & Co is failing 92% of leads');
    expect(mail.html).toBe(alertMail.html);
    expect(mail.html).toContain('Büyer &lt;One&gt; &amp; Co is failing 92% of leads');
  });

  it('returns an error value when the server refuses every recipient', async () => {
    const notifier = notifierFor();
    const result = await notifier.send({ ...exportMail, to: ['a@refused.example', 'b@refused.example'] });
    notifier.close();
    expect(result.isErr()).toBe(true);
    const error = result._unsafeUnwrapErr();
    expect(error.type).toBe('UpstreamFailure');
    expect(error.message).toMatch(
      /^\[leadroute\] \[smtp\] Sending "\[Acme\] Export ready: leads_2025-03-01\.csv" failed: /,
    );
    expect(error.message).toContain('EENVELOPE');
    expect(error.cause).toBeInstanceOf(Error);
    expect(received).toHaveLength(0);
  });

  it('sends to the recipients the server takes and warns about the others', async () => {
    const warn = vi.fn();
    const notifier = notifierFor({ debug() {}, info() {}, warn, error() {} });
    const result = await notifier.send({ ...alertMail, to: ['ok@acme.example', 'gone@refused.example'] });
    notifier.close();
    expect(result.isOk()).toBe(true);
    expect(received[0]?.rcptTo).toEqual(['ok@acme.example']);
    expect(warn).toHaveBeenCalledWith(
      { refused: ['gone@refused.example'], subject: alertMail.subject },
      '[leadroute] [smtp] The server refused 1 of 2 recipients.',
    );
  });

  it('refuses a malformed message without contacting the server', async () => {
    const notifier = notifierFor();
    const result = await notifier.send({ ...exportMail, to: [] });
    notifier.close();
    expect(result._unsafeUnwrapErr().message).toContain('[leadroute] [smtp] Cannot send');
    expect(received).toHaveLength(0);
  });

  it('verifies the connection', async () => {
    const notifier = notifierFor();
    expect((await notifier.verify()).isOk()).toBe(true);
    notifier.close();
  });
});

describe('smtpNotifier failures', () => {
  it('returns an error value when no server listens', async () => {
    const stopped = new SMTPServer({ authOptional: true, disabledCommands: ['STARTTLS'], logger: false });
    await new Promise<void>((resolve) => stopped.listen(0, '127.0.0.1', resolve));
    const deadPort = (stopped.server.address() as AddressInfo).port;
    await new Promise<void>((resolve) => stopped.close(resolve));

    const notifier = smtpNotifier({
      from: 'alerts@leadroute.example',
      transportOptions: { host: '127.0.0.1', port: deadPort, secure: false, ignoreTLS: true },
    });
    const sent = await notifier.send(alertMail);
    const verified = await notifier.verify();
    notifier.close();
    expect(sent._unsafeUnwrapErr()).toMatchObject({ type: 'UpstreamFailure', cause: expect.any(Error) });
    expect(sent._unsafeUnwrapErr().message).toMatch(/^\[leadroute\] \[smtp\] Sending .* failed: connect ECONNREFUSED/);
    expect(verified._unsafeUnwrapErr().message).toMatch(/^\[leadroute\] \[smtp\] Connection check failed: /);
  });

  it('wraps a transport that throws synchronously', async () => {
    const boom = new Error('boom');
    const transport = {
      sendMail: () => {
        throw boom;
      },
    } as unknown as Transporter<unknown>;
    const result = await smtpNotifier({ from: 'a@leadroute.example', transport }).send(alertMail);
    expect(result._unsafeUnwrapErr()).toMatchObject({ type: 'UpstreamFailure', cause: boom });
  });

  it('sends through an injected transport and leaves closing it to its owner', async () => {
    const transport = createTransport({ jsonTransport: true });
    const close = vi.spyOn(transport, 'close');
    const sendMail = vi.spyOn(transport, 'sendMail');
    const notifier = smtpNotifier({ from: 'a@leadroute.example', transport });
    const message: EmailMessage = { to: ['x@acme.example'], subject: 'Hi', text: 'Hi', html: '<p>Hi</p>' };
    expect((await notifier.send(message)).isOk()).toBe(true);
    expect(sendMail).toHaveBeenCalledWith(expect.objectContaining({ to: ['x@acme.example'], subject: 'Hi' }));
    notifier.close();
    expect(close).not.toHaveBeenCalled();
  });

  it('throws at construction when options are missing (a programmer error)', () => {
    expect(() => smtpNotifier({ from: '', transportOptions: 'smtp://localhost' })).toThrow(
      '[leadroute] [smtp] Missing required option from.',
    );
    expect(() => smtpNotifier({ from: 'a@b.example' } as never)).toThrow(
      'Missing required option transport or transportOptions',
    );
  });
});
