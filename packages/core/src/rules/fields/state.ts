import type { ParsedValue } from '../../domain/rules';
import { parsed, rawText } from './parsed';

// Postal codes of US states, DC and territories, and Canadian provinces and territories.
const US_STATES: Record<string, string> = {
  AL: 'Alabama',
  AK: 'Alaska',
  AZ: 'Arizona',
  AR: 'Arkansas',
  CA: 'California',
  CO: 'Colorado',
  CT: 'Connecticut',
  DE: 'Delaware',
  DC: 'District of Columbia',
  FL: 'Florida',
  GA: 'Georgia',
  HI: 'Hawaii',
  ID: 'Idaho',
  IL: 'Illinois',
  IN: 'Indiana',
  IA: 'Iowa',
  KS: 'Kansas',
  KY: 'Kentucky',
  LA: 'Louisiana',
  ME: 'Maine',
  MD: 'Maryland',
  MA: 'Massachusetts',
  MI: 'Michigan',
  MN: 'Minnesota',
  MS: 'Mississippi',
  MO: 'Missouri',
  MT: 'Montana',
  NE: 'Nebraska',
  NV: 'Nevada',
  NH: 'New Hampshire',
  NJ: 'New Jersey',
  NM: 'New Mexico',
  NY: 'New York',
  NC: 'North Carolina',
  ND: 'North Dakota',
  OH: 'Ohio',
  OK: 'Oklahoma',
  OR: 'Oregon',
  PA: 'Pennsylvania',
  RI: 'Rhode Island',
  SC: 'South Carolina',
  SD: 'South Dakota',
  TN: 'Tennessee',
  TX: 'Texas',
  UT: 'Utah',
  VT: 'Vermont',
  VA: 'Virginia',
  WA: 'Washington',
  WV: 'West Virginia',
  WI: 'Wisconsin',
  WY: 'Wyoming',
  AS: 'American Samoa',
  GU: 'Guam',
  MP: 'Northern Mariana Islands',
  PR: 'Puerto Rico',
  VI: 'U.S. Virgin Islands',
  UM: 'U.S. Minor Outlying Islands',
};

const CA_PROVINCES: Record<string, string> = {
  AB: 'Alberta',
  BC: 'British Columbia',
  MB: 'Manitoba',
  NB: 'New Brunswick',
  NL: 'Newfoundland and Labrador',
  NS: 'Nova Scotia',
  NT: 'Northwest Territories',
  NU: 'Nunavut',
  ON: 'Ontario',
  PE: 'Prince Edward Island',
  QC: 'Quebec',
  SK: 'Saskatchewan',
  YT: 'Yukon',
};

interface StateEntry {
  readonly code: string;
  readonly name: string;
  readonly country: 'US' | 'CA';
}

// Looked up by lower-cased code, name, and name without punctuation.
const LOOKUP = new Map<string, StateEntry>();
for (const [table, country] of [
  [US_STATES, 'US'],
  [CA_PROVINCES, 'CA'],
] as const) {
  for (const [code, name] of Object.entries(table)) {
    const entry = { code, name, country };
    LOOKUP.set(code.toLowerCase(), entry);
    LOOKUP.set(name.toLowerCase(), entry);
    LOOKUP.set(simplify(name), entry);
  }
}
LOOKUP.set('washington dc', LOOKUP.get('dc') as StateEntry);
LOOKUP.set('newfoundland', LOOKUP.get('nl') as StateEntry);
LOOKUP.set('pq', LOOKUP.get('qc') as StateEntry);

function simplify(text: string): string {
  return text.toLowerCase().replace(/[.,']/g, '').replace(/\s+/g, ' ').trim();
}

/** A US state or Canadian province, by code or name; normal is the 2-letter code. */
export function parseState(raw: unknown): ParsedValue {
  const text = rawText(raw);
  const entry = LOOKUP.get(text.toLowerCase()) ?? LOOKUP.get(simplify(text));
  if (!entry) return parsed('state', raw, false, text.toUpperCase(), { name: null, country: null });
  return parsed('state', raw, true, entry.code, { name: entry.name, country: entry.country });
}
