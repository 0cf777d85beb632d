import type { OperatorDoc } from './operator';
import type { BuiltinOperatorName } from './registry';

const ANY = 'any: text, number, range, typed fields (state, phone, date...), list';
const PATTERN_VALUES = 'any (text as written; typed values by their normal form; a list when any element matches)';
const ORDERED = 'number, range (its average), date, dob (its age against a number), time of day, or text';
const DATES = 'date, dob, or text read as a date';
const NO_CASE = 'Not applicable.';

function complement(base: OperatorDoc, name: string, examples: readonly string[]): OperatorDoc {
  return { ...base, semantics: `The exact complement of \`${name}\`: passes exactly when it fails.`, examples };
}

const equal: OperatorDoc = {
  types: ANY,
  rhv: 'a value, or an array (compared with a list value, unordered)',
  semantics:
    'Text equals text; numeric text equals the number; a typed lead value reads the rhv with its own parser (`Texas` equals a state `TX`; ' +
    'dates compare by calendar day, or by instant when the rhv has a time); a list equals a list with the same members in any order.',
  caseRule: 'Case-insensitive; outer spaces ignored.',
  examples: ['lead.state is equal to TX', 'lead.loan_amount is equal to 5000'],
};

const less: OperatorDoc = {
  types: ORDERED,
  rhv: 'a number, date, time of day or text',
  semantics:
    "The value is below the rhv, both read as the rhv's kind (number first, then date, time of day, text); incomparable values fail.",
  caseRule: 'Text compares case-insensitively.',
  examples: ['lead.age is less than 65', 'lead.dob is less than 18'],
};

const greater: OperatorDoc = {
  ...less,
  semantics: "The value is above the rhv, both read as the rhv's kind; incomparable values fail.",
  examples: ['lead.income is greater than 50000'],
};

const between: OperatorDoc = {
  types: ORDERED,
  rhv: '"min-max" (`18-65`, `18 to 65`) or a two-element array of one kind (numbers, dates, times or text)',
  semantics: 'The value lies between the two bounds, inclusive, either bound first.',
  caseRule: 'Text compares case-insensitively.',
  examples: ['lead.age is between 18-65', 'lead.loan_amount is between ["5000", "50000"]'],
};

const includedIn: OperatorDoc = {
  types: ANY,
  rhv: 'an array, or comma-separated text',
  semantics:
    'The value is one of the rhv values (compared as `is equal to` compares); a list value must be non-empty and wholly included. ' +
    'A blank value is included in nothing.',
  caseRule: 'Case-insensitive.',
  examples: ['lead.state is included in TX, CA', 'lead.postal_code is included in ["17201", "95616"]'],
};

const includes: OperatorDoc = {
  types: 'text or list',
  rhv: 'a value, or an array meaning any of',
  semantics: 'A list value has an rhv value as a member; a text value contains an rhv value as a substring.',
  caseRule: 'Case-insensitive.',
  examples: ['lead.comments includes nursing', 'lead.interests includes ["auto", "home"]'],
};

const pattern: OperatorDoc = {
  types: PATTERN_VALUES,
  rhv:
    'a regular expression (RE2 syntax; JavaScript spellings such as `\\u0041` and `(?<name>…)` accepted): ' +
    '`^AB-\\d{3}$`, or `/…/flags` with flags i, m, s; an array means any of',
  semantics:
    'Searches the value for the pattern (unanchored: write `^…$` to match the whole value). Patterns with backreferences or lookaround, ' +
    'other flags, or more than 2,000 characters are refused when the rule is saved. Matching time is linear in the value.',
  caseRule: 'Case-sensitive, unless `/…/i` or `(?i)`.',
  examples: ['lead.reference matches pattern ^AB-\\d{3}$', 'lead.email matches pattern /@gmail\\.com$/i'],
};

const glob: OperatorDoc = {
  types: PATTERN_VALUES,
  rhv: 'a glob: `*` any run of characters, `?` one character, everything else literal; an array means any of',
  semantics: 'The whole value matches the glob.',
  caseRule: 'Case-insensitive.',
  examples: ['lead.email matches glob *@gmail.com', 'lead.postal_code matches glob 787??'],
};

const blank: OperatorDoc = {
  types: 'any',
  semantics: 'Missing, null, blank (only spaces) text, or an empty list. Zero and false are not blank.',
  caseRule: NO_CASE,
  examples: ['lead.email is blank'],
};

const truth = (word: 'true' | 'false'): OperatorDoc => ({
  types: 'boolean, or text/number read as one',
  semantics:
    word === 'true'
      ? 'The value reads as true: y, yes, true, t or 1. A blank value is neither true nor false.'
      : 'The value reads as false: n, no, false, f or 0. A blank value is neither true nor false.',
  caseRule: 'Case-insensitive.',
  examples: [`lead.currently_insured is ${word}`],
});

const formatValid: OperatorDoc = {
  types: 'typed fields (email, phone, state, postal_code, date, dob, ip, url, ssn, range...); any other value',
  semantics: 'A typed value parsed as valid for its type; an untyped value is valid when it is not blank.',
  caseRule: NO_CASE,
  examples: ['lead.email format is valid', 'lead.phone_1 format is valid'],
};

const obscene: OperatorDoc = {
  types: 'text, typed values (by their text), list (any element)',
  semantics:
    "The text contains English profanity, including obfuscated spellings (the `obscenity` library's recommended English set).",
  caseRule: 'Case-insensitive.',
  examples: ['lead.first_name is obscene'],
};

const within: OperatorDoc = {
  types: DATES,
  rhv: '"N unit" with unit minutes, hours, days, weeks, months or years (`30 days`, `18 years`, `2h`)',
  semantics:
    'The date lies between now minus the duration and now, inclusive; calendar units step on the wall clock of the account time zone. ' +
    'Without an evaluation time nothing is within.',
  caseRule: 'Units in any case.',
  examples: ['lead.dob is within the last 18 years', 'lead.submitted_at is within the last 30 days'],
};

const before: OperatorDoc = {
  types: DATES,
  rhv: 'a date (without an offset it is read in the account time zone)',
  semantics: 'The date is earlier than the rhv.',
  caseRule: NO_CASE,
  examples: ['lead.move_date is before 2025-01-01'],
};

/**
 * The operator table of the built-ins, by name: what docs/operators.md publishes
 * (`npm run docs:operators` regenerates it; a test fails when it is stale). Every
 * built-in has an entry; the registry attaches them.
 */
export const BUILTIN_DOCS: Readonly<Record<BuiltinOperatorName, OperatorDoc>> = {
  'is equal to': equal,
  'is not equal to': complement(equal, 'is equal to', ['source.name is not equal to test']),
  'is less than': less,
  'is less than or equal to': {
    ...less,
    semantics: 'As `is less than`, or equal.',
    examples: ['lead.loan_amount is less than or equal to 250000'],
  },
  'is greater than': greater,
  'is greater than or equal to': {
    ...greater,
    semantics: 'As `is greater than`, or equal.',
    examples: ['lead.credit_score is greater than or equal to 620'],
  },
  'is between': between,
  'is not between': complement(between, 'is between', ['lead.age is not between 18-21']),
  'is included in': includedIn,
  'is not included in': complement(includedIn, 'is included in', ['lead.state is not included in NY, NJ']),
  includes,
  'does not include': complement(includes, 'includes', ['lead.email does not include example.']),
  'matches pattern': pattern,
  'does not match pattern': complement(pattern, 'matches pattern', ['lead.phone_1 does not match pattern ^\\+1555']),
  'matches glob': glob,
  'does not match glob': complement(glob, 'matches glob', ['lead.email does not match glob *.test']),
  'is blank': blank,
  'is not blank': complement(blank, 'is blank', ['lead.phone_1 is not blank']),
  'is true': truth('true'),
  'is false': truth('false'),
  'is not true': complement(truth('true'), 'is true', ['lead.tcpa_consent is not true']),
  'is not false': complement(truth('false'), 'is false', ['lead.tcpa_consent is not false']),
  'format is valid': formatValid,
  'format is invalid': complement(formatValid, 'format is valid', ['lead.email format is invalid']),
  'is obscene': obscene,
  'is not obscene': complement(obscene, 'is obscene', ['lead.comments is not obscene']),
  'is before': before,
  'is after': {
    ...before,
    semantics: 'The date is later than the rhv.',
    examples: ['lead.policy_expires is after 2024-06-01T00:00:00Z'],
  },
  'is within the last': within,
  'is not within the last': complement(within, 'is within the last', ['lead.dob is not within the last 18 years']),
};
