// The load generator of the HTTP benchmarks, in a process of its own so its CPU is not
// the server's and the server's figures do not swing with it. Reads one JSON argument
// (autocannon's options), runs it, and prints one JSON line of what the servers care about.
import autocannon from 'autocannon';

const options = JSON.parse(process.argv[2] ?? '{}') as autocannon.Options;
const result = await autocannon(options);
const summary = {
  rps: result.requests.average,
  total: result.requests.total,
  p50: result.latency.p50,
  p99: result.latency.p99,
  non2xx: result.non2xx,
  errors: result.errors,
  timeouts: result.timeouts,
};
process.stdout.write(`${JSON.stringify(summary)}\n`);
