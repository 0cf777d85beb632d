import { randomUUID } from 'node:crypto';
import Negotiator from 'negotiator';
import { err, ok, type Result } from 'neverthrow';
import type { Principal } from '../context';
import type { OperatorPrincipal } from '../operators';
import { errors, type LeadrouteError } from '../errors';
import type { LeadService } from '../service';
import { AUTHENTICATE_CHALLENGE, presentedKey } from './auth';
import {
  bodyFormat,
  type BodyLimits,
  DEFAULT_BODY_LIMITS,
  declaredTooLarge,
  hasBody,
  parseBody,
  parseQuery,
  readBody,
  sanitizeBody,
} from './body';
import { header } from './headers';
import { openApiDocument } from './openapi';
import { entityTag } from './preconditions';
import { createRouter } from './router';
import { coreRoutes } from './routes';
import { internalProblem, type Problem, problemOf, statusOf } from './status';
import { clientKey, createThrottle, DEFAULT_THROTTLE, type ThrottleOptions } from './throttle';
import type { HttpHandler, HttpRequest, HttpResponse, Reply, Route, RouteContext } from './types';

/** Options of {@link createHttpHandler}. */
export interface HttpHandlerOptions {
  /**
   * Body size, depth and field-count bounds. @default DEFAULT_BODY_LIMITS (10,000,000 bytes, depth 32, 100000 fields)
   */
  readonly limits?: Partial<BodyLimits>;
  /** Extra routes served beside the built-in ones. */
  readonly routes?: readonly Route[];
  /**
   * Whether the built-in API routes are served; false serves only `routes` (how the
   * certificate handler is a handler of its own).
   * @default true
   */
  readonly builtInRoutes?: boolean;
  /**
   * Throttling of failed look-ups on key-less routes (intake, ping, feedback), per client
   * address (`HttpRequest.remoteAddress`; IPv6 per /64): beyond `failures` answers of 401, 404 or 422 per
   * `windowMs`, the address is answered 429 with `Retry-After` before any look-up. `false`
   * switches it off (only behind a gateway that does the same).
   * @default DEFAULT_THROTTLE (20 failures per 60000 ms, 10000 addresses remembered)
   */
  readonly throttle?: Partial<ThrottleOptions> | false;
  /**
   * Whether API keys authenticate requests. A host that authenticates with its own sessions
   * or tokens (`HttpRequest.hostPrincipal`, the bindings' `authenticate` option) can turn
   * them off, so no tenant key is ever accepted or kept by the host.
   * @default true
   */
  readonly apiKeys?: boolean;
}

/**
 * The handler, and whether a request path is one of its routes (the Express binding passes other paths on with
 * `next()`).
 */
export interface LeadrouteHttpHandler extends HttpHandler {
  /** Whether `url` (path and query, relative to the mount point) names one of the handler's routes, with any method. */
  owns(url: string): boolean;
}

const JSON_TYPE = 'application/json';
/** Answers of a key-less route that mean a look-up failed: what guessing IDs or posting secrets produces. */
const FAILED_LOOKUP = new Set([401, 404, 422]);
const REQUEST_ID = /^[\w.:-]{1,128}$/;
const NEVER_ABORTED = new AbortController().signal;

/** Whether a body a host's parser handed on is still text or bytes (express.text() or raw()), not a parsed value. */
const isRaw = (value: unknown): value is string | Uint8Array =>
  typeof value === 'string' || value instanceof Uint8Array;

/** The request's path and query, or undefined when they cannot be parsed (one parse, not a check and a parse). */
function parseUrl(url: string): URL | undefined {
  try {
    return new URL(url, 'http://h');
  } catch {
    return undefined;
  }
}

function problemResponse(problem: Problem, extra: Record<string, string> = {}): HttpResponse {
  return {
    status: problem.status,
    headers: { 'content-type': 'application/problem+json; charset=utf-8', ...extra },
    body: JSON.stringify(problem),
  };
}

function errorResponse(error: LeadrouteError): HttpResponse {
  const extra: Record<string, string> = {};
  if (error.type === 'Unauthorized') extra['www-authenticate'] = AUTHENTICATE_CHALLENGE;
  if (error.type === 'MethodNotAllowed') extra.allow = error.allow.join(', ');
  // A stale write learns the version to read again, as the header a retry's If-Match copies.
  if ((error.type === 'Conflict' || error.type === 'PreconditionFailed') && error.current_version !== undefined)
    extra.etag = entityTag(error.current_version);
  if (error.type === 'TooManyRequests') extra['retry-after'] = String(error.retryAfter);
  // A refused body may still be arriving: close the connection rather than read it.
  if (error.type === 'PayloadTooLarge') extra.connection = 'close';
  // A store outage is temporary: say when to come back rather than leave clients to guess or hammer.
  if (error.type === 'StorageUnavailable') extra['retry-after'] = String(error.retryAfter);
  return problemResponse(problemOf(error), extra);
}

function replyResponse(reply: Reply): HttpResponse {
  const headers = { ...reply.headers };
  if ('json' in reply)
    return {
      status: reply.status,
      headers: { 'content-type': `${JSON_TYPE}; charset=utf-8`, ...headers },
      body: JSON.stringify(reply.json),
    };
  if ('text' in reply)
    return { status: reply.status, headers: { 'content-type': reply.contentType, ...headers }, body: reply.text };
  return { status: reply.status, headers };
}

/**
 * The framework-agnostic HTTP handler: routing, authentication, body parsing,
 * content negotiation and error mapping for every endpoint. The Express and
 * Fastify bindings only translate requests and responses around it.
 */
export function createHttpHandler(service: LeadService, options: HttpHandlerOptions = {}): LeadrouteHttpHandler {
  const handlerLimits: BodyLimits = { ...DEFAULT_BODY_LIMITS, ...options.limits };
  const routes = [...(options.builtInRoutes === false ? [] : coreRoutes(service)), ...(options.routes ?? [])];
  // Serialized once: the document never changes, and every answer shares these bytes (a client that
  // pipelines requests without reading holds references to one buffer, not a fresh 120 KB copy each).
  let spec: Uint8Array | undefined;
  const openapi: Route = {
    method: 'GET',
    path: '/openapi.json',
    auth: 'none',
    summary: 'This API as an OpenAPI 3.1 document',
    doc: {
      response: {
        type: 'object',
        description: 'An OpenAPI 3.1 document.',
        examples: [{ openapi: '3.1.0', info: { title: 'Leadroute API', version: '1.0.0' }, paths: {} }],
      },
    },
    handle: async () =>
      ok({
        status: 200,
        text: (spec ??= Buffer.from(JSON.stringify(openApiDocument([...routes, openapi])), 'utf8')),
        contentType: `${JSON_TYPE}; charset=utf-8`,
      }),
  };
  const match = createRouter([...routes, openapi]);
  const { logger, clock } = service;
  const throttle =
    options.throttle === false ? undefined : createThrottle({ ...DEFAULT_THROTTLE, ...options.throttle });

  const apiKeys = options.apiKeys !== false;
  const byKey = async (request: HttpRequest): Promise<Result<Principal, LeadrouteError>> => {
    const key = apiKeys ? presentedKey(request) : undefined;
    if (key === undefined) return err(errors.unauthorized());
    return service.accounts.authenticate(key);
  };
  const authenticate = async (
    request: HttpRequest,
    route: Route,
  ): Promise<Result<Principal | OperatorPrincipal | undefined, LeadrouteError>> => {
    if (route.auth === 'none') return ok(undefined);
    const hosts = request.hostPrincipal ? await request.hostPrincipal() : undefined;
    const principal = hosts ? ok(hosts) : await byKey(request);
    if (principal.isErr()) {
      // Operator staff carry keys of their own, accepted only where a route lets staff in.
      const key = route.auth === 'key-or-staff' ? presentedKey(request) : undefined;
      return key === undefined ? err(principal.error) : service.operators.authenticate(key);
    }
    if (route.auth === 'key' && route.leadData && principal.value.account.plan === 'free')
      return err(errors.unauthorized('Free accounts have no access to leads.'));
    return ok(principal.value);
  };

  /** Each route's body limits: its own over the handler's, merged once. */
  const routeLimits = new WeakMap<Route, BodyLimits>();
  const limitsOf = (route: Route): BodyLimits => {
    if (!route.bodyLimits) return handlerLimits;
    let limits = routeLimits.get(route);
    if (!limits) routeLimits.set(route, (limits = { ...handlerLimits, ...route.bodyLimits }));
    return limits;
  };
  const readRequestBody = async (request: HttpRequest, route: Route): Promise<Result<unknown, LeadrouteError>> => {
    if (!hasBody(request)) return ok(undefined);
    const limits = limitsOf(route);
    const format = bodyFormat(request);
    if (format.isErr()) return err(format.error);
    const parsed = request.parsedBody?.value;
    // A value the host's JSON or form parser made: bounded and sanitized as a body parsed here.
    if (request.parsedBody && !isRaw(parsed))
      return declaredTooLarge(request, limits.bytes)
        ? err(errors.payloadTooLarge(limits.bytes))
        : sanitizeBody(parsed, limits);
    // Text or bytes a host's text or raw parser read are read as the stream would be (a string is already decoded).
    const bytes = await readBody(isRaw(parsed) ? { ...request, body: parsed } : request, limits.bytes);
    return bytes.andThen((b) =>
      parseBody(b, format.value.format, limits, typeof parsed === 'string' ? 'utf-8' : format.value.charset),
    );
  };

  const dispatch = async (request: HttpRequest, requestId: string): Promise<Result<Reply, LeadrouteError>> => {
    const url = parseUrl(request.url);
    if (!url) return err(errors.badRequest('The request URL cannot be parsed.'));
    const method = request.method.toUpperCase();
    const found = match(method === 'OPTIONS' ? '' : method, url.pathname);
    if (found.kind === 'bad-path') return err(errors.badRequest('The request path is not valid percent-encoding.'));
    if (found.kind === 'none') return err(errors.notFound(`Endpoint ${url.pathname}`));
    if (found.kind === 'wrong-method')
      return method === 'OPTIONS'
        ? ok({ status: 204, empty: true, headers: { allow: found.allow.join(', ') } })
        : err(errors.methodNotAllowed(found.allow));
    const { route, params } = found;
    if (route.auth !== 'none' || !throttle) return dispatchRoute(request, requestId, url, route, params);
    // Without an address (a host calling the handler directly) every such request shares one allowance.
    const address = clientKey(request.remoteAddress ?? '');
    const wait = throttle.wait(address, clock.now());
    if (wait > 0) return err(errors.tooManyRequests(wait));
    const result = await dispatchRoute(request, requestId, url, route, params);
    if (FAILED_LOOKUP.has(result.isOk() ? result.value.status : statusOf(result.error)))
      throttle.fail(address, clock.now());
    return result;
  };

  type Dispatched = Promise<Result<Reply, LeadrouteError>>;
  const dispatchRoute = async (
    request: HttpRequest,
    requestId: string,
    url: URL,
    route: Route,
    params: Record<string, string>,
  ): Dispatched => {
    const fail = (
      error: LeadrouteError,
      phase: 'request' | 'handle',
      mediaType?: string,
    ): Result<Reply, LeadrouteError> => {
      const mapped = route.mapError?.(error, {
        request,
        params,
        phase,
        ...(mediaType === undefined ? {} : { mediaType }),
      });
      return mapped ? ok(mapped) : err(error);
    };

    const query = parseQuery(url.search);
    if (query.isErr()) return fail(query.error, 'request');
    const principal = await authenticate(request, route);
    if (principal.isErr()) return fail(principal.error, 'request');

    const produces = route.produces ?? [JSON_TYPE];
    const accept = header(request, 'accept');
    const mediaType = accept ? new Negotiator({ headers: { accept } }).mediaType([...produces]) : produces[0];
    if (mediaType === undefined)
      return fail(errors.notAcceptable(`This endpoint answers with ${produces.join(', ')}.`), 'request');

    const body = route.readsBody ? await readRequestBody(request, route) : ok(undefined);
    if (body.isErr()) return fail(body.error, 'request', mediaType);

    const signal = request.signal ?? NEVER_ABORTED;
    if (signal.aborted) return err(errors.aborted());
    const ctx: RouteContext = { request, params, query: query.value, body: body.value, mediaType, requestId, signal };
    const result = await (route.auth === 'key'
      ? route.handle({ ...ctx, principal: principal.value as Principal })
      : route.auth === 'key-or-staff'
        ? route.handle({ ...ctx, principal: principal.value as Principal | OperatorPrincipal })
        : route.handle(ctx));
    return result.isErr() ? fail(result.error, 'handle', mediaType) : result;
  };

  const handler = async (request: HttpRequest): Promise<HttpResponse> => {
    const started = performance.now();
    const incoming = request.requestId ?? header(request, 'x-request-id');
    const requestId = incoming && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    let response: HttpResponse;
    try {
      const result = await dispatch(request, requestId);
      response = result.match(replyResponse, errorResponse);
      if (
        result.isErr() &&
        (result.error.type === 'StorageFailure' ||
          result.error.type === 'StorageUnavailable' ||
          result.error.type === 'UpstreamFailure')
      )
        logger.error({ requestId, err: result.error.cause, type: result.error.type }, result.error.message);
      // A client that hung up is routine, not a server fault.
      if (result.isErr() && result.error.type === 'Aborted')
        logger.debug({ requestId, err: result.error.cause }, result.error.message);
    } catch (e) {
      logger.error({ requestId, err: e }, 'unhandled error in route');
      response = problemResponse(internalProblem());
    }
    if (request.method.toUpperCase() === 'HEAD') response = { status: response.status, headers: response.headers };
    // Every answer is whole, so it is framed by its length: without it node:http chunks the body and writes the
    // head, the chunk's size, the body and the last chunk as one writev of several buffers instead of one write.
    const { body } = response;
    const length =
      body === undefined ? undefined : typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
    response = {
      ...response,
      headers: {
        ...response.headers,
        'x-request-id': requestId,
        ...(length === undefined ? {} : { 'content-length': String(length) }),
      },
    };
    logger.info(
      {
        requestId,
        method: request.method,
        path: request.url.split('?')[0],
        status: response.status,
        ms: Math.round(performance.now() - started),
      },
      'request',
    );
    return response;
  };
  const owns = (url: string): boolean => {
    const parsed = parseUrl(url);
    if (!parsed) return true;
    const found = match('', parsed.pathname);
    return found.kind !== 'none';
  };
  return Object.assign(handler, { owns });
}
