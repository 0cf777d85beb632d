// The buyer the HTTP intake benchmarks deliver to, in a process of its own so answering
// it costs the measured server nothing. Answers every request with a fixed JSON success
// after reading its body, keeps connections alive, and prints its port.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const answer = JSON.stringify({ outcome: 'success', price: 4, reference: 'R-1' });
const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(answer) });
    res.end(answer);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`${(server.address() as AddressInfo).port}\n`));
process.on('disconnect', () => process.exit(0));
