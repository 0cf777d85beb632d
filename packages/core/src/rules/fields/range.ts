import type { ParsedValue } from '../../domain/rules';
import { parsed, rawText } from './parsed';

const NUMBER = String.raw`-?\$?\d[\d,]*(?:\.\d+)?[kK]?`;
const BETWEEN = new RegExp(String.raw`^(${NUMBER})\s*(?:-|–|to)\s*(${NUMBER})$`, 'i');
const AT_LEAST = new RegExp(String.raw`^(?:(${NUMBER})\s*\+|(?:over|above|at least|more than)\s+(${NUMBER}))$`, 'i');
const AT_MOST = new RegExp(String.raw`^(?:under|below|less than|up to|at most)\s+(${NUMBER})$`, 'i');
const SINGLE = new RegExp(`^(${NUMBER})$`);

/** Reads `"$50,000"`, `"50k"` or `"-3.5"` as a number. */
export function rangeNumber(text: string | undefined): number | null {
  if (text === undefined) return null;
  const thousands = /k$/i.test(text);
  const value = Number(text.replace(/[$,kK]/g, ''));
  if (!Number.isFinite(value)) return null;
  return thousands ? value * 1000 : value;
}

/**
 * A numeric range as forms offer it: `"18-24"`, `"$50,000 - $75,000"`, `"100+"`,
 * `"under 18"`, or a single number. Components min, max (null when open), avg
 * (mean of the known bounds, what ordering operators compare) and mid (avg rounded
 * down, for mapping to whole-number fields).
 */
export function parseRange(raw: unknown): ParsedValue {
  const text = rawText(raw);
  let min: number | null = null;
  let max: number | null = null;
  let match: RegExpExecArray | null;
  if ((match = BETWEEN.exec(text))) {
    min = rangeNumber(match[1]);
    max = rangeNumber(match[2]);
    if (min !== null && max !== null && min > max) [min, max] = [max, min];
  } else if ((match = AT_LEAST.exec(text))) {
    min = rangeNumber(match[1] ?? match[2]);
  } else if ((match = AT_MOST.exec(text))) {
    max = rangeNumber(match[1]);
  } else if ((match = SINGLE.exec(text))) {
    min = max = rangeNumber(match[1]);
  }
  const bounds = [min, max].filter((bound): bound is number => bound !== null);
  if (bounds.length === 0) return parsed('range', raw, false, text, { min: null, max: null, avg: null, mid: null });
  const avg = bounds.reduce((sum, bound) => sum + bound, 0) / bounds.length;
  const normal = `${min ?? ''}-${max ?? ''}`;
  return parsed('range', raw, true, normal, { min, max, avg, mid: Math.floor(avg) });
}
