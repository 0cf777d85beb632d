import type { HttpRequest } from './types';

/** A header's value, the first when repeated; names are matched case-insensitively. */
export function header(request: Pick<HttpRequest, 'headers'>, name: string): string | undefined {
  const value = request.headers[name] ?? request.headers[name.toLowerCase()];
  if (value === undefined) return undefined;
  return typeof value === 'string' ? value : value[0];
}
