import type { Result } from 'neverthrow';
import { err, ok } from 'neverthrow';
import { compilePath } from './path';
import { TEMPLATE_HELPERS } from './template-helpers';
import type { EvalEnv } from '../domain/rules';
import { toText } from './values';

/** A compiled template: context in, value out (typed when the template is one expression). */
export type CompiledTemplate = (ctx: unknown, env?: EvalEnv) => unknown;

type Expr = (ctx: unknown, env: EvalEnv | undefined) => unknown;

const TOKEN = /\s*(?:(\()|(\))|"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'|([^\s()"']+))/y;
const NUMBER = /^-?\d+(?:\.\d+)?$/;
// Bare math operators read as text, so `{{ math lead.a + 1 }}` and `{{ math lead.a round }}` work.
const SYMBOLS = new Set(['+', '-', '*', '/', '%', '^', 'round', 'floor', 'ceil', 'abs', 'min', 'max']);
const LITERALS: Record<string, unknown> = { true: true, false: false, null: null };

type Token = { kind: '(' | ')' } | { kind: 'literal'; value: unknown } | { kind: 'word'; text: string };

function tokenize(source: string): Result<Token[], string> {
  const tokens: Token[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < source.length) {
    if (source.slice(TOKEN.lastIndex).trim() === '') break;
    const match = TOKEN.exec(source);
    if (!match) return err(`unexpected text "${source.slice(TOKEN.lastIndex).trim()}"`);
    const [, open, close, double, single, word] = match;
    if (open) tokens.push({ kind: '(' });
    else if (close) tokens.push({ kind: ')' });
    else if (double !== undefined || single !== undefined) {
      tokens.push({ kind: 'literal', value: (double ?? single ?? '').replace(/\\(.)/g, '$1') });
    } else if (word !== undefined) {
      if (NUMBER.test(word)) tokens.push({ kind: 'literal', value: Number(word) });
      else if (SYMBOLS.has(word)) tokens.push({ kind: 'literal', value: word });
      else if (Object.hasOwn(LITERALS, word)) tokens.push({ kind: 'literal', value: LITERALS[word] });
      else tokens.push({ kind: 'word', text: word });
    }
  }
  return ok(tokens);
}

// expr := helper arg+ | arg ; arg := '(' expr ')' | literal | path
function parseExpr(tokens: Token[], at: { i: number }): Result<Expr, string> {
  const first = tokens[at.i];
  const next = tokens[at.i + 1];
  if (first?.kind === 'word' && Object.hasOwn(TEMPLATE_HELPERS, first.text) && next && next.kind !== ')') {
    const helper = TEMPLATE_HELPERS[first.text];
    if (!helper) return err(`unknown helper "${first.text}"`);
    at.i += 1;
    const args: Expr[] = [];
    while (at.i < tokens.length && tokens[at.i]?.kind !== ')') {
      const arg = parseArg(tokens, at);
      if (arg.isErr()) return arg;
      args.push(arg.value);
    }
    return ok((ctx, env) =>
      helper(
        args.map((arg) => arg(ctx, env)),
        env,
      ),
    );
  }
  return parseArg(tokens, at);
}

function parseArg(tokens: Token[], at: { i: number }): Result<Expr, string> {
  const token = tokens[at.i];
  at.i += 1;
  if (!token) return err('missing expression');
  if (token.kind === 'literal') {
    const value = token.value;
    return ok(() => value);
  }
  if (token.kind === 'word') {
    const get = compilePath(token.text);
    return ok((ctx) => get(ctx));
  }
  if (token.kind === ')') return err('unexpected ")"');
  const inner = parseExpr(tokens, at);
  if (inner.isErr()) return inner;
  if (tokens[at.i]?.kind !== ')') return err('missing ")"');
  at.i += 1;
  return inner;
}

function compileExpression(source: string): Result<Expr, string> {
  const tokens = tokenize(source);
  if (tokens.isErr()) return err(tokens.error);
  if (tokens.value.length === 0) return err('empty expression {{ }}');
  const at = { i: 0 };
  const expr = parseExpr(tokens.value, at);
  if (expr.isErr()) return expr;
  if (at.i < tokens.value.length) return err(`unexpected text after the expression in "{{${source}}}"`);
  return expr;
}

const cache = new Map<string, Result<CompiledTemplate, string>>();
const CACHE_LIMIT = 2000;

/** Whether text contains template syntax at all. */
export function isTemplate(source: string): boolean {
  return source.includes('{{');
}

/**
 * Compiles a template once (cached by source). Text without `{{` is a constant; a
 * template that is exactly one expression (`{{ lead.email }}`) yields its value
 * itself, typed; otherwise the parts are joined as text. An Err names the problem.
 */
export function tryCompileTemplate(source: string): Result<CompiledTemplate, string> {
  const cached = cache.get(source);
  if (cached) return cached;
  const result = build(source);
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(source, result);
  return result;
}

function build(source: string): Result<CompiledTemplate, string> {
  if (!isTemplate(source)) return ok(() => source);
  const parts: (string | Expr)[] = [];
  let rest = source;
  while (rest !== '') {
    const open = rest.indexOf('{{');
    if (open < 0) {
      parts.push(rest);
      break;
    }
    const close = rest.indexOf('}}', open + 2);
    if (close < 0) return err(`unclosed "{{" in template "${source}"`);
    if (open > 0) parts.push(rest.slice(0, open));
    const expr = compileExpression(rest.slice(open + 2, close));
    if (expr.isErr()) return err(`${expr.error} in template "${source}"`);
    parts.push(expr.value);
    rest = rest.slice(close + 2);
  }
  const exprs = parts.filter((part): part is Expr => typeof part !== 'string');
  const only = exprs[0];
  if (
    exprs.length === 1 &&
    only &&
    parts.every((part) => part === only || (typeof part === 'string' && part.trim() === ''))
  ) {
    return ok((ctx, env) => only(ctx, env));
  }
  return ok((ctx, env) => {
    let text = '';
    for (const part of parts) text += typeof part === 'string' ? part : toText(part(ctx, env));
    return text;
  });
}

/**
 * Compiles a template (see {@link tryCompileTemplate}).
 * @throws Error for a malformed template: validate rules first (a programmer error).
 * @example compileTemplate('{{ uppercase lead.state }}')(ctx) // 'TX'
 */
export function compileTemplate(source: string): CompiledTemplate {
  const result = tryCompileTemplate(source);
  if (result.isErr()) throw new Error(`[leadroute] [rules] ${result.error}`);
  return result.value;
}
