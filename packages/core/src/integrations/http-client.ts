import { Agent as HttpAgent, type IncomingHttpHeaders, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';

/** What an outbound integration sends. */
export interface OutboundRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
  /** Aborts the request (the step's timeout); the promise then rejects. */
  readonly signal?: AbortSignal;
}

/** What the recipient answered: status, headers and the body as text (cut at {@link MAX_RESPONSE_BYTES}). */
export interface OutboundResponse {
  readonly status: number;
  readonly statusText: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly text: string;
  /** True when the body was longer than {@link MAX_RESPONSE_BYTES} and the rest was not read. */
  readonly truncated: boolean;
}

/**
 * The most of a recipient's answer that is read. Answers are parsed for an outcome, a
 * reason, a price and a reference, and recorded clipped to 64 KiB; a recipient that
 * streams without end must not grow the heap.
 */
export const MAX_RESPONSE_BYTES = 1024 * 1024;

/**
 * Keep-alive agents, one per protocol, shared by every delivery: a recipient host's
 * connections are reused from lead to lead instead of a TCP (and TLS) handshake per lead.
 * `fetch` (undici with web streams and an AbortSignal per call) cost twice the CPU of
 * `http.request` on a keep-alive agent in the #22 profile, and was 35% of intake CPU.
 */
const agents = {
  'http:': new HttpAgent({
    keepAlive: true,
    keepAliveMsecs: 1_000,
    maxSockets: 256,
    maxFreeSockets: 64,
    timeout: 60_000,
  }),
  'https:': new HttpsAgent({
    keepAlive: true,
    keepAliveMsecs: 1_000,
    maxSockets: 256,
    maxFreeSockets: 64,
    timeout: 60_000,
  }),
} as const;

function flatHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers))
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  return out;
}

/**
 * Sends one request on the shared keep-alive agents and reads the answer as UTF-8 text.
 * Redirects are not followed (a recipient's 3xx is its answer). Rejects when the
 * connection fails or `signal` aborts; an aborted request's socket is destroyed, never
 * returned to the pool half-read.
 */
export function send(request: OutboundRequest): Promise<OutboundResponse> {
  return new Promise((resolve, reject) => {
    let url: URL;
    try {
      url = new URL(request.url);
    } catch (e) {
      reject(e);
      return;
    }
    const protocol = url.protocol;
    if (protocol !== 'http:' && protocol !== 'https:') {
      reject(new Error(`unsupported protocol ${protocol}`));
      return;
    }
    if (request.signal?.aborted) {
      reject(request.signal.reason ?? new Error('aborted'));
      return;
    }
    const body = request.body === undefined ? undefined : Buffer.from(request.body, 'utf8');
    const headers = { ...request.headers, ...(body ? { 'content-length': String(body.length) } : {}) };
    const make = protocol === 'https:' ? httpsRequest : httpRequest;
    const req = make(url, { method: request.method, headers, agent: agents[protocol] }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      let truncated = false;
      res.on('data', (chunk: Buffer) => {
        if (truncated) return;
        if (size + chunk.length > MAX_RESPONSE_BYTES) {
          chunks.push(chunk.subarray(0, MAX_RESPONSE_BYTES - size));
          size = MAX_RESPONSE_BYTES;
          truncated = true;
          // The rest is not wanted: this connection cannot be reused half-read.
          res.destroy();
          finish();
          return;
        }
        chunks.push(chunk);
        size += chunk.length;
      });
      let done = false;
      const finish = () => {
        if (done) return;
        done = true;
        request.signal?.removeEventListener('abort', onAbort);
        resolve({
          status: res.statusCode ?? 0,
          statusText: res.statusMessage ?? '',
          headers: flatHeaders(res.headers),
          text: Buffer.concat(chunks).toString('utf8'),
          truncated,
        });
      };
      res.on('end', finish);
      res.on('error', (e) => {
        if (!truncated) fail(e);
      });
    });
    const onAbort = () =>
      req.destroy(request.signal?.reason instanceof Error ? request.signal.reason : new Error('aborted'));
    let failed = false;
    const fail = (e: unknown) => {
      if (failed) return;
      failed = true;
      request.signal?.removeEventListener('abort', onAbort);
      reject(e);
    };
    request.signal?.addEventListener('abort', onAbort, { once: true });
    req.on('error', fail);
    req.end(body);
  });
}
