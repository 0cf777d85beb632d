import { BASIC_USER, type HttpHandler, type HttpRequest } from '@leadroute/core';

/** A request for {@link TestService.inject}: what a client would send, without a socket. */
export interface InjectRequest {
  /** @default 'POST' when there is a body, else 'GET' */
  readonly method?: string;
  /** Path and query, as the handler sees them (`/flows`, `/events?limit=5`). */
  readonly url: string;
  /** Extra request headers, any case. Given ones win over those `inject` sets. */
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * The body: a string or bytes are sent as they are (give their `content-type`); any other
   * value is sent as JSON with `content-type: application/json`.
   */
  readonly body?: unknown;
  /**
   * The API key, sent as HTTP Basic (user `API`); `false` sends no `authorization` header.
   * @default the test account's key
   */
  readonly apiKey?: string | false;
  /** The client address key-less routes throttle by. @default '127.0.0.1' */
  readonly remoteAddress?: string;
}

/** What {@link TestService.inject} answers. */
export interface InjectResponse<Body = unknown> {
  readonly status: number;
  /** Response headers, lower-case names. */
  readonly headers: Readonly<Record<string, string>>;
  /**
   * The body parsed as JSON when its type is JSON (`application/json`, `application/problem+json`), else its text;
   * undefined when empty.
   */
  readonly body: Body;
  /** The body as text ('' when empty). */
  readonly text: string;
}

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\b/i;

/** Sends `request` through `handle` and reads the answer: the core of `TestService.inject`. */
export async function inject<Body = unknown>(
  handle: HttpHandler,
  request: InjectRequest,
  defaultApiKey?: string,
): Promise<InjectResponse<Body>> {
  const headers: Record<string, string> = {};
  let body: string | Uint8Array | undefined;
  if (request.body !== undefined) {
    const raw = typeof request.body === 'string' || request.body instanceof Uint8Array;
    body = raw ? (request.body as string | Uint8Array) : JSON.stringify(request.body);
    if (!raw) headers['content-type'] = 'application/json';
    headers['content-length'] = String(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength);
  }
  const apiKey = request.apiKey === undefined ? defaultApiKey : request.apiKey;
  if (apiKey) headers.authorization = `Basic ${Buffer.from(`${BASIC_USER}:${apiKey}`).toString('base64')}`;
  for (const [name, value] of Object.entries(request.headers ?? {})) headers[name.toLowerCase()] = value;
  const sent: HttpRequest = {
    method: request.method ?? (body === undefined ? 'GET' : 'POST'),
    url: request.url,
    headers,
    remoteAddress: request.remoteAddress ?? '127.0.0.1',
    ...(body === undefined ? {} : { body }),
  };
  const response = await handle(sent);
  const responseHeaders = Object.fromEntries(
    Object.entries(response.headers).map(([name, value]) => [name.toLowerCase(), value]),
  );
  const text =
    response.body === undefined
      ? ''
      : typeof response.body === 'string'
        ? response.body
        : Buffer.from(response.body).toString('utf8');
  const parsed =
    text === '' ? undefined : JSON_TYPE.test(responseHeaders['content-type'] ?? '') ? JSON.parse(text) : text;
  return { status: response.status, headers: responseHeaders, body: parsed as Body, text };
}
