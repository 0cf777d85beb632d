/** Reads one value out of a context by a dotted path. */
export type PathGetter = (ctx: unknown) => unknown;

// Keys that would reach Object.prototype's members (`constructor`, `__proto__`,
// `toString`...): paths naming one read own properties only. Every other key is
// read directly, which is much faster and cannot reach anything inherited but
// array methods, which are harmless.
const INHERITED = new Set(Object.getOwnPropertyNames(Object.prototype));

function safeStep(value: unknown, key: string): unknown {
  if (typeof value !== 'object' || value === null) return undefined;
  return Object.hasOwn(value, key) ? (value as Record<string, unknown>)[key] : undefined;
}

function fastStep(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}

function step(value: unknown, key: string): unknown {
  return INHERITED.has(key) ? safeStep(value, key) : fastStep(value, key);
}

/**
 * Compiles a dotted path (`lead.phone_1.area`, `lead.items.0`) into a getter, with
 * unrolled versions for the common short paths so evaluation loops over nothing.
 */
export function compilePath(path: string): PathGetter {
  const keys = path.trim().split('.');
  if (keys.some((key) => INHERITED.has(key))) {
    return (ctx) => {
      let value = ctx;
      for (const key of keys) value = safeStep(value, key);
      return value;
    };
  }
  return generatedGetter(keys) ?? closureGetter(keys);
}

/**
 * A getter generated as code (`ctx.lead.state` with null checks), so each path
 * gets its own property-load sites: V8 then sees one object shape per site and
 * reads as fast as hand-written code. Keys are embedded as JSON string literals,
 * so no key can inject code. Where code generation is forbidden (a strict CSP),
 * the closure getter is used instead.
 */
function generatedGetter(keys: readonly string[]): PathGetter | undefined {
  let body = 'let v = ctx;\n';
  for (const key of keys) {
    body += `if (typeof v !== 'object' || v === null) return undefined;\nv = v[${JSON.stringify(key)}];\n`;
  }
  try {
    return new Function('ctx', `${body}return v;`) as PathGetter;
  } catch {
    return undefined;
  }
}

function closureGetter(keys: readonly string[]): PathGetter {
  const [a = '', b = '', c = ''] = keys;
  switch (keys.length) {
    case 1:
      return (ctx) => fastStep(ctx, a);
    case 2:
      return (ctx) => fastStep(fastStep(ctx, a), b);
    case 3:
      return (ctx) => fastStep(fastStep(fastStep(ctx, a), b), c);
    default:
      return (ctx) => {
        let value = ctx;
        for (const key of keys) value = fastStep(value, key);
        return value;
      };
  }
}

/**
 * The value at a dotted path in the context, or undefined when any step is missing.
 * @example resolvePath({ lead: { state: 'TX' } }, 'lead.state') // 'TX'
 */
export function resolvePath(ctx: unknown, path: string): unknown {
  let value = ctx;
  for (const key of path.trim().split('.')) value = step(value, key);
  return value;
}
