import type { FieldType, ParsedValue, Scalar } from '../../domain/rules';

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
  if (typeof value !== 'object' || value === null) return false;
  // Values made by `parsed` are recognised by their prototype in one load; the
  // shape test is for values that went through JSON. Arrays never have `normal`.
  return Object.getPrototypeOf(value) === PARSED || ('normal' in value && 'valid' in value && 'type' in value);
}

// Prototype of every parsed value: an empty object, so parsed values still
// serialize, compare and spread as plain objects.
const PARSED: object = Object.freeze({});

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
  return Object.assign(Object.create(PARSED) as ParsedValue, components, { type, raw, valid, normal });
}
