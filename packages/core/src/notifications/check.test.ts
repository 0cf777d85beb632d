import { describe, expect, it } from 'vitest';
import type { EmailMessage } from '../ports/notifier';
import { checkEmailMessage } from './check';

const ok: EmailMessage = { to: ['a@example.com'], subject: 'Hi', text: 'x', html: '<p>x</p>', headers: { 'X-A': 'b' } };

describe('checkEmailMessage', () => {
  it('accepts a well-formed message', () => {
    expect(checkEmailMessage(ok, 'smtp')).toBeUndefined();
  });
  it.each([
    ['no recipients', { ...ok, to: [] }, 'no recipients'],
    ['a bad address', { ...ok, to: ['a@example.com', 'not an address'] }, 'invalid recipient address "not an address"'],
    ['a smuggled second address', { ...ok, to: ['a@example.com, b@example.com'] }, 'invalid recipient address'],
    [
      'a line break in the subject',
      { ...ok, subject: 'Hi\r\nBcc: x@example.com' },
      'the subject contains a line break',
    ],
    [
      'a line break in a header',
      { ...ok, headers: { 'X-A': 'b\nBcc: x@example.com' } },
      'header X-A contains a line break',
    ],
    ['a bad header name', { ...ok, headers: { 'X A:': 'b' } }, 'invalid header name'],
    ['a reserved header', { ...ok, headers: { bcc: 'x@example.com' } }, 'header bcc is set by the notifier'],
  ])('refuses %s', (_, message, why) => {
    const problem = checkEmailMessage(message, 'smtp');
    expect(problem?.type).toBe('UpstreamFailure');
    expect(problem?.message).toMatch(/^\[leadroute\] \[smtp\] Cannot send "Hi/);
    expect(problem?.message).toContain(why);
  });
});
