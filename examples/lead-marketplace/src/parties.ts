import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { XMLParser } from 'fast-xml-parser';

/** What a party's server received: the path, the content type and the body as it read it. */
export interface Received {
  readonly path: string;
  readonly contentType: string;
  readonly fields: Record<string, unknown>;
}

/** A party on loopback: a buyer that takes leads in its own format, or a vendor that takes returns. */
export interface Party {
  readonly name: string;
  readonly url: string;
  readonly received: Received[];
  close(): Promise<void>;
}

const xml = new XMLParser({ parseTagValue: false });

async function read(req: IncomingMessage): Promise<Received> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  const url = new URL(req.url ?? '/', 'http://party');
  const contentType = req.headers['content-type'] ?? '';
  const fields: Record<string, unknown> = contentType.includes('json')
    ? (JSON.parse(text) as Record<string, unknown>)
    : contentType.includes('xml')
      ? ((Object.values(xml.parse(text) as Record<string, unknown>)[0] ?? {}) as Record<string, unknown>)
      : contentType.includes('form')
        ? Object.fromEntries(new URLSearchParams(text))
        : Object.fromEntries(url.searchParams);
  return { path: url.pathname, contentType, fields };
}

/** Starts a party whose answer is `answer(received)`: [status, content type, body]. */
export async function startParty(
  name: string,
  answer: (received: Received) => readonly [number, string, string],
): Promise<Party> {
  const received: Received[] = [];
  const server: Server = createServer(async (req, res) => {
    const got = await read(req);
    received.push(got);
    const [status, type, body] = answer(got);
    res.writeHead(status, { 'content-type': type });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    name,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * The three buyers, each with its own format and prices (all bid on pings, in their format):
 * - Acme takes JSON and pays 18 for Texas, 9 elsewhere;
 * - Bluebonnet takes forms and pays 22 for Texas leads with a mobile phone;
 * - Cardinal takes XML and pays 20 anywhere.
 */
export async function startBuyers(): Promise<{ acme: Party; bluebonnet: Party; cardinal: Party }> {
  const acme = await startParty('Acme Insurance (JSON)', () => [
    200,
    'application/json',
    JSON.stringify({ outcome: 'success', reference: `ACME-${Date.now()}` }),
  ]);
  const bluebonnet = await startParty('Bluebonnet Auto (form)', () => [200, 'text/plain', 'status=ACCEPTED&id=BB-7']);
  const cardinal = await startParty('Cardinal Mutual (XML)', () => [
    200,
    'application/xml',
    '<response><status>accepted</status><leadId>CM-42</leadId></response>',
  ]);
  return { acme, bluebonnet, cardinal };
}
