import type { LeadService } from '../service';
import { createHttpHandler, type HttpHandlerOptions, type LeadrouteHttpHandler } from './handler';
import { json } from './reply';
import { schemaRef } from './schemas';
import type { Route } from './types';

const PING_ERRORS = {
  400: 'The certificate ID or ping token is malformed.',
  404: 'No such certificate, or it has expired.',
};

/** Options of {@link createCertificateHandler}. */
export type CertificateHandlerOptions = Omit<HttpHandlerOptions, 'routes' | 'builtInRoutes'>;

/**
 * The certificate service's routes, relative to its base address `{cert_url}`.
 * Ping data is about a visitor, so free accounts are refused like on every lead-bearing endpoint.
 */
export function certificateRoutes(service: LeadService): Route[] {
  return [
    {
      method: 'GET',
      path: '/ping/:token',
      auth: 'key',
      leadData: true,
      summary: 'Ping data through a vendor-supplied ping URL',
      doc: { tag: 'certificates', response: schemaRef('PingData'), errors: PING_ERRORS },
      handle: (c) => service.certificates.pingByToken(c.params.token ?? '').map(json(200)),
    },
    {
      method: 'GET',
      path: '/:cert_id/ping',
      auth: 'key',
      leadData: true,
      summary: 'Ping data of a certificate',
      doc: { tag: 'certificates', response: schemaRef('PingData'), errors: PING_ERRORS },
      handle: (c) => service.certificates.ping(c.params.cert_id ?? '').map(json(200)),
    },
  ];
}

/**
 * The certificate service: a second handler, mounted at the certificate base address
 * (the example mounts it at `/certificates`). It serves `GET /{cert_id}/ping` and the
 * vendor-supplied ping URL form `GET /ping/{token}`, with Basic `API:<key>`
 * authentication: 401 without a valid key, 400 for a malformed certificate ID or
 * ping token, 404 for an unknown or expired certificate.
 */
export function createCertificateHandler(
  service: LeadService,
  options: CertificateHandlerOptions = {},
): LeadrouteHttpHandler {
  return createHttpHandler(service, { ...options, routes: certificateRoutes(service), builtInRoutes: false });
}
