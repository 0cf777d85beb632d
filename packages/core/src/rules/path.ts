/** Reads one value out of a context by a dotted path. */
export type PathGetter = (ctx: unknown) => unknown;

function step(value: unknown, key: string): unknown {
  if (typeof value !== 'object' || value === null) return undefined;
  // Own properties only: a path must not reach `constructor` or `__proto__`.
  return Object.hasOwn(value, key) ? (value as Record<string, unknown>)[key] : undefined;
}

/**
 * Compiles a dotted path (`lead.phone_1.area`, `lead.items.0`) into a getter, with
 * unrolled versions for the common short paths so evaluation loops over nothing.
 */
export function compilePath(path: string): PathGetter {
  const keys = path.trim().split('.');
  const [a = '', b = '', c = ''] = keys;
  switch (keys.length) {
    case 1:
      return (ctx) => step(ctx, a);
    case 2:
      return (ctx) => step(step(ctx, a), b);
    case 3:
      return (ctx) => step(step(step(ctx, a), b), c);
    default:
      return (ctx) => {
        let value = ctx;
        for (const key of keys) value = step(value, key);
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
