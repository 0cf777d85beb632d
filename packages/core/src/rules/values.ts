import { isParsedValue, normalOf } from './fields/parsed';

// Canonical decimal text only (no leading zeros), so a ZIP such as "01234" stays
// text while "5" and "5.0" equal the number 5.
const NUMERIC = /^-?(?:0|[1-9]\d*)(?:\.\d+)?$/;

/** The number a value denotes: a number, or numeric text; otherwise null. */
export function toNumber(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string') {
    const text = value.trim();
    return NUMERIC.test(text) ? Number(text) : null;
  }
  return null;
}

/** Display text of a value: normal forms, arrays joined with `, `, blanks as ''. */
export function toText(value: unknown): string {
  const normal = normalOf(value);
  if (normal === undefined || normal === null) return '';
  if (Array.isArray(normal)) return normal.map(toText).join(', ');
  if (normal instanceof Date) return normal.toISOString();
  if (typeof normal === 'object') return JSON.stringify(normal);
  return String(normal);
}

/**
 * The identity used by equality and membership: numbers (and numeric text) by
 * value, everything else as trimmed lower-case text. Two values are equal when
 * their keys are.
 */
export function keyOf(value: unknown): string {
  if (typeof value === 'string') {
    // Hot path: only text starting like a number pays for the numeric test, and
    // only text with outer whitespace pays for trimming.
    const first = value.charCodeAt(0);
    if ((first >= 48 && first <= 57) || first === 45) {
      const number = toNumber(value);
      if (number !== null) return `#${number}`;
    }
    const last = value.charCodeAt(value.length - 1);
    return (first <= 32 || last <= 32 ? value.trim() : value).toLowerCase();
  }
  if (typeof value === 'number') return Number.isFinite(value) ? `#${value}` : '';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (value === undefined || value === null) return '';
  return keyOf(toText(value));
}

/** Elements of a list-like value: arrays as is, parsed arrays by their normal forms. */
export function listOf(value: unknown): readonly unknown[] | null {
  const normal = normalOf(value);
  return Array.isArray(normal) ? normal : null;
}

/** Splits comma-separated text into trimmed, non-empty parts; arrays pass through. */
export function splitList(value: unknown): readonly unknown[] {
  const list = listOf(value);
  if (list) return list;
  const normal = normalOf(value);
  if (typeof normal !== 'string') return normal === undefined || normal === null ? [] : [normal];
  return normal
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
}

/** Whether a value is missing: undefined, null, blank text, empty list, or a parsed blank. */
export function isBlank(value: unknown): boolean {
  const inner = isParsedValue(value) ? value.raw : value;
  if (inner === undefined || inner === null) return true;
  if (typeof inner === 'string') return inner.trim() === '';
  if (Array.isArray(inner)) return inner.length === 0;
  return false;
}
