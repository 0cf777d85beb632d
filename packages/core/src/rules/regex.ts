import type { Result } from 'neverthrow';
import { err, ok } from 'neverthrow';
import { RE2JS } from 're2js';

/**
 * Tenant patterns run on re2js (RE2): matching time is linear in the text, whatever
 * the pattern, so no rule, query or template can stall the process by backtracking.
 * RE2 has no backreferences or lookaround; such patterns are refused when compiled.
 */
export type Pattern = RE2JS;

const REGEX_LITERAL = /^\/(.+)\/([a-z]*)$/s;
const FLAGS: Readonly<Record<string, number>> = { i: RE2JS.CASE_INSENSITIVE, m: RE2JS.MULTILINE, s: RE2JS.DOTALL };
const cache = new Map<string, Result<Pattern, string>>();
const CACHE_LIMIT = 1000;

/** Longest pattern accepted: RE2 compiles in time and memory proportional to the pattern. */
export const MAX_PATTERN_LENGTH = 2000;

function build(source: string, flags: number, translate = true): Result<Pattern, string> {
  try {
    // translateRegExp accepts JavaScript spellings RE2 lacks (`\u0041`, `\u{1F600}`, `(?<name>…)`).
    return ok(RE2JS.compile(translate ? RE2JS.translateRegExp(source) : source, flags));
  } catch (error) {
    return err(error instanceof Error ? error.message : String(error));
  }
}

function remember(key: string, result: Result<Pattern, string>): Result<Pattern, string> {
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(key, result);
  return result;
}

/**
 * Compiles a tenant regular expression once (cached): `^AB-\d{3}$` as written, or
 * `/source/flags` with flags from `i`, `m`, `s` (any other flag is refused, `g` and `y`
 * included: a test has no state to carry). An invalid pattern, or one RE2 cannot run
 * in linear time (backreferences, lookaround), is an Err with the engine's message.
 * @param extraFlags flags the caller allows beyond i, m, s and ignores (template `replace` takes `g`)
 */
export function compilePattern(pattern: string, extraFlags = ''): Result<Pattern, string> {
  const key = `${extraFlags}\0${pattern}`;
  const cached = cache.get(key);
  if (cached) return cached;
  if (pattern.length > MAX_PATTERN_LENGTH) return remember(key, err(`is longer than ${MAX_PATTERN_LENGTH} characters`));
  const literal = REGEX_LITERAL.exec(pattern);
  if (!literal) return remember(key, build(pattern, 0));
  let flags = 0;
  for (const flag of new Set(literal[2] ?? '')) {
    if (extraFlags.includes(flag)) continue;
    const bit = FLAGS[flag];
    if (bit === undefined) return remember(key, err(`has flag "${flag}"; only i, m and s are supported`));
    flags |= bit;
  }
  return remember(key, build(literal[1] ?? '', flags));
}

/**
 * Compiles a glob (`*` any run, `?` one character, everything else literal) to a
 * pattern over the whole text, case-insensitive, like the text operators.
 */
export function compileGlob(glob: string): Result<Pattern, string> {
  const key = `glob\0${glob}`;
  const cached = cache.get(key);
  if (cached) return cached;
  if (glob.length > MAX_PATTERN_LENGTH) return remember(key, err(`is longer than ${MAX_PATTERN_LENGTH} characters`));
  let source = '';
  for (const char of glob) source += char === '*' ? '.*' : char === '?' ? '.' : RE2JS.quote(char);
  return remember(key, build(`^${source}$`, RE2JS.CASE_INSENSITIVE | RE2JS.DOTALL, false));
}
