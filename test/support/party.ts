import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request a party received. */
export interface Seen {
  readonly method: string;
  readonly path: string;
  readonly query: Record<string, string>;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

/**
 * The other side of an integration on loopback (a buyer, a vendor's feedback endpoint): it
 * keeps each request, drops the first `resets` connections unanswered (a connection error),
 * and answers `answer` after `delayMs`; each test sets them.
 */
export async function startParty() {
  const state = {
    seen: [] as Seen[],
    resets: 0,
    delayMs: 0,
    answer: { status: 200, type: 'application/json', body: '{"outcome":"success"}' },
  };
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (state.resets > 0) {
      state.resets--;
      req.socket.destroy();
      return;
    }
    const url = new URL(req.url ?? '/', 'http://party');
    state.seen.push({
      method: req.method ?? '',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: req.headers,
      body: Buffer.concat(chunks).toString('utf8'),
    });
    setTimeout(() => {
      res.writeHead(state.answer.status, { 'content-type': state.answer.type });
      res.end(state.answer.body);
    }, state.delayMs);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return Object.assign(state, {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
