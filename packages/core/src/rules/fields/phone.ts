import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import type { ParsedValue } from '../../domain/rules';
import { parsed, rawText } from './parsed';

const NO_COMPONENTS = {
  country_code: null,
  country: null,
  area: null,
  area_code: null,
  exchange: null,
  line: null,
  extension: null,
  national: null,
  kind: null,
  toll_free: false,
  mobile: false,
};

/**
 * A phone number, read as US when it has no country code. Normal is E.164
 * (`+12125550123`); components split a North American number into area, exchange
 * and line (`area_code` is the same as `area`, the name the issue and LeadConduit use). `kind` is libphonenumber's type hint (MOBILE, FIXED_LINE_OR_MOBILE,
 * TOLL_FREE, VOIP...), which needs the full ("max") metadata.
 */
export function parsePhone(raw: unknown): ParsedValue {
  const text = rawText(raw);
  const phone = text === '' ? undefined : parsePhoneNumberFromString(text, 'US');
  if (!phone) return parsed('phone', raw, false, text.replace(/\D/g, ''), NO_COMPONENTS);
  const national = phone.nationalNumber;
  const nanp = phone.countryCallingCode === '1' && national.length === 10;
  const kind = phone.getType() ?? null;
  // A number with a type is valid (both match the number against its plan's patterns, isValid by asking for the
  // type): asking again cost a second pass over the type patterns for every valid phone (#22).
  return parsed('phone', raw, kind !== null || phone.isValid(), phone.number, {
    country_code: phone.countryCallingCode,
    country: phone.country ?? null,
    area: nanp ? national.slice(0, 3) : null,
    area_code: nanp ? national.slice(0, 3) : null,
    exchange: nanp ? national.slice(3, 6) : null,
    line: nanp ? national.slice(6) : null,
    extension: phone.ext ?? null,
    national,
    kind,
    toll_free: kind === 'TOLL_FREE',
    mobile: kind === 'MOBILE' || kind === 'FIXED_LINE_OR_MOBILE',
  });
}
