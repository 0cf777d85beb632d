import type { ParsedValue } from '../../domain/rules';
import { parsed, rawText } from './parsed';

const US = /^(\d{5})(?:[\s-]?(\d{4}))?$/;
const CA = /^([ABCEGHJ-NPRSTVXY]\d[ABCEGHJ-NPRSTV-Z])\s?(\d[ABCEGHJ-NPRSTV-Z]\d)$/;
const UK = /^([A-Z]{1,2}\d[A-Z\d]?)\s?(\d[A-Z]{2})$/;

/**
 * A US ZIP (or ZIP+4), Canadian or UK postal code. A US code's normal form is the
 * five-digit ZIP, since routing is by ZIP; `full` keeps the +4. Canadian and UK
 * codes are upper-cased with the standard single space.
 */
export function parsePostalCode(raw: unknown): ParsedValue {
  const text = rawText(raw).toUpperCase();
  const us = US.exec(text);
  if (us) {
    const zip = us[1] ?? '';
    const plus4 = us[2] ?? null;
    return parsed('postal_code', raw, true, zip, {
      country: 'US',
      zip5: zip,
      plus4,
      full: plus4 ? `${zip}-${plus4}` : zip,
      prefix: zip.slice(0, 3),
    });
  }
  const ca = CA.exec(text);
  if (ca) {
    const full = `${ca[1]} ${ca[2]}`;
    return parsed('postal_code', raw, true, full, { country: 'CA', zip5: null, plus4: null, full, prefix: ca[1] });
  }
  const uk = UK.exec(text);
  if (uk) {
    const full = `${uk[1]} ${uk[2]}`;
    return parsed('postal_code', raw, true, full, { country: 'GB', zip5: null, plus4: null, full, prefix: uk[1] });
  }
  return parsed('postal_code', raw, false, text, { country: null, zip5: null, plus4: null, full: null, prefix: null });
}
