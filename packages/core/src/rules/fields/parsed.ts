import type { FieldType, ParsedValue, Scalar } from '../types';

/** Options every field parser may use. */
export interface ParseOptions {
  /** IANA zone for dates written without an offset. @default 'UTC' */
  readonly timeZone?: string;
  /** Current time (epoch ms) for ages; from the service clock. Without it `age` is null. */
  readonly now?: number;
}

/**
 * Whether `value` is a {@link ParsedValue}. Duck-typed rather than branded so a
 * typed lead survives a JSON round trip (events store it).
 */
export function isParsedValue(value: unknown): value is ParsedValue {
  // Arrays never have `normal`, so no Array.isArray test is needed.
  return typeof value === 'object' && value !== null && 'normal' in value && 'valid' in value && 'type' in value;
}

/** The value comparisons use: a parsed value's normal form, anything else as is. */
export function normalOf(value: unknown): unknown {
  return isParsedValue(value) ? value.normal : value;
}

/** Whether a raw value counts as missing: undefined, null, blank text or an empty array. */
export function isBlankRaw(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.length === 0;
  return false;
}

/** Raw input as trimmed text ('' for blanks and non-scalars). */
export function rawText(raw: unknown): string {
  if (typeof raw === 'string') return raw.trim();
  if (typeof raw === 'number' && Number.isFinite(raw)) return String(raw);
  if (typeof raw === 'boolean') return String(raw);
  return '';
}

/** Builds a parsed value; components come first so the core fields cannot be overwritten. */
export function parsed(
  type: FieldType,
  raw: unknown,
  valid: boolean,
  normal: Scalar | readonly Scalar[],
  components?: Record<string, unknown>,
): ParsedValue {
  return { ...components, type, raw, valid, normal };
}
