import { createServer, type IncomingMessage, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import type { Result } from 'neverthrow';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LeadrouteError } from '../errors';
import { DEFAULT_BODY_LIMITS, parseBody, readBody } from './body';

type Read = Result<Uint8Array, LeadrouteError>;

const servers: ReturnType<typeof createServer>[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

/** A real server whose first request body is read with `limit`; resolves what readBody gave and the request. */
async function serve(limit: number) {
  let seen: (value: { read: Read; req: IncomingMessage }) => void = () => undefined;
  const first = new Promise<{ read: Read; req: IncomingMessage }>((resolve) => (seen = resolve));
  const server = createServer((req, res) => {
    void readBody({ method: 'POST', url: '/', headers: {}, body: req }, limit).then((read) => {
      seen({ read, req });
      res.end(read.isOk() ? 'read' : read.error.type);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, first };
}

describe('readBody on a Node request', () => {
  it('reads a chunked body whole, in order', async () => {
    const { port, first } = await serve(1000);
    const req = request({ port, method: 'POST', host: '127.0.0.1' });
    req.write('{"a":');
    setTimeout(() => req.end('1}'), 20);
    req.on('response', (res) => res.resume());
    const { read } = await first;
    expect(Buffer.from(read._unsafeUnwrap()).toString()).toBe('{"a":1}');
  });

  it('refuses a body past the limit while it streams, leaving the request paused for the 413 to go out', async () => {
    const { port, first } = await serve(10);
    const req = request({ port, method: 'POST', host: '127.0.0.1', headers: { 'transfer-encoding': 'chunked' } });
    req.on('error', () => undefined);
    req.write('x'.repeat(50));
    const { read, req: incoming } = await first;
    expect(read._unsafeUnwrapErr().type).toBe('PayloadTooLarge');
    expect(incoming.destroyed).toBe(false);
    expect(incoming.isPaused()).toBe(true);
    req.destroy();
  });

  it('answers Aborted when the client hangs up mid-body, and nothing throws after', async () => {
    const { port, first } = await serve(1000);
    const req = request({ port, method: 'POST', host: '127.0.0.1', headers: { 'content-length': '100' } });
    req.on('error', () => undefined);
    req.write('only part');
    setTimeout(() => req.destroy(), 20);
    const { read } = await first;
    expect(read._unsafeUnwrapErr().type).toBe('Aborted');
  });

  it('reads an already ended stream as empty', async () => {
    const stream = Readable.from([Buffer.from('gone')]);
    stream.resume();
    await new Promise((resolve) => stream.once('end', resolve));
    const read = await readBody({ method: 'POST', url: '/', headers: {}, body: stream }, 1000);
    expect(read._unsafeUnwrap().byteLength).toBe(0);
  });
});

describe('parseBody on deeply nested JSON', () => {
  const parse = (text: string) => parseBody(Buffer.from(text), 'json');
  const nested = (levels: number, inner = '') => `${'['.repeat(levels)}${inner}${']'.repeat(levels)}`;

  it('takes the deepest nesting the limit allows and refuses one level more, with one message', () => {
    // The top level is depth 0: 33 brackets deep is depth 32, the default limit.
    expect(parse(nested(DEFAULT_BODY_LIMITS.depth + 1)).isOk()).toBe(true);
    expect(parse(nested(DEFAULT_BODY_LIMITS.depth + 2))._unsafeUnwrapErr()).toMatchObject({
      type: 'BadRequest',
      message: 'The body is nested deeper than 32 levels.',
    });
    expect(parse(`{"a":${nested(DEFAULT_BODY_LIMITS.depth + 1)}}`).isErr()).toBe(true);
  });

  it('counts no bracket inside a string, escaped quotes and backslashes included', () => {
    const text = `{"a":"${'['.repeat(100)}\\\\","b":"\\\\\\"${'{'.repeat(100)}"}`;
    expect(parse(text)._unsafeUnwrap()).toEqual(JSON.parse(text));
  });

  it('refuses 4,000,000 levels without parsing them (JSON.parse built every level first: 5 s in one turn)', () => {
    const spy = vi.spyOn(JSON, 'parse');
    try {
      expect(parse(nested(4_000_000))._unsafeUnwrapErr().type).toBe('BadRequest');
      expect(spy).not.toHaveBeenCalled();
    } finally {
      spy.mockRestore();
    }
  });
});
