import type { FlowWriteConditions } from '../flows/service';
import { header } from './headers';
import type { HttpRequest } from './types';

/** The strong entity tag of a versioned resource: its version, quoted (`"3"`). */
export const entityTag = (version: number): string => `"${version}"`;

// An entity-tag of RFC 9110 §8.8.3: optional W/ and a quoted string without DQUOTE.
const ENTITY_TAG = /(W\/)?"([^"]*)"/g;

/**
 * `If-Match` as write conditions: `*` matches any stored version; otherwise the
 * versions its strong tags name. Weak tags never match (If-Match compares strongly),
 * nor do tags that are not ours, so a header naming none leaves an empty list: a 412.
 */
export function writeConditions(request: Pick<HttpRequest, 'headers'>): FlowWriteConditions {
  const value = header(request, 'if-match');
  if (value === undefined) return {};
  if (value.trim() === '*') return { ifMatch: 'any' };
  const versions: number[] = [];
  for (const [, weak, tag] of value.matchAll(ENTITY_TAG))
    if (!weak && tag !== undefined && /^[1-9]\d{0,14}$/.test(tag)) versions.push(Number(tag));
  return { ifMatch: versions };
}
