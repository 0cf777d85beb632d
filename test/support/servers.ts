import type { AddressInfo } from 'node:net';
import type { HttpHandlerOptions, LeadService } from '@leadroute/core';
import { expressRouter } from '@leadroute/express';
import { leadroute } from '@leadroute/fastify';
import express from 'express';
import Fastify from 'fastify';

/** A running server of one binding, mounted under `/api` to prove mount paths work. */
export interface Binding {
  readonly name: 'express' | 'fastify';
  readonly url: string;
  close(): Promise<void>;
}

export const BINDINGS = ['express', 'fastify'] as const;

/** Starts `service` behind the named binding on a free loopback port. */
export async function startBinding(
  name: Binding['name'],
  service: LeadService,
  options?: HttpHandlerOptions,
): Promise<Binding> {
  if (name === 'express') {
    const app = express();
    app.use('/api', expressRouter(service, options));
    const server = await new Promise<import('node:http').Server>((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    const { port } = server.address() as AddressInfo;
    return {
      name,
      url: `http://127.0.0.1:${port}/api`,
      close: () =>
        new Promise((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    };
  }
  // Fastify's request ID is the one Leadroute answers (#21.10); taking it from X-Request-Id is how a host echoes its
  // callers' IDs.
  const app = Fastify({ requestIdHeader: 'x-request-id' });
  await app.register(leadroute, { service, prefix: '/api', ...options });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  return { name, url: `http://127.0.0.1:${port}/api`, close: () => app.close() };
}
