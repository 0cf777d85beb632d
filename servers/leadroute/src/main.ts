/**
 * The production entry point: `node --import tsx servers/leadroute/src/main.ts`
 * (the Dockerfile's CMD, and what test/deploy runs). Configuration comes from the
 * environment variables listed in README.md; logs are JSON lines on stdout.
 */
import { readConfig } from './config';
import { jsonLogger } from './logger';
import { startServer } from './server';

const config = readConfig(process.env);
if (config.isErr()) {
  const logger = jsonLogger('error', { service: 'leadroute' });
  logger.error({ problems: config.error }, 'invalid configuration');
  process.exit(2);
}
const logger = jsonLogger(config.value.logLevel, { service: 'leadroute' });

const running = await startServer(config.value, logger).catch((e: unknown) => {
  logger.error({ err: e }, 'leadroute could not start');
  process.exit(1);
});

let stopping = false;
const stop = (signal: NodeJS.Signals): void => {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'shutting down');
  // Orchestrators kill after their own grace period (Docker: stop_grace_period); end first, and say why.
  const deadline = setTimeout(() => {
    logger.error({ timeoutMs: config.value.shutdownTimeoutMs }, 'shutdown timed out; exiting with work under way');
    process.exit(1);
  }, config.value.shutdownTimeoutMs);
  deadline.unref();
  running.shutdown().then(
    () => {
      logger.info({}, 'stopped');
      process.exit(0);
    },
    (e: unknown) => {
      logger.error({ err: e }, 'shutdown failed');
      process.exit(1);
    },
  );
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
