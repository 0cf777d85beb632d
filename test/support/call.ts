import { once } from 'node:events';
import { connect } from 'node:net';
import { basic } from './fixture';

/** What a test sends: a JSON body unless `raw` is given. */
export interface Call {
  readonly method?: string;
  readonly path: string;
  /** API key sent as Basic `API:<key>`; omit for none. */
  readonly key?: string;
  readonly json?: unknown;
  readonly raw?: string | Uint8Array;
  readonly headers?: Record<string, string>;
  /** Aborts the request: a client that gives up. */
  readonly signal?: AbortSignal;
}

export interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  // biome-ignore lint/suspicious/noExplicitAny: test assertions read the JSON answer freely.
  readonly body: any;
}

/** Sends one request to a binding's base URL with fetch, over a real socket. */
export async function call(baseUrl: string, c: Call): Promise<Answer> {
  const headers: Record<string, string> = { ...c.headers };
  if (c.key !== undefined) headers.authorization = basic(c.key);
  let body: string | Uint8Array | undefined = c.raw;
  if (c.json !== undefined) {
    body = JSON.stringify(c.json);
    headers['content-type'] ??= 'application/json';
  }
  const method = c.method ?? (body === undefined ? 'GET' : 'POST');
  // Bytes as a Buffer: what fetch's BodyInit takes under both Node's and the DOM's typings.
  const sent = typeof body === 'string' || body === undefined ? body : Buffer.from(body);
  const res = await fetch(baseUrl + c.path, { method, headers, body: sent, ...(c.signal ? { signal: c.signal } : {}) });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, text, body: parsed };
}

/** Writes `text` as it is to a binding's address and reads everything until the server closes: head and body apart. */
export async function rawExchange(baseUrl: string, text: string): Promise<{ head: string; body: string }> {
  const { hostname, port } = new URL(baseUrl);
  const socket = connect(Number(port), hostname);
  let raw = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => (raw += chunk));
  socket.end(text);
  await once(socket, 'close');
  const at = raw.indexOf('\r\n\r\n');
  return { head: raw.slice(0, at), body: raw.slice(at + 4) };
}

/** A GET whose headers are over Node's 16 KB limit: what Node refuses before any handler runs. */
export const OVERSIZED_HEADERS = `GET /entities HTTP/1.1\r\nhost: x\r\nx-big: ${'a'.repeat(20_000)}\r\n\r\n`;
