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
  /** @default 10 MiB (the spec's 10 MB feedback limit) */
  readonly bytes: number;
  /** Deepest nesting of objects and arrays. @default 32 */
  readonly depth: number;
  /** Most keys and array items in the whole body. @default 100000 */
  readonly fields: number;
}

export const DEFAULT_BODY_LIMITS: BodyLimits = { bytes: 10 * 1024 * 1024, depth: 32, fields: 100_000 };

/** Keys that could reach an object's prototype when a body is merged into another object. */
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** Whether the request carries a body at all (by its framing headers). */
export function hasBody(request: HttpRequest): boolean {
  const length = header(request, 'content-length');
  if (length !== undefined) return length.trim() !== '0';
  return header(request, 'transfer-encoding') !== undefined;
}

/**
 * Reads the body, refusing it with 413 as soon as it passes `limit` bytes:
 * by Content-Length before reading anything, else while reading, so an
 * oversized body is never buffered whole.
 */
export async function readBody(request: HttpRequest, limit: number): Promise<Result<Uint8Array, LeadrouteError>> {
  const declared = Number(header(request, 'content-length') ?? Number.NaN);
  if (declared > limit) return err(errors.payloadTooLarge(limit));
  const { body } = request;
  if (body === undefined) return ok(new Uint8Array());
  if (typeof body === 'string') {
    const bytes = Buffer.from(body, 'utf8');
    return bytes.byteLength > limit ? err(errors.payloadTooLarge(limit)) : ok(bytes);
  }
  if (body instanceof Uint8Array) return body.byteLength > limit ? err(errors.payloadTooLarge(limit)) : ok(body);
  const chunks: Uint8Array[] = [];
  let size = 0;
  // Pull chunks by hand: breaking a for-await would destroy a Node request and
  // with it the socket the 413 answer has to go out on.
  const iterator = body[Symbol.asyncIterator]();
  for (;;) {
    const next = await iterator.next();
    if (next.done) break;
    const chunk = typeof next.value === 'string' ? Buffer.from(next.value) : next.value;
    size += chunk.byteLength;
    if (size > limit) return err(errors.payloadTooLarge(limit));
    chunks.push(chunk);
  }
  return ok(Buffer.concat(chunks, size));
}

/** The body format named by a Content-Type header, or an error saying why there is none. */
export function bodyFormat(request: HttpRequest): Result<BodyFormat, LeadrouteError> {
  const raw = header(request, 'content-type');
  if (raw === undefined || raw.trim() === '')
    return err(errors.unsupportedMediaType('A request body needs a Content-Type header.'));
  let type: string;
  try {
    type = contentType.parse(raw).type;
  } catch {
    return err(errors.unsupportedMediaType(`Content-Type ${raw} cannot be parsed.`));
  }
  const format = (BODY_MEDIA_TYPES as Record<string, BodyFormat>)[type] ?? (type.endsWith('+json') ? 'json' : undefined);
  if (!format)
    return err(errors.unsupportedMediaType(`Content-Type ${type} is not supported; use ${Object.keys(BODY_MEDIA_TYPES).join(', ')}.`));
  return ok(format);
}

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

function parseText(text: string, format: BodyFormat): unknown {
  switch (format) {
    case 'json':
      return JSON.parse(text);
    case 'xml': {
      // Entity expansion is refused outright rather than configured away.
      if (/<!(DOCTYPE|ENTITY)/i.test(text)) throw new BodyError('XML with a DOCTYPE or entity declarations is not accepted.');
      const valid = XMLValidator.validate(text);
      if (valid !== true) throw new BodyError(`Invalid XML at line ${valid.err.line}: ${valid.err.msg}`);
      const doc: unknown = xmlParser.parse(text);
      const roots = doc && typeof doc === 'object' ? Object.values(doc) : [];
      if (roots.length !== 1) throw new BodyError('XML must have exactly one root element.');
      return roots[0] === '' ? {} : roots[0];
    }
    case 'form': {
      const out: Record<string, string | string[]> = {};
      for (const [key, value] of new URLSearchParams(text)) {
        const prior = out[key];
        out[key] = prior === undefined ? value : Array.isArray(prior) ? [...prior, value] : [prior, value];
      }
      return out;
    }
  }
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
    for (const [key, item] of Object.entries(v)) {
      if (FORBIDDEN_KEYS.has(key)) continue;
      if (++fields > limits.fields) throw new BodyError(`The body has more than ${limits.fields} fields.`);
      out[key] = walk(item, depth + 1);
    }
    return out;
  };
  return walk(value, 0);
}

/** Decodes and parses body bytes in the given format; a 400 value names what failed. */
export function parseBody(bytes: Uint8Array, format: BodyFormat, limits: BodyLimits = DEFAULT_BODY_LIMITS): Result<unknown, LeadrouteError> {
  if (bytes.byteLength === 0) return ok(undefined);
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return ok(sanitize(parseText(text, format), limits));
  } catch (e) {
    const reason = e instanceof BodyError ? e.message : e instanceof TypeError ? 'The body is not valid UTF-8.' : `The body is not valid ${format.toUpperCase()}: ${(e as Error).message}`;
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
