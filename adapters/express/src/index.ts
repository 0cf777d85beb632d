import {
  type CertificateHandlerOptions,
  createCertificateHandler,
  createHttpHandler,
  type HttpHandler,
  type HttpHandlerOptions,
  type HttpResponse,
  type LeadService,
} from '@leadroute/core';
import type { NextFunction, Request, RequestHandler, Response } from 'express';

/** Options of {@link expressRouter}. */
export type ExpressRouterOptions = HttpHandlerOptions;

function send(res: Response, response: HttpResponse): void {
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
  return middleware(createHttpHandler(service, options));
}

/**
 * Express middleware serving the certificate service (`GET /{cert_id}/ping` and the
 * vendor ping URL form) at the certificate base address. Mount it before a router at `/`.
 * @example
 * app.use('/certificates', expressCertificateRouter(service));
 */
export function expressCertificateRouter(service: LeadService, options?: CertificateHandlerOptions): RequestHandler {
  return middleware(createCertificateHandler(service, options));
}

function middleware(handle: HttpHandler): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const remoteAddress = req.ip === undefined ? {} : { remoteAddress: req.ip };
    handle({ method: req.method, url: req.url, headers: req.headers, body: req, ...remoteAddress }).then((response) => send(res, response), next);
  };
}
