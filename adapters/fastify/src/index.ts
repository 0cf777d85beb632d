import {
  answersEarly,
  createCertificateHandler,
  createHttpHandler,
  type HttpHandlerOptions,
  type LeadService,
  type NodeConnectionOptions,
  nodeRequest,
  type Principal,
  writeEarlyAnswer,
} from '@leadroute/core';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';

/** Options of the {@link leadroute} plugin. */
export interface LeadroutePluginOptions extends HttpHandlerOptions {
  readonly service: LeadService;
  /**
   * What the plugin serves: the API, or the certificate service (`GET /{cert_id}/ping`
   * and the vendor ping URL form) at the certificate base address.
   * @default 'api'
   * @example await app.register(leadroute, { service, serve: 'certificates', prefix: '/certificates' });
   */
  readonly serve?: 'api' | 'certificates';
  /**
   * Pipelining depth, and how a 413 given before the body was read drains that body. @default NodeConnectionOptions'
   * defaults
   */
  readonly connection?: NodeConnectionOptions;
  /**
   * The host's own authentication: map the request (its session, a token its `onRequest`
   * hook verified) to a Leadroute principal, usually with `service.accounts.principalFor(accountId)`.
   * Asked on routes that take an API key; a principal replaces the key, undefined falls back
   * to the key (or 401 when `apiKeys` is false). Key-less routes never ask it.
   */
  readonly authenticate?: (request: FastifyRequest) => Principal | undefined | Promise<Principal | undefined>;
  /**
   * Whether closing the Fastify instance closes the service too (`service.close()`: its
   * background jobs and storage). Leave it false when the service outlives the server.
   * @default false
   */
  readonly closeService?: boolean;
}

const plugin: FastifyPluginAsync<LeadroutePluginOptions> = async (
  app,
  { service, serve = 'api', connection, authenticate, closeService = false, ...options },
) => {
  const handle =
    serve === 'certificates' ? createCertificateHandler(service, options) : createHttpHandler(service, options);
  if (closeService) app.addHook('onClose', async () => service.close());
  // Fastify refuses a Content-Type it cannot parse before any parser runs; the
  // handler owns that decision (the spec's 406/415), so hide the header from
  // Fastify and hand the original on.
  const contentTypes = new WeakMap<object, string>();
  app.addHook('onRequest', async (request) => {
    const type = request.headers['content-type'];
    if (type === undefined) return;
    contentTypes.set(request, type);
    request.headers['content-type'] = 'application/octet-stream';
  });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
  const prefix = app.prefix;
  app.all('/*', async (request, reply) => {
    const url = request.url.startsWith(prefix) ? request.url.slice(prefix.length) || '/' : request.url;
    // A path that is no Leadroute route is the host's, as the Express router hands it on: its not-found handler answers.
    if (!handle.owns(url)) return reply.callNotFound();
    const type = contentTypes.get(request);
    const headers = type === undefined ? request.headers : { ...request.headers, 'content-type': type };
    // nodeRequest waits for this connection's previous answer to be written out (pipelining).
    const next = await nodeRequest(request.raw, reply.raw, url, headers, connection);
    const response =
      'status' in next
        ? next
        : await handle({
            ...next,
            remoteAddress: request.ip,
            // Fastify's request ID (its genReqId, or the header named by requestIdHeader) is the one answered and
            // logged.
            requestId: String(request.id),
            ...(authenticate ? { hostPrincipal: async () => authenticate(request) } : {}),
          });
    if (answersEarly(request.raw, response)) {
      // Written by hand: Fastify would end the response at once, and node:http close the socket on unread bytes.
      // FastifyReply is thenable; hijack() answers the reply itself, there is nothing to await.
      void reply.hijack();
      return writeEarlyAnswer(request.raw, reply.raw, response, connection);
    }
    return reply
      .code(response.status)
      .headers(response.headers)
      .send(response.body ?? '');
  });
};

/**
 * Fastify plugin serving the whole Leadroute API under the prefix it is registered with.
 * It reads raw bodies itself (10 MB limit, JSON, XML and form): Fastify's parsers are
 * switched off inside the plugin's own scope only, so it stays encapsulated (no
 * `skip-override`) and the host's parsers, hooks and decorators outside it are untouched;
 * the host's `onRequest` hooks (its authentication) and error handler still apply.
 * @example
 * await app.register(leadroute, { service, prefix: '/leadroute' });
 */
export const leadroute = Object.assign(plugin, {
  // What fastify-plugin would set, without skip-override: the plugin must keep its own scope.
  [Symbol.for('fastify.display-name')]: '@leadroute/fastify',
  [Symbol.for('plugin-meta')]: { name: '@leadroute/fastify', fastify: '5.x' },
});

export default leadroute;
