import type { Route } from './types';

interface CompiledRoute {
  readonly route: Route;
  readonly segments: readonly string[];
}

export type RouteMatch =
  | { readonly kind: 'found'; readonly route: Route; readonly params: Record<string, string> }
  | { readonly kind: 'wrong-method'; readonly allow: readonly string[] }
  | { readonly kind: 'bad-path' }
  | { readonly kind: 'none' };

function split(path: string): string[] {
  return path.split('/').filter((s) => s !== '');
}

/** Matches method and path against a route table; literal segments win over params. */
export function createRouter(routes: readonly Route[]): (method: string, pathname: string) => RouteMatch {
  const compiled: CompiledRoute[] = routes
    .map((route) => ({ route, segments: split(route.path) }))
    // Literal segments first, so /events/stats is tried before /events/:id.
    .sort(
      (a, b) => a.segments.filter((s) => s.startsWith(':')).length - b.segments.filter((s) => s.startsWith(':')).length,
    );

  return (method, pathname) => {
    const parts = split(pathname);
    const allow = new Set<string>();
    for (const { route, segments } of compiled) {
      if (segments.length !== parts.length) continue;
      const params: Record<string, string> = {};
      let matched = true;
      for (let i = 0; i < segments.length && matched; i++) {
        const segment = segments[i] as string;
        const part = parts[i] as string;
        if (segment.startsWith(':')) {
          try {
            params[segment.slice(1)] = decodeURIComponent(part);
          } catch {
            return { kind: 'bad-path' };
          }
        } else if (segment !== part) matched = false;
      }
      if (!matched) continue;
      if (route.method === method || (method === 'HEAD' && route.method === 'GET'))
        return { kind: 'found', route, params };
      allow.add(route.method);
    }
    if (allow.size === 0) return { kind: 'none' };
    if (allow.has('GET')) allow.add('HEAD');
    return { kind: 'wrong-method', allow: [...allow].sort() };
  };
}
