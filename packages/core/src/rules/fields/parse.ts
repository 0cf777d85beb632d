import type { FieldType, ParsedValue, Scalar } from '../../domain/rules';
import { parseDate, parseDob, parseTime } from './dates';
import { parseEmail } from './email';
import type { ParseOptions } from './parsed';
import { isParsedValue, parsed } from './parsed';
import { parsePhone } from './phone';
import { parsePostalCode } from './postal';
import { parseRange } from './range';
import { parseState } from './state';
import { parseBoolean, parseGender, parseNumber, parseSsn, parseStreet, parseString } from './text';
import { parseCertUrl, parseIp, parseUrl } from './web';

type Parser = (raw: unknown, options: ParseOptions) => ParsedValue;

// A Record over FieldType, so adding a type without a parser does not compile.
const PARSERS: Record<FieldType, Parser> = {
  string: parseString,
  number: parseNumber,
  boolean: parseBoolean,
  phone: parsePhone,
  email: parseEmail,
  postal_code: parsePostalCode,
  state: parseState,
  street: parseStreet,
  date: parseDate,
  time: parseTime,
  dob: parseDob,
  range: parseRange,
  gender: parseGender,
  url: parseUrl,
  ip: parseIp,
  ssn: parseSsn,
  trustedform_cert_url: parseCertUrl,
};

/** Every field type, for validating declarations. */
export const FIELD_TYPES: readonly FieldType[] = Object.keys(PARSERS) as FieldType[];

/** Whether `value` names a field type. */
export function isFieldType(value: unknown): value is FieldType {
  return typeof value === 'string' && Object.hasOwn(PARSERS, value);
}

/**
 * Parses a raw lead value for its type, never rejecting it: see {@link ParsedValue}.
 * An array is parsed element by element: `normal` is the elements' normal forms,
 * `valid` whether there are any and all are valid, `items` the parsed elements.
 * @example parseValue('state', 'Texas').normal // 'TX'
 */
export function parseValue(type: FieldType, raw: unknown, options: ParseOptions = {}): ParsedValue {
  if (isParsedValue(raw)) return raw.type === type ? raw : parseValue(type, raw.raw, options);
  if (Array.isArray(raw)) {
    const items = raw.map((item: unknown) => PARSERS[type](item, options));
    const normal = items.map((item) => (Array.isArray(item.normal) ? null : (item.normal as Scalar)));
    return parsed(type, raw, items.length > 0 && items.every((item) => item.valid), normal, { items });
  }
  return PARSERS[type](raw, options);
}
