import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_RESPONSE_BYTES, send } from './http-client';

let server: Server;
let base: string;
const ports: number[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    ports.push(req.socket.remotePort ?? 0);
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      body += chunk;
    });
    req.on('end', () => {
      if (req.url === '/redirect') return void res.writeHead(302, { location: '/elsewhere' }).end();
      if (req.url === '/slow') return void setTimeout(() => res.end('late'), 5_000).unref();
      if (req.url === '/huge') {
        res.writeHead(200, { 'content-type': 'text/plain' });
        const chunk = 'x'.repeat(64 * 1024);
        // About 4 MB, more than the client reads.
        for (let i = 0; i < 64; i++) res.write(chunk);
        return void res.end();
      }
      res.writeHead(200, { 'content-type': 'application/json', 'x-seen': req.headers['x-test'] ?? '' });
      res.end(JSON.stringify({ method: req.method, body }));
    });
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => {
  server.closeAllConnections();
  server.close();
});

describe('the outbound HTTP client', () => {
  it('#22 sends method, headers and body and reads status, headers and text', async () => {
    const answer = await send({
      method: 'POST',
      url: `${base}/x`,
      headers: { 'content-type': 'application/json', 'x-test': 'yes' },
      body: '{"a":"é"}',
    });
    expect(answer.status).toBe(200);
    expect(answer.headers['x-seen']).toBe('yes');
    expect(JSON.parse(answer.text)).toEqual({ method: 'POST', body: '{"a":"é"}' });
    expect(answer.truncated).toBe(false);
  });

  it('#22 reuses one keep-alive connection for requests one after another', async () => {
    ports.length = 0;
    for (let i = 0; i < 5; i++) await send({ method: 'POST', url: `${base}/x`, headers: {}, body: String(i) });
    expect(ports).toHaveLength(5);
    expect(new Set(ports).size).toBe(1);
  });

  it('#22 does not follow a redirect: the 3xx is the answer', async () => {
    expect((await send({ method: 'POST', url: `${base}/redirect`, headers: {}, body: '' })).status).toBe(302);
  });

  it('#22 rejects when the signal aborts, and the next request is answered', async () => {
    const controller = new AbortController();
    const pending = send({ method: 'POST', url: `${base}/slow`, headers: {}, body: '', signal: controller.signal });
    setTimeout(() => controller.abort(new Error('timed out')), 50);
    await expect(pending).rejects.toThrow(/timed out/);
    expect((await send({ method: 'POST', url: `${base}/x`, headers: {}, body: '' })).status).toBe(200);
  });

  it('#22 reads at most 1 MiB of an answer and says it cut the rest', async () => {
    const answer = await send({ method: 'GET', url: `${base}/huge`, headers: {} });
    expect(answer.truncated).toBe(true);
    expect(answer.text).toHaveLength(MAX_RESPONSE_BYTES);
    expect((await send({ method: 'POST', url: `${base}/x`, headers: {}, body: '' })).status).toBe(200);
  });

  it('#22 rejects an unreachable recipient and a URL that is not http(s)', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await expect(send({ method: 'POST', url: `http://127.0.0.1:${port}/`, headers: {}, body: '' })).rejects.toThrow(
      /ECONNREFUSED/,
    );
    await expect(send({ method: 'POST', url: 'ftp://example.com/', headers: {} })).rejects.toThrow(
      /unsupported protocol/,
    );
  });
});
