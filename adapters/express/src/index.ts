import { createHttpHandler, type HttpHandlerOptions, type HttpResponse, type LeadService } from '@leadroute/core';
import type { NextFunction, Request, RequestHandler, Response } from 'express';

/** Options of {@link expressRouter}. */
export type ExpressRouterOptions = HttpHandlerOptions;

function send(res: Response, response: HttpResponse): void {
  res.status(response.status);
  for (const [name, value] of Object.entries(response.headers)) res.setHeader(name, value);
  res.end(response.body);
}

/**
 * Express middleware serving the whole Leadroute API. Mount it with `app.use('/api', expressRouter(service))`,
 * before any body parser: it reads the raw body itself (10 MB limit, JSON, XML and form).
 * @example
 * app.use('/leadroute', expressRouter(createLeadService({ storage: memoryStorage() })));
 */
export function expressRouter(service: LeadService, options?: ExpressRouterOptions): RequestHandler {
  const handle = createHttpHandler(service, options);
  return (req: Request, res: Response, next: NextFunction) => {
    handle({ method: req.method, url: req.url, headers: req.headers, body: req }).then((response) => send(res, response), next);
  };
}
