/** A pino-compatible logger: pass `pino()` itself, or anything with these four methods. */
export interface Logger {
  debug(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/** Logs nothing: the default. */
export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };
