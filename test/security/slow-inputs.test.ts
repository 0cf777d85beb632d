import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { connect, type Socket } from 'node:net';
import { createLeadService, type Logger, type OpenRoute, type StoredEvent } from '@leadroute/core';
import { memoryStorage } from '@leadroute/memory';
import { ok } from 'neverthrow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportEvent } from '../exports/support';
import { call } from '../support/call';
import { basic, createFixture, type Fixture } from '../support/fixture';
import { BINDINGS, type Binding, startBinding } from '../support/servers';

setFlagsFromString('--expose-gc');
/** A full collection, so heap figures are live memory. */
const collect = runInNewContext('gc') as () => void;

// Issue #18: one request must never stall the server, and the edges of HTTP (bodies, charsets,
// hang-ups, oversized uploads, clients that never read) end as the spec says or quietly.

/** Echoes the parsed body: what the handler made of the bytes, through a real binding. */
const echo: OpenRoute = {
  method: 'POST',
  path: '/echo',
  auth: 'none',
  readsBody: true,
  summary: 'echo',
  handle: async (c) => ok({ status: 200, json: c.body ?? null }),
};
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const EVENT = 'e'.repeat(24);

describe.each(BINDINGS)('bodies through %s', (name) => {
  let binding: Binding;
  let f: Fixture;
  beforeAll(async () => {
    f = await createFixture();
    binding = await startBinding(name, f.service, { routes: [echo] });
  });
  afterAll(() => binding.close());

  it('#18.5 answers 90 KB and 180 KB repeated-key form bodies to POST /feedback quickly, and an unrelated request meanwhile', async () => {
    for (const repeats of [30_000, 60_000]) {
      const raw = `type=conversion&${'a=&'.repeat(repeats)}`;
      const started = performance.now();
      const [feedback, other] = await Promise.all([
        call(binding.url, { path: `/feedback?event_id=${EVENT}`, raw, headers: FORM }),
        call(binding.url, { path: '/openapi.json' }).then((r) => ({ ...r, ms: performance.now() - started })),
      ]);
      // The body parsed (no 400, no 413): the unknown event ID is what refuses it.
      expect(feedback.status).not.toBe(400);
      expect(feedback.status).not.toBe(413);
      expect(other.status).toBe(200);
      // Quadratic parsing took 9 to 63 s here; generous bounds for a busy shared machine.
      expect(performance.now() - started).toBeLessThan(2_000);
      expect(other.ms).toBeLessThan(2_000);
    }
  });

  it("#19.14 takes a body of exactly 10,000,000 bytes and answers 413 to one byte more (the spec's 10 MB)", async () => {
    const json = (size: number) => {
      const head = '{"type":"conversion"}';
      return head + ' '.repeat(size - head.length);
    };
    const exact = await call(binding.url, {
      path: '/echo',
      raw: json(10_000_000),
      headers: { 'content-type': 'application/json' },
    });
    expect(exact).toMatchObject({ status: 200, body: { type: 'conversion' } });
    const over = await call(binding.url, {
      path: '/echo',
      raw: json(10_000_001),
      headers: { 'content-type': 'application/json' },
    });
    expect(over.status).toBe(413);
    expect(over.body.detail).toMatch(/larger than 10000000 bytes/);
    // The size the issue found accepted: 10,200,046 bytes.
    expect(
      (
        await call(binding.url, {
          path: '/echo',
          raw: json(10_200_046),
          headers: { 'content-type': 'application/json' },
        })
      ).status,
    ).toBe(413);
  });

  it('#18.5 keeps the repeats of one key, in order, as one array', async () => {
    const r = await call(binding.url, { path: '/echo', raw: `k=1&${'a=x&'.repeat(5_000)}a=last&k=2`, headers: FORM });
    expect(r.status).toBe(200);
    expect(r.body.k).toEqual(['1', '2']);
    expect(r.body.a).toHaveLength(5_001);
    expect(r.body.a.at(-1)).toBe('last');
  });

  it('#18.5 refuses a form body with more fields than the limit with 400', async () => {
    const r = await call(binding.url, { path: '/echo', raw: 'a=&'.repeat(100_001), headers: FORM });
    expect(r.status).toBe(400);
    expect(r.text).toMatch(/more than 100000 fields/);
    const feedback = await call(binding.url, {
      path: `/feedback?event_id=${EVENT}`,
      raw: `type=conversion&${'a=&'.repeat(100_001)}`,
      headers: FORM,
    });
    expect(feedback.status).toBe(400);
  });

  it('#18.15 reads a Latin-1 form body in its declared charset (raw bytes and percent-escapes), so é survives', async () => {
    const bytes = Buffer.from('reason=caf\u00e9&note=na%EFve+x&type=conversion', 'latin1');
    for (const charset of ['iso-8859-1', 'latin1', 'windows-1252']) {
      const r = await call(binding.url, {
        path: '/echo',
        raw: bytes,
        headers: { 'content-type': `application/x-www-form-urlencoded; charset=${charset}` },
      });
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ reason: 'caf\u00e9', note: 'na\u00efve x', type: 'conversion' });
    }
    // The feedback route no longer refuses it as unreadable (the unknown event is what answers).
    const latin1 = { 'content-type': 'application/x-www-form-urlencoded; charset=ISO-8859-1' };
    const feedback = await call(binding.url, { path: `/feedback?event_id=${EVENT}`, raw: bytes, headers: latin1 });
    expect(feedback.status).not.toBe(400);
  });

  it('#18.15 reads JSON in UTF-16LE and keeps UTF-8 the default (with its percent-escapes as UTF-8)', async () => {
    const utf16 = Buffer.from(JSON.stringify({ reason: 'caf\u00e9' }), 'utf16le');
    const r = await call(binding.url, {
      path: '/echo',
      raw: utf16,
      headers: { 'content-type': 'application/json; charset=utf-16le' },
    });
    expect(r.body).toEqual({ reason: 'caf\u00e9' });
    const utf8 = await call(binding.url, { path: '/echo', raw: 'a=caf%C3%A9&b=\u00e9', headers: FORM });
    expect(utf8.body).toEqual({ a: 'caf\u00e9', b: '\u00e9' });
    // Latin-1 bytes sent as UTF-8 are still refused, not silently replaced.
    const wrong = await call(binding.url, { path: '/echo', raw: Buffer.from('a=caf\u00e9', 'latin1'), headers: FORM });
    expect(wrong.status).toBe(400);
    expect(wrong.text).toMatch(/not valid utf-8/);
  });

  it('#18.15 answers 415 with a clear message for a charset nobody can decode', async () => {
    const r = await call(binding.url, {
      path: '/echo',
      raw: 'a=1',
      headers: { 'content-type': 'application/x-www-form-urlencoded; charset=x-klingon' },
    });
    expect(r.status).toBe(415);
    expect(r.body.detail).toMatch(/Charset x-klingon is not supported/);
    const klingon = { 'content-type': 'application/x-www-form-urlencoded; charset=x-klingon' };
    const feedback = await call(binding.url, {
      path: `/feedback?event_id=${EVENT}`,
      raw: 'type=return',
      headers: klingon,
    });
    expect(feedback.status).toBe(415);
  });
});

/** A raw TCP connection to a binding, for what fetch will not do (pipelining, hanging up mid-body, never reading). */
async function rawSocket(baseUrl: string): Promise<Socket> {
  const { hostname, port } = new URL(baseUrl);
  const socket = connect(Number(port), hostname);
  await once(socket, 'connect');
  return socket;
}

/** Records every log call by level. */
function captureLogger() {
  const calls: { level: keyof Logger; obj: Record<string, unknown>; msg?: string }[] = [];
  const at = (level: keyof Logger) => (obj: object, msg?: string) =>
    void calls.push({ level, obj: obj as Record<string, unknown>, ...(msg === undefined ? {} : { msg }) });
  const logger: Logger = { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
  return { logger, calls };
}

const until = async (what: () => boolean, ms = 5_000) => {
  const deadline = Date.now() + ms;
  while (!what()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
};

/**
 * A stored source event of `accountId`, `n` seconds into the day, with a 400-character field so pages weigh something.
 */
const storedEvent = (accountId: string, n: number): StoredEvent => {
  const start = Date.parse('2026-03-08T12:00:00Z') + n * 1000;
  const lead = { state: n % 2 ? 'TX' : 'NY', first_name: 'Ann', notes: 'x'.repeat(400) };
  return exportEvent(accountId, start, lead, { expires_at: '2027-01-01T00:00:00.000Z' });
};

describe.each(BINDINGS)('connections through %s', (name) => {
  it('#18.8 20 sockets pipelining GET /openapi.json and keyed GET /events?limit=1000 without reading keep memory bounded and others served', async () => {
    const f = await createFixture();
    const account = (await f.service.accounts.authenticate(f.keys.demo))._unsafeUnwrap().account.id;
    for (let n = 0; n < 1_000; n++) (await f.service.recorder.record(storedEvent(account, n)))._unsafeUnwrap();
    const binding = await startBinding(name, f.service);
    const { host } = new URL(binding.url);
    const sockets: Socket[] = [];
    try {
      // Live heap, collected first: what the attack holds, not the garbage a collection had not yet reached.
      collect();
      const before = process.memoryUsage();
      const attack = async (path: string, times: number, key?: string) => {
        const socket = await rawSocket(binding.url);
        socket.pause(); // never read
        socket.on('error', () => {});
        sockets.push(socket);
        const auth = key ? `authorization: ${basic(key)}\r\n` : '';
        socket.write(`GET /api${path} HTTP/1.1\r\nhost: ${host}\r\n${auth}\r\n`.repeat(times));
      };
      await Promise.all(Array.from({ length: 20 }, () => attack('/openapi.json', 500)));
      await Promise.all(Array.from({ length: 20 }, () => attack('/events?limit=1000', 50, f.keys.demo)));
      // Let the server do whatever the attack makes it do.
      await new Promise((r) => setTimeout(r, 2_000));
      const started = performance.now();
      const other = await call(binding.url, { path: '/openapi.json' });
      expect(other.status).toBe(200);
      // Unbounded, every other client timed out. Each connection still earns a few answers (maxPipelined),
      // about 2 s of work for 40 of them when idle; a machine shared by ten test runs takes 5x that.
      expect(performance.now() - started).toBeLessThan(15_000);
      collect();
      const after = process.memoryUsage();
      // Unbounded, this attack took the RSS from about 200 MB to over 2 GB; one answer per connection is a few MB.
      // Live heap after a full collection is the tight bound (about 30 MB here); RSS also holds freed pages the
      // allocator keeps (it grew 197 MB once on a loaded CI machine), so its bound only separates bounded from
      // unbounded.
      expect((after.heapUsed - before.heapUsed) / 2 ** 20).toBeLessThan(64);
      expect((after.rss - before.rss) / 2 ** 20).toBeLessThan(600);
    } finally {
      for (const s of sockets) s.destroy();
      await binding.close();
    }
  }, 60_000);

  it('#18.8 answers a request past the pipelining depth 503 and closes that connection', async () => {
    const f = await createFixture();
    const binding = await startBinding(name, f.service);
    try {
      const socket = await rawSocket(binding.url);
      const { host } = new URL(binding.url);
      let text = '';
      socket.setEncoding('latin1').on('data', (c: string) => void (text += c));
      const closed = once(socket, 'close');
      // A Leadroute route (the Express router passes paths it does not own to the host's next middleware).
      socket.write(`GET /api/flows HTTP/1.1\r\nhost: ${host}\r\n\r\n`.repeat(12));
      await closed;
      const statuses = text.match(/HTTP\/1\.1 \d{3}/g);
      expect(statuses).toEqual([...Array(8).fill('HTTP/1.1 401'), 'HTTP/1.1 503']);
      expect(text).toMatch(/More than 8 requests are waiting/);
    } finally {
      await binding.close();
    }
  });

  it('#18.8 still answers pipelined requests in order to a client that reads', async () => {
    const f = await createFixture();
    const binding = await startBinding(name, f.service);
    try {
      const socket = await rawSocket(binding.url);
      const { host } = new URL(binding.url);
      let text = '';
      socket.setEncoding('latin1').on('data', (c: string) => void (text += c));
      socket.write(
        ['/openapi.json', '/nowhere', '/openapi.json']
          .map((p) => `GET /api${p} HTTP/1.1\r\nhost: ${host}\r\n\r\n`)
          .join(''),
      );
      await until(() => (text.match(/HTTP\/1\.1 \d{3}/g) ?? []).length === 3);
      expect(text.match(/HTTP\/1\.1 \d{3}/g)).toEqual(['HTTP/1.1 200', 'HTTP/1.1 404', 'HTTP/1.1 200']);
      socket.destroy();
    } finally {
      await binding.close();
    }
  });

  it('#18.9 stops a statistics request whose client hung up: no further pages are read', async () => {
    const storage = memoryStorage();
    const query = storage.events.query.bind(storage.events);
    let pages = 0;
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => (release = r));
    storage.events.query = (q) => {
      pages++;
      // Hold the first page until the client is gone, so the abort is seen mid-work, not before it.
      return pages === 1 ? query(q).map(async (page) => (await gate, page)) : query(q);
    };
    const { logger, calls } = captureLogger();
    const service = createLeadService({ storage, logger });
    const key = (await service.accounts.create({ name: 'Demo', time_zone: 'UTC' }))._unsafeUnwrap().api_key;
    const account = (await service.accounts.authenticate(key))._unsafeUnwrap().account.id;
    for (let n = 0; n < 5_000; n++) (await storage.events.insert(storedEvent(account, n)))._unsafeUnwrap();
    const binding = await startBinding(name, service);
    try {
      const socket = await rawSocket(binding.url);
      // group_by a lead field the account does not roll up (state is rolled up, #22.6) needs the events themselves:
      // 5 pages of 1,000.
      socket.write(
        `GET /api/events/stats?group_by=city&start=2026-03-08&end=2026-03-09 HTTP/1.1\r\nhost: x\r\nauthorization: ${basic(key)}\r\n\r\n`,
      );
      await until(() => pages === 1);
      socket.destroy();
      await new Promise((r) => setTimeout(r, 200));
      release();
      await until(() => calls.some((c) => c.msg === 'request' && c.obj.path === '/events/stats'));
      expect(pages).toBe(1);
      expect(calls.find((c) => c.msg === 'request')?.obj.status).toBe(499);
      expect(calls.filter((c) => c.level === 'error')).toEqual([]);
    } finally {
      await binding.close();
    }
  });

  it('#18.16 a client that hangs up mid-body leaves no error and no 500 in the logs, only a debug line', async () => {
    const { logger, calls } = captureLogger();
    const f = await createFixture({ logger });
    const binding = await startBinding(name, f.service, { routes: [echo] });
    try {
      const socket = await rawSocket(binding.url);
      const head = `POST /api/feedback?event_id=${EVENT} HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 100000\r\n\r\n`;
      socket.write(`${head}{"type":"`);
      await new Promise((r) => setTimeout(r, 200));
      socket.destroy();
      await until(() => calls.some((c) => c.msg === 'request'));
      expect(calls.filter((c) => c.level === 'error')).toEqual([]);
      expect(calls.find((c) => c.msg === 'request')?.obj.status).not.toBe(500);
      expect(calls.some((c) => c.level === 'debug' && /closed the connection/.test(c.msg ?? ''))).toBe(true);
    } finally {
      await binding.close();
    }
  });

  it('#18.17 an 11 MB upload gets a 413 the client can read, 20 times out of 20', async () => {
    const f = await createFixture();
    const binding = await startBinding(name, f.service);
    const body = Buffer.alloc(11 * 1024 * 1024, 'x');
    try {
      const statuses: string[] = [];
      for (let i = 0; i < 20; i++) {
        const socket = await rawSocket(binding.url);
        let text = '';
        socket.setEncoding('latin1').on('data', (c: string) => void (text += c));
        const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()).on('error', () => {}));
        // A naive uploader: sends every byte, as fast as the socket takes them, whatever comes back.
        socket.write(`POST /api/feedback?event_id=${EVENT} HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n`);
        socket.write(`content-length: ${body.byteLength}\r\n\r\n`);
        socket.write(body);
        await closed;
        statuses.push(text.slice(0, 12));
        expect(text).toMatch(/larger than 10000000 bytes/);
      }
      expect(statuses).toEqual(Array(20).fill('HTTP/1.1 413'));
      // curl, which the issue saw reset about 1 time in 5: it stops sending once an answer arrives.
      const file = join(tmpdir(), `leadroute-11mb-${process.pid}.json`);
      await writeFile(file, body);
      const curl = (extra: string[]) => {
        const args = ['-s', '-o', '/dev/null', '-w', '%{http_code}', '-H', 'content-type: application/json', ...extra];
        const run = promisify(execFile)('curl', [
          ...args,
          '--data-binary',
          `@${file}`,
          `${binding.url}/feedback?event_id=${EVENT}`,
        ]);
        return run.then(
          (r) => r.stdout,
          (e: { stdout?: string }) => `failed ${e.stdout ?? ''}`,
        );
      };
      const codes: string[] = [];
      for (let i = 0; i < 20; i++) {
        codes.push(await curl([]));
      }
      expect(codes).toEqual(Array(20).fill('413'));
      // Chunked, so the 413 comes while reading, with the handler's reader left on the stream.
      const chunked: string[] = [];
      for (let i = 0; i < 5; i++) {
        chunked.push(await curl(['-H', 'transfer-encoding: chunked']));
      }
      expect(chunked).toEqual(Array(5).fill('413'));
    } finally {
      await binding.close();
    }
  }, 120_000);
});
