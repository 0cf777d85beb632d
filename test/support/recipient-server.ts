import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A real HTTP recipient on loopback whose answer depends on the lead's `behavior` field. */
export interface RecipientServer {
  readonly url: string;
  /** Every lead body it received, parsed. */
  readonly received: Record<string, unknown>[];
  close(): Promise<void>;
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
}

/**
 * Behaviors: `accept` (200 {result: success, price, id}), `reject` (200 {result:
 * failure, reason}), `error500` (500), `slow` (answers after 2 s), `garbage`
 * (200 non-JSON), `reset` (destroys the socket), `bad-request` (400).
 */
export async function startRecipientServer(): Promise<RecipientServer> {
  const received: Record<string, unknown>[] = [];
  let n = 0;
  const server: Server = createServer(async (req, res) => {
    const lead = await readJson(req);
    received.push(lead);
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(typeof body === 'string' ? body : JSON.stringify(body));
    };
    switch (lead.behavior) {
      case 'reject':
        return send(200, { result: 'failure', reason: 'Duplicate lead' });
      case 'error500':
        return send(500, { message: 'boom' });
      case 'slow':
        return setTimeout(() => send(200, { result: 'success' }), 2000);
      case 'garbage':
        return send(200, '<<<not json>>>');
      case 'reset':
        return req.socket.destroy();
      case 'bad-request':
        return send(400, { result: 'failure', reason: 'Missing field' });
      default:
        return send(200, { result: 'success', price: 7.5, id: `R-${++n}` });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/leads`,
    received,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
