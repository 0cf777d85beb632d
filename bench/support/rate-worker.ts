// An open-loop load generator for latency at a fixed rate (the ping rows): request i is
// sent at start + i / rate whatever the answers before it, on a keep-alive agent, and
// its latency is taken with a monotonic clock in microseconds. autocannon's rate limit
// sends each tick's requests in a burst, which put even a bare server's p99 at 13-43 ms
// at 200 req/s. Reads one JSON argument and prints one JSON line, as load-worker.ts does.
import { Agent, request } from 'node:http';

interface Options {
  readonly url: string;
  readonly body: string;
  readonly rate: number;
  readonly duration: number;
}

const options = JSON.parse(process.argv[2] ?? '{}') as Options;
const agent = new Agent({ keepAlive: true, maxSockets: 64 });
const target = new URL(options.url);
const latencies: number[] = [];
let non2xx = 0;
let errors = 0;

const one = (): Promise<void> =>
  new Promise((resolve) => {
    const started = process.hrtime.bigint();
    const req = request(
      {
        host: target.hostname,
        port: target.port,
        path: `${target.pathname}${target.search}`,
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(options.body) },
      },
      (res) => {
        res.resume();
        res.on('end', () => {
          latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
          if ((res.statusCode ?? 0) >= 300) non2xx += 1;
          resolve();
        });
      },
    );
    req.on('error', () => {
      errors += 1;
      resolve();
    });
    req.end(options.body);
  });

const total = Math.round(options.rate * options.duration);
const start = performance.now();
const pending: Promise<void>[] = [];
for (let i = 0; i < total; i++) {
  const due = start + (i * 1000) / options.rate;
  const wait = due - performance.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  pending.push(one());
}
await Promise.all(pending);
agent.destroy();
latencies.sort((a, b) => a - b);
const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? Number.NaN;
const seconds = (performance.now() - start) / 1000;
process.stdout.write(
  `${JSON.stringify({ rps: latencies.length / seconds, total: latencies.length, p50: at(0.5), p99: at(0.99), non2xx, errors, timeouts: 0 })}\n`,
);
