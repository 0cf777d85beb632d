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
