import querystring from 'node:querystring';
import contentType from 'content-type';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { err, ok, type Result } from 'neverthrow';
import { errors, type LeadrouteError } from '../errors';
import type { HttpRequest } from './types';
import { header } from './headers';

/** The body formats the handler reads, by media type. */
export const BODY_MEDIA_TYPES = {
  'application/json': 'json',
  'application/xml': 'xml',
  'text/xml': 'xml',
  'application/x-www-form-urlencoded': 'form',
} as const;

export type BodyFormat = (typeof BODY_MEDIA_TYPES)[keyof typeof BODY_MEDIA_TYPES];

/** Bounds that keep a hostile body from exhausting the process. */
export interface BodyLimits {
  /** @default 10000000 (the spec's 10 MB: decimal megabytes, #19.14) */
  readonly bytes: number;
  /** Deepest nesting of objects and arrays. @default 32 */
  readonly depth: number;
  /** Most keys and array items in the whole body. @default 100000 */
  readonly fields: number;
}

export const DEFAULT_BODY_LIMITS: BodyLimits = { bytes: 10_000_000, depth: 32, fields: 100_000 };

/** Keys that could reach an object's prototype when a body is merged into another object. */
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** Whether the request carries a body at all (by its framing headers). */
export function hasBody(request: HttpRequest): boolean {
  const length = header(request, 'content-length');
  if (length !== undefined) return length.trim() !== '0';
  return header(request, 'transfer-encoding') !== undefined;
}

/** Whether the request's Content-Length already says its body is over `limit` bytes. */
export function declaredTooLarge(request: HttpRequest, limit: number): boolean {
  return Number(header(request, 'content-length') ?? Number.NaN) > limit;
}

/** The part of a Node readable stream (an `IncomingMessage`) {@link readNodeStream} uses. */
interface NodeReadable {
  on(event: 'data', listener: (chunk: Uint8Array | string) => void): unknown;
  on(event: 'end' | 'close', listener: () => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  off(event: 'data', listener: (chunk: Uint8Array | string) => void): unknown;
  off(event: 'end' | 'close', listener: () => void): unknown;
  off(event: 'error', listener: (error: Error) => void): unknown;
  pause(): unknown;
  readonly readableEnded: boolean;
}

const isNodeReadable = (body: object): body is NodeReadable & object =>
  'on' in body && 'off' in body && 'pause' in body && 'readableEnded' in body && typeof body.on === 'function';

/**
 * A Node stream read with its events: what the async iterator did, without its promise per chunk and its set-up
 * (a tenth of a small request's CPU, #22). Over `limit` the stream is paused, not destroyed: its socket still has to
 * carry the 413.
 */
function readNodeStream(stream: NodeReadable, limit: number): Promise<Result<Uint8Array, LeadrouteError>> {
  if (stream.readableEnded) return Promise.resolve(ok(new Uint8Array()));
  return new Promise((resolve) => {
    const chunks: Uint8Array[] = [];
    let size = 0;
    const settle = (result: Result<Uint8Array, LeadrouteError>) => {
      stream.off('data', data);
      stream.off('end', end);
      stream.off('error', failed);
      stream.off('close', closed);
      resolve(result);
    };
    const data = (chunk: Uint8Array | string) => {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      size += bytes.byteLength;
      if (size > limit) {
        stream.pause();
        settle(err(errors.payloadTooLarge(limit)));
      } else chunks.push(bytes);
    };
    const end = () => settle(ok(Buffer.concat(chunks, size)));
    // A request stream fails or closes early only when its client hangs up mid-body: nobody is left to answer.
    const failed = (e: Error) =>
      settle(err(errors.aborted('The client closed the connection before sending the whole body.', e)));
    const closed = () =>
      settle(err(errors.aborted('The client closed the connection before sending the whole body.', undefined)));
    stream.on('data', data);
    stream.on('end', end);
    stream.on('error', failed);
    stream.on('close', closed);
  });
}

/**
 * Reads the body, refusing it with 413 as soon as it passes `limit` bytes:
 * by Content-Length before reading anything, else while reading, so an
 * oversized body is never buffered whole.
 */
export async function readBody(request: HttpRequest, limit: number): Promise<Result<Uint8Array, LeadrouteError>> {
  if (declaredTooLarge(request, limit)) return err(errors.payloadTooLarge(limit));
  const { body } = request;
  if (body === undefined) return ok(new Uint8Array());
  if (typeof body === 'string') {
    const bytes = Buffer.from(body, 'utf8');
    return bytes.byteLength > limit ? err(errors.payloadTooLarge(limit)) : ok(bytes);
  }
  if (body instanceof Uint8Array) return body.byteLength > limit ? err(errors.payloadTooLarge(limit)) : ok(body);
  if (isNodeReadable(body)) return readNodeStream(body, limit);
  const chunks: Uint8Array[] = [];
  let size = 0;
  // Pull chunks by hand: breaking a for-await would destroy a Node request and
  // with it the socket the 413 answer has to go out on.
  const iterator = body[Symbol.asyncIterator]();
  for (;;) {
    let next: IteratorResult<Uint8Array | string>;
    try {
      next = await iterator.next();
    } catch (e) {
      // A request stream fails only when its client hangs up mid-body: nobody is left to answer.
      return err(errors.aborted('The client closed the connection before sending the whole body.', e));
    }
    if (next.done) break;
    const chunk = typeof next.value === 'string' ? Buffer.from(next.value) : next.value;
    size += chunk.byteLength;
    if (size > limit) return err(errors.payloadTooLarge(limit));
    chunks.push(chunk);
  }
  return ok(Buffer.concat(chunks, size));
}

/** How to read a body: its format, and the text encoding its bytes are in (a WHATWG encoding name). */
export interface BodyType {
  readonly format: BodyFormat;
  /**
   * The declared charset, normalized (`latin1` and `iso-8859-1` read as `windows-1252`, as browsers do). @default
   * 'utf-8'
   */
  readonly charset: string;
}

/** The body format and charset named by a Content-Type header, or an error saying why the body cannot be read. */
export function bodyFormat(request: HttpRequest): Result<BodyType, LeadrouteError> {
  const raw = header(request, 'content-type');
  if (raw === undefined || raw.trim() === '')
    return err(errors.unsupportedMediaType('A request body needs a Content-Type header.'));
  let parsed: ReturnType<typeof contentType.parse>;
  try {
    parsed = contentType.parse(raw);
  } catch {
    return err(errors.unsupportedMediaType(`Content-Type ${raw} cannot be parsed.`));
  }
  const { type } = parsed;
  const format =
    (BODY_MEDIA_TYPES as Record<string, BodyFormat>)[type] ?? (type.endsWith('+json') ? 'json' : undefined);
  if (!format)
    return err(
      errors.unsupportedMediaType(
        `Content-Type ${type} is not supported; use ${Object.keys(BODY_MEDIA_TYPES).join(', ')}.`,
      ),
    );
  const label = parsed.parameters.charset;
  if (label === undefined) return ok({ format, charset: 'utf-8' });
  // TextDecoder knows every WHATWG encoding label; one it refuses is a charset nobody here can read.
  try {
    return ok({ format, charset: new TextDecoder(label).encoding });
  } catch {
    const message = `Charset ${label} is not supported; use utf-8, iso-8859-1, windows-1252, utf-16le or another WHATWG encoding.`;
    return err(errors.unsupportedMediaType(message, label));
  }
}

/**
 * Percent-decodes to bytes (`+` as a space): the function querystring.parse itself decodes with, present in
 * every Node release but missing from @types/node. Bytes, not text, so the body's charset can decode them.
 */
const unescapeBuffer = (querystring as unknown as { unescapeBuffer(s: string, decodeSpaces: boolean): Buffer })
  .unescapeBuffer;

const xmlParser = new XMLParser({
  ignoreAttributes: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  parseTagValue: false,
  processEntities: false,
  trimValues: true,
});

/** Thrown inside the parsers only; turned into a 400 value before it leaves this file. */
class BodyError extends Error {}

/**
 * Whether JSON text opens more than `limit` arrays or objects one inside another (brackets inside strings left out):
 * read before `JSON.parse`, which built all 4,000,000 levels of an 8 MB `[[[[...` before {@link sanitize} could count
 * them (5 s in one turn of the event loop, from a key-less request). A count of brackets, not a parser: the text is
 * parsed by `JSON.parse` once it passes.
 */
function nestedDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (quoted) {
      if (c === 0x5c)
        i++; // a backslash escapes the next character, a quote too
      else if (c === 0x22) quoted = false;
    } else if (c === 0x22) quoted = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

function parseXmlOrJson(text: string, format: 'json' | 'xml', limits: BodyLimits): unknown {
  if (format === 'json') {
    // sanitize counts the top level as depth 0: `limit + 1` brackets deep is the first it refuses.
    if (nestedDeeperThan(text, limits.depth + 1))
      throw new BodyError(`The body is nested deeper than ${limits.depth} levels.`);
    return JSON.parse(text);
  }
  // Entity expansion is refused outright rather than configured away.
  if (/<!(DOCTYPE|ENTITY)/i.test(text))
    throw new BodyError('XML with a DOCTYPE or entity declarations is not accepted.');
  const valid = XMLValidator.validate(text);
  if (valid !== true) throw new BodyError(`Invalid XML at line ${valid.err.line}: ${valid.err.msg}`);
  const doc: unknown = xmlParser.parse(text);
  const roots = doc && typeof doc === 'object' ? Object.values(doc) : [];
  if (roots.length !== 1) throw new BodyError('XML must have exactly one root element.');
  return roots[0] === '' ? {} : roots[0];
}

/**
 * A form body. querystring builds repeated keys' arrays in place (linear time; copying an array per
 * repeat made 30,000 repeats of one key take seconds) and stops counting at `maxKeys`, so a body
 * with more fields than the limit is refused without being split whole.
 */
function parseFormBody(bytes: Uint8Array, charset: string, limits: BodyLimits): unknown {
  // Percent-escapes are bytes in the body's charset. For the ASCII-compatible charsets the body is read
  // byte for byte (latin1 loses nothing) and each name and value is decoded once its escapes are bytes.
  // UTF-16 is not ASCII-compatible: decode it first; its escapes are then read as UTF-8, as URLSearchParams does.
  const wide = charset.startsWith('utf-16');
  const text = wide ? new TextDecoder(charset, { fatal: true }).decode(bytes) : Buffer.from(bytes).toString('latin1');
  const lenient = new TextDecoder(wide ? 'utf-8' : charset);
  const decode = (s: string): string => lenient.decode(unescapeBuffer(s, true));
  const fields = querystring.parse(text, '&', '=', { maxKeys: limits.fields + 1, decodeURIComponent: decode });
  let count = 0;
  for (const value of Object.values(fields)) count += Array.isArray(value) ? value.length : 1;
  if (count > limits.fields) throw new BodyError(`The body has more than ${limits.fields} fields.`);
  return fields;
}

/**
 * Copies a parsed body into fresh plain objects, dropping prototype-reaching keys
 * and refusing bodies nested deeper or wider than the limits.
 */
function sanitize(value: unknown, limits: BodyLimits): unknown {
  let fields = 0;
  const walk = (v: unknown, depth: number): unknown => {
    if (v === null || typeof v !== 'object') return v;
    if (depth > limits.depth) throw new BodyError(`The body is nested deeper than ${limits.depth} levels.`);
    if (Array.isArray(v)) {
      fields += v.length;
      if (fields > limits.fields) throw new BodyError(`The body has more than ${limits.fields} fields.`);
      return v.map((item) => walk(item, depth + 1));
    }
    const out: Record<string, unknown> = {};
    // Key by key rather than Object.entries, which made a pair for every key of a body far past the limit first.
    for (const key in v) {
      if (!Object.hasOwn(v, key) || FORBIDDEN_KEYS.has(key)) continue;
      if (++fields > limits.fields) throw new BodyError(`The body has more than ${limits.fields} fields.`);
      out[key] = walk((v as Record<string, unknown>)[key], depth + 1);
    }
    return out;
  };
  return walk(value, 0);
}

/** A body another parser produced, sanitized and bounded as a body read here is; a 400 value names what failed. */
export function sanitizeBody(
  value: unknown,
  limits: BodyLimits = DEFAULT_BODY_LIMITS,
): Result<unknown, LeadrouteError> {
  try {
    return ok(sanitize(value, limits));
  } catch (e) {
    return err(
      errors.badRequest(e instanceof BodyError ? e.message : `The body cannot be read: ${(e as Error).message}`),
    );
  }
}

/**
 * Decodes and parses body bytes in the given format and charset; a 400 value names what failed.
 * @param charset a WHATWG encoding name, as {@link bodyFormat} gives it. @default 'utf-8'
 */
export function parseBody(
  bytes: Uint8Array,
  format: BodyFormat,
  limits: BodyLimits = DEFAULT_BODY_LIMITS,
  charset = 'utf-8',
): Result<unknown, LeadrouteError> {
  if (bytes.byteLength === 0) return ok(undefined);
  try {
    // Bytes the charset cannot hold are refused, not replaced: a form's raw bytes are checked here too.
    const text = new TextDecoder(charset, { fatal: true }).decode(bytes);
    return ok(
      sanitize(
        format === 'form' ? parseFormBody(bytes, charset, limits) : parseXmlOrJson(text, format, limits),
        limits,
      ),
    );
  } catch (e) {
    const reason =
      e instanceof BodyError
        ? e.message
        : e instanceof TypeError
          ? `The body is not valid ${charset}.`
          : `The body is not valid ${format.toUpperCase()}: ${(e as Error).message}`;
    return err(errors.badRequest(reason));
  }
}

/** Query parameters as a URLSearchParams, refusing prototype-reaching names. */
export function parseQuery(search: string): Result<URLSearchParams, LeadrouteError> {
  const params = new URLSearchParams(search);
  for (const key of params.keys()) {
    if (FORBIDDEN_KEYS.has(key)) return err(errors.badRequest(`Query parameter ${key} is not allowed.`));
  }
  return ok(params);
}
