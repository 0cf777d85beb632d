import {
  answersEarly,
  type CertificateHandlerOptions,
  createCertificateHandler,
  createHttpHandler,
  type HttpHandler,
  type HttpHandlerOptions,
  type HttpResponse,
  type LeadService,
  type NodeConnectionOptions,
  nodeRequest,
  writeEarlyAnswer,
} from '@leadroute/core';
import type { NextFunction, Request, RequestHandler, Response } from 'express';

/** Options of {@link expressRouter}. */
export interface ExpressRouterOptions extends HttpHandlerOptions {
  /** Pipelining depth, and how a 413 given before the body was read drains that body. @default NodeConnectionOptions' defaults */
  readonly connection?: NodeConnectionOptions;
}

function send(req: Request, res: Response, response: HttpResponse, options?: NodeConnectionOptions): void {
  if (answersEarly(req, response)) return writeEarlyAnswer(req, res, response, options);
  // One writeHead with every header (merged with any set before, such as X-Powered-By).
  res.writeHead(response.status, response.headers).end(response.body);
}

/**
 * Express middleware serving the whole Leadroute API. Mount it with `app.use('/api', expressRouter(service))`,
 * before any body parser: it reads the raw body itself (10 MB limit, JSON, XML and form).
 * @example
 * app.use('/leadroute', expressRouter(createLeadService({ storage: memoryStorage() })));
 */
export function expressRouter(service: LeadService, options?: ExpressRouterOptions): RequestHandler {
  return middleware(createHttpHandler(service, options), options?.connection);
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

function middleware(handle: HttpHandler, options?: NodeConnectionOptions): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    // The client's address as Express sees it (after its trust-proxy rules): key-less routes throttle failed look-ups by it.
    const remoteAddress = req.ip === undefined ? {} : { remoteAddress: req.ip };
    // nodeRequest waits for this connection's previous answer to be written out (pipelining).
    nodeRequest(req, res, req.url, req.headers, options)
      .then((request) => ('status' in request ? request : handle({ ...request, ...remoteAddress })))
      .then((response) => send(req, res, response, options), next);
  };
}
