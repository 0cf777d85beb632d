import type { Result } from 'neverthrow';
import { err, ok } from 'neverthrow';

const REGEX_LITERAL = /^\/(.+)\/([a-z]*)$/s;
const cache = new Map<string, Result<RegExp, string>>();
const CACHE_LIMIT = 1000;

/** Escapes every regular-expression metacharacter in `text`. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

// Glob to regex: `*` any run, `?` one character, everything else literal. Globs
// match the whole text, case-insensitively, like the text operators.
function globSource(glob: string): string {
  let source = '';
  for (const char of glob) source += char === '*' ? '.*' : char === '?' ? '.' : escapeRegExp(char);
  return `^${source}$`;
}

function build(source: string, flags: string): Result<RegExp, string> {
  try {
    return ok(new RegExp(source, flags));
  } catch (error) {
    return err(error instanceof Error ? error.message : String(error));
  }
}

/**
 * Compiles a pattern once (cached): `/source/flags` is a regular expression with
 * its own flags (the stateful `g` and `y` are dropped, so `test` stays pure);
 * anything else is a glob. An invalid pattern is an Err with the engine's message.
 */
export function toPattern(pattern: string): Result<RegExp, string> {
  const cached = cache.get(pattern);
  if (cached) return cached;
  const literal = REGEX_LITERAL.exec(pattern);
  const result = literal
    ? build(literal[1] ?? '', (literal[2] ?? '').replace(/[gy]/g, ''))
    : build(globSource(pattern), 'is');
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(pattern, result);
  return result;
}

/** A regular expression from `/source/flags` or bare source text (as template helpers take it). */
export function toRegExp(pattern: string, extraFlags = ''): Result<RegExp, string> {
  const key = `${extraFlags}\0${pattern}`;
  const cached = cache.get(key);
  if (cached) return cached;
  const literal = REGEX_LITERAL.exec(pattern);
  const source = literal ? (literal[1] ?? '') : pattern;
  const flags = new Set([...(literal?.[2] ?? ''), ...extraFlags]);
  const result = build(source, [...flags].join(''));
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(key, result);
  return result;
}
