import type { Logger } from '@leadroute/core';
import type { LogLevel } from './config';

const RANK: Readonly<Record<LogLevel, number>> = { debug: 10, info: 20, warn: 30, error: 40 };

/** Errors as plain fields (JSON.stringify drops an Error's message and stack). */
function plain(value: unknown, depth = 0): unknown {
  if (value instanceof Error) {
    const { message, name, stack } = value;
    const cause = (value as { cause?: unknown }).cause;
    return { name, message, stack, ...(cause !== undefined && depth < 3 ? { cause: plain(cause, depth + 1) } : {}) };
  }
  if (typeof value === 'bigint') return value.toString();
  if (value && typeof value === 'object' && depth < 3 && !Array.isArray(value)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v, depth + 1)]));
  }
  return value;
}

/** What a JSON-lines logger writes to (stdout by default; a test passes its own). */
export type LineSink = (line: string) => void;

/**
 * The logger port as JSON lines (`{"level":"info","time":"…","msg":"…",…}`), one object
 * per line, the format log collectors (Docker, journald, CloudWatch, Loki) take as is.
 * A pino instance fits the same port; this keeps the server free of another dependency.
 */
export function jsonLogger(
  level: LogLevel,
  bindings: Readonly<Record<string, unknown>> = {},
  sink: LineSink = (line) => process.stdout.write(line),
): Logger {
  const at = (lvl: LogLevel) => (obj: object, msg?: string) => {
    if (RANK[lvl] < RANK[level]) return;
    let line: string;
    try {
      line = JSON.stringify({
        level: lvl,
        time: new Date().toISOString(),
        ...bindings,
        ...(plain(obj) as object),
        ...(msg === undefined ? {} : { msg }),
      });
    } catch {
      // A cyclic or otherwise unprintable field must not cost the log line.
      line = JSON.stringify({ level: lvl, time: new Date().toISOString(), ...bindings, msg, unprintable: true });
    }
    sink(`${line}\n`);
  };
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}
