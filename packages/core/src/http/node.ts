import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Problem } from './status';
import type { HttpRequest, HttpResponse } from './types';

/** How the bindings treat a connection: shared by Express and Fastify, which both run on node:http. */
export interface NodeConnectionOptions {
  /**
   * Bytes of a request body read and thrown away after an answer given before the body was read
   * (a 413), so the client reads that answer instead of a connection reset.
   * @default 16 MiB
   */
  readonly drainBytes?: number;
  /** How long that draining may last before the connection is closed anyway. @default 5000 (ms) */
  readonly drainMs?: number;
  /**
   * Most requests one connection may have waiting for their answers. The next is answered 503 and the
   * connection closed after it: kernel buffers take megabytes of answers from a client that never reads,
   * and each costs the server the work of producing it.
   * @default 8
   */
  readonly maxPipelined?: number;
}

const DEFAULTS = { drainBytes: 16 * 1024 * 1024, drainMs: 5_000, maxPipelined: 8 };

/** Per socket: when the answer before the next one has been written out, and how many requests wait. */
const turns = new WeakMap<Socket, { tail: Promise<void>; waiting: number }>();

/** The answer to a request past {@link NodeConnectionOptions.maxPipelined}: no route runs for it. */
export function tooDeepResponse(maxPipelined: number): HttpResponse {
  const problem: Problem = {
    type: 'about:blank',
    title: 'Service Unavailable',
    status: 503,
    detail: `More than ${maxPipelined} requests are waiting for answers on this connection; read the answers, or open another connection.`,
    code: 'TooManyPipelined',
  };
  const headers = {
    'content-type': 'application/problem+json; charset=utf-8',
    connection: 'close',
    'retry-after': '1',
  };
  return { status: 503, headers, body: JSON.stringify(problem) };
}

/** Resolves once `res` is written out to a socket that can take more, or once either is gone. */
function flushed(res: ServerResponse, socket: Socket): Promise<void> {
  return new Promise((resolve) => {
    const settle = () => {
      res.off('finish', written).off('close', written);
      socket.off('drain', settle).off('close', settle);
      resolve();
    };
    const written = () => {
      res.off('finish', written).off('close', written);
      if (socket.writableNeedDrain && !socket.destroyed) socket.once('drain', settle);
      else settle();
    };
    if (socket.destroyed) return settle();
    socket.once('close', settle);
    if (res.writableFinished || res.destroyed) return written();
    res.once('finish', written).once('close', written);
  });
}

/**
 * The handler's view of a Node request, once it is this request's turn on its connection.
 *
 * Pipelined requests are taken one at a time: the next starts only when the previous answer has been
 * handed to the socket and the socket needs no drain. A client that pipelines hundreds of requests
 * and reads nothing therefore costs one answer in buffers, not hundreds (node:http stops reading such
 * a socket only after it has already parsed, and we would have answered, everything in its buffer).
 * The signal aborts when the client goes away before its answer is written. A request past `maxPipelined`
 * gets the 503 answer to send instead (a response, not a request).
 */
export async function nodeRequest(
  req: IncomingMessage,
  res: ServerResponse,
  url: string,
  headers: HttpRequest['headers'] = req.headers,
  options: NodeConnectionOptions = {},
): Promise<HttpRequest | HttpResponse> {
  const { socket } = req;
  const turn = turns.get(socket) ?? { tail: Promise.resolve(), waiting: 0 };
  turns.set(socket, turn);
  const previous = turn.tail;
  const tooDeep = ++turn.waiting > (options.maxPipelined ?? DEFAULTS.maxPipelined);
  // Listeners go on the socket only when it is this answer's turn: hundreds waiting would each add one.
  turn.tail = previous.then(() => flushed(res, socket)).then(() => void turn.waiting--);
  if (tooDeep) {
    await previous;
    return tooDeepResponse(options.maxPipelined ?? DEFAULTS.maxPipelined);
  }
  const controller = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  await previous;
  if (socket.destroyed) controller.abort();
  return { method: req.method ?? 'GET', url, headers, body: req, signal: controller.signal };
}

/**
 * Whether an answer is being given before the request body was read, on a connection it closes (the
 * handler's 413). node:http would close such a socket right after the answer with body bytes still
 * unread, and the resulting TCP reset can destroy the answer before the client reads it.
 */
export function answersEarly(req: IncomingMessage, response: HttpResponse): boolean {
  return !req.complete && !req.destroyed && response.headers.connection === 'close';
}

/**
 * Writes an early answer (see {@link answersEarly}) whole, framed by Content-Length so the client knows it
 * is complete, then reads and discards the rest of the body, within bounds, before ending the response
 * and with it the connection.
 */
export function writeEarlyAnswer(
  req: IncomingMessage,
  res: ServerResponse,
  response: HttpResponse,
  options: NodeConnectionOptions = {},
): void {
  const { drainBytes, drainMs } = { ...DEFAULTS, ...options };
  const body = response.body === undefined ? Buffer.alloc(0) : Buffer.from(response.body);
  res.writeHead(response.status, { ...response.headers, 'content-length': String(body.byteLength) });
  res.write(body);
  let seen = 0;
  const finish = () => {
    clearTimeout(timer);
    req.off('data', count);
    if (!res.writableEnded) res.end();
  };
  const count = (chunk: Buffer) => {
    seen += chunk.byteLength;
    if (seen > drainBytes) {
      // A client still sending this much after its answer is not reading it: stop paying for it.
      finish();
      req.socket.destroy();
    }
  };
  const timer = setTimeout(() => {
    finish();
    req.socket.destroy();
  }, drainMs);
  timer.unref();
  // The handler may have left a paused async iterator on the request: only flowing mode drains it.
  req.removeAllListeners('readable');
  req.on('data', count);
  req.once('end', finish);
  req.once('close', finish);
  req.resume();
}

/** What Node's HTTP parser refuses before any handler runs, by its error code: the status, and what to say. */
const CLIENT_ERRORS: Readonly<Record<string, readonly [number, string, string, string]>> = {
  HPE_HEADER_OVERFLOW: [
    431,
    'Request Header Fields Too Large',
    'The request line and headers are over the limit.',
    'HeadersTooLarge',
  ],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout', 'The request was not received in time.', 'RequestTimeout'],
};

/**
 * Answers what Node's HTTP parser refuses before any handler runs (headers or a URL over its limit: 431; a request
 * too slow: 408; anything malformed: 400) with a problem document, as the handler answers everything else: Node's own
 * answers carry no body. For `server.on('clientError', ...)` of the host's server; the example and production
 * servers use it. A connection already writing an answer, or gone, is closed instead.
 * @example server.on('clientError', answerClientError);
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  const writing = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent;
  if (error.code === 'ECONNRESET' || !socket.writable || writing) {
    socket.destroy();
    return;
  }
  const [status, title, detail, code] = CLIENT_ERRORS[error.code ?? ''] ?? [
    400,
    'Bad Request',
    'The request is malformed.',
    'BadRequest',
  ];
  const problem: Problem = { type: 'about:blank', title, status, detail, code };
  const body = JSON.stringify(problem);
  socket.end(
    `HTTP/1.1 ${status} ${title}\r\ncontent-type: application/problem+json; charset=utf-8\r\n` +
      `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}
