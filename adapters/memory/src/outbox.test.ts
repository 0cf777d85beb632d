import { alertMessage, type EmailMessage, exportReadyMessage } from '@leadroute/core';
import { describe, expect, it } from 'vitest';
import { memoryOutbox } from './outbox';

const message: EmailMessage = {
  to: ['ops@example.com'],
  subject: 'Hello',
  text: 'Hello',
  html: '<p>Hello</p>',
  headers: { 'X-Test': '1' },
};

describe('memoryOutbox', () => {
  it('keeps sent messages in order', async () => {
    const outbox = memoryOutbox();
    const exportMail = exportReadyMessage({
      to: ['a@example.com'],
      exportId: 'e1',
      status: 'complete',
      fileName: 'f.csv',
      exportedDocs: 3,
      expiresAt: '2025-03-08T00:00:00Z',
      accountName: 'Acme',
    });
    const alertMail = alertMessage({
      to: ['b@example.com'],
      alert: {
        key: 'new-source:a:b',
        type: 'new-source',
        severity: 'info',
        message: 'New source Vendor X',
        detail: '',
        flow_name: null,
        entity_name: 'Vendor X',
        first_seen_at: '2025-03-01T00:00:00Z',
        time_zone: 'UTC',
      },
      event: 'created',
      accountName: 'Acme',
    });
    expect((await outbox.send(exportMail)).isOk()).toBe(true);
    expect((await outbox.send(alertMail)).isOk()).toBe(true);
    expect(outbox.messages).toEqual([exportMail, alertMail]);
  });

  it('keeps a copy, not the sender’s objects', async () => {
    const outbox = memoryOutbox();
    const to = ['ops@example.com'];
    const headers: Record<string, string> = { 'X-Test': '1' };
    (await outbox.send({ ...message, to, headers }))._unsafeUnwrap();
    to.push('other@example.com');
    headers['X-Test'] = '2';
    expect(outbox.messages[0]?.to).toEqual(['ops@example.com']);
    expect(outbox.messages[0]?.headers).toEqual({ 'X-Test': '1' });
    expect(Object.isFrozen(outbox.messages[0])).toBe(true);
  });

  it('refuses malformed messages with an error value', async () => {
    const outbox = memoryOutbox();
    const result = await outbox.send({ ...message, to: [] });
    expect(result.isErr()).toBe(true);
    expect(result._unsafeUnwrapErr()).toMatchObject({
      type: 'UpstreamFailure',
      message: expect.stringContaining('[leadroute] [memory]'),
    });
    expect(outbox.messages).toHaveLength(0);
  });

  it('fails on demand, keeping nothing', async () => {
    const outbox = memoryOutbox({
      refuse: (m) => (m.to.includes('down@example.com') ? 'mail server down' : undefined),
    });
    const refused = await outbox.send({ ...message, to: ['down@example.com'] });
    expect(refused._unsafeUnwrapErr().message).toBe(
      '[leadroute] [memory] Outbox refused the message: mail server down',
    );
    expect((await outbox.send(message)).isOk()).toBe(true);
    expect(outbox.messages).toHaveLength(1);
  });

  it('clears', async () => {
    const outbox = memoryOutbox();
    (await outbox.send(message))._unsafeUnwrap();
    outbox.clear();
    expect(outbox.messages).toEqual([]);
  });
});
