import {
  answersEarly,
  type CertificateHandlerOptions,
  createCertificateHandler,
  createHttpHandler,
  type HttpHandlerOptions,
  type HttpRequest,
  type HttpResponse,
  type LeadrouteHttpHandler,
  type LeadService,
  type NodeConnectionOptions,
  nodeRequest,
  type Principal,
  writeEarlyAnswer,
} from '@leadroute/core';
import type { NextFunction, Request, RequestHandler, Response } from 'express';

/** Options of {@link expressRouter}. */
export interface ExpressRouterOptions extends HttpHandlerOptions {
  /**
   * Pipelining depth, and how a 413 given before the body was read drains that body. @default NodeConnectionOptions'
   * defaults
   */
  readonly connection?: NodeConnectionOptions;
  /**
   * The host's own authentication: map the request (its session, its verified token,
   * `req.user` set by the host's middleware) to a Leadroute principal, usually with
   * `service.accounts.principalFor(accountId)`. Asked on routes that take an API key; a
   * principal replaces the key, undefined falls back to the key (or 401 when `apiKeys` is
   * false). Key-less routes (intake, ping, feedback) never ask it.
   * @example authenticate: async (req) => (req.session?.accountId ? (await service.accounts.principalFor(req.session.accountId)).unwrapOr(undefined) : undefined)
   */
  readonly authenticate?: (req: Request) => Principal | undefined | Promise<Principal | undefined>;
}

/** Raised to the host's error handler when a middleware read the body and did not keep it. */
export class BodyAlreadyReadError extends Error {
  readonly status = 500;
  constructor() {
    super(
      '[leadroute] The request body was read by another middleware before the Leadroute router and not kept in req.body. ' +
        'Mount the router before that middleware, or use a body parser that sets req.body (express.json(), express.urlencoded(), express.text(), express.raw()).',
    );
    this.name = 'BodyAlreadyReadError';
  }
}

function send(req: Request, res: Response, response: HttpResponse, options?: NodeConnectionOptions): void {
  if (answersEarly(req, response)) {
    writeEarlyAnswer(req, res, response, options);
    return;
  }
  // One writeHead with every header (merged with any set before, such as X-Powered-By).
  res.writeHead(response.status, response.headers).end(response.body);
}

/**
 * Express middleware serving the whole Leadroute API. Mount it with `app.use('/api', expressRouter(service))`.
 * It reads the raw body itself (10 MB limit, JSON, XML and form); mounted after the host's own
 * body parsers (`app.use(express.json())`) it takes the body they parsed instead. Paths that are
 * not Leadroute routes go on to the host's next middleware (`next()`), so its own routes and 404
 * handler answer them; only a failure of the binding itself reaches the host's error handler.
 * @example
 * app.use('/leadroute', expressRouter(createLeadService({ storage: memoryStorage() })));
 */
export function expressRouter(service: LeadService, options?: ExpressRouterOptions): RequestHandler {
  return middleware(createHttpHandler(service, options), options?.connection, options?.authenticate);
}

/**
 * Express middleware serving the certificate service (`GET /{cert_id}/ping` and the
 * vendor ping URL form) at the certificate base address. Mount it before a router at `/`.
 * @example
 * app.use('/certificates', expressCertificateRouter(service));
 */
export function expressCertificateRouter(
  service: LeadService,
  options?: CertificateHandlerOptions & { readonly connection?: NodeConnectionOptions },
): RequestHandler {
  return middleware(createCertificateHandler(service, options), options?.connection);
}

/**
 * What the host's middleware left of the request: a body its parser read (the stream is
 * consumed: `req.readableEnded`, or body-parser 1's `req._body`), the host's request ID
 * (`req.id`, as pino-http and express-request-id set it) and its authentication.
 */
function fromHost(
  req: Request,
  authenticate: ExpressRouterOptions['authenticate'],
): Partial<HttpRequest> | BodyAlreadyReadError {
  const extra: { -readonly [K in keyof HttpRequest]?: HttpRequest[K] } = {};
  // The client's address as Express sees it (after its trust-proxy rules): key-less routes throttle failed look-ups by
  // it.
  if (req.ip !== undefined) extra.remoteAddress = req.ip;
  const consumed = req.readableEnded || (req as { _body?: unknown })._body === true;
  if (consumed) {
    if (req.body === undefined) return new BodyAlreadyReadError();
    extra.parsedBody = { value: req.body };
  }
  const id: unknown = (req as { id?: unknown }).id;
  if (typeof id === 'string' || typeof id === 'number') extra.requestId = String(id);
  if (authenticate) extra.hostPrincipal = async () => authenticate(req);
  return extra;
}

function middleware(
  handle: LeadrouteHttpHandler,
  options?: NodeConnectionOptions,
  authenticate?: ExpressRouterOptions['authenticate'],
): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    if (!handle.owns(req.url)) return next();
    const host = fromHost(req, authenticate);
    if (host instanceof Error) return next(host);
    // nodeRequest waits for this connection's previous answer to be written out (pipelining).
    nodeRequest(req, res, req.url, req.headers, options)
      .then((request) => ('status' in request ? request : handle({ ...request, ...host })))
      .then((response) => send(req, res, response, options), next);
  };
}
