import { randomBytes } from 'node:crypto';

/** A 24-character hexadecimal identifier (spec: "All identifiers called ID"). */
export type Id = string & { readonly __brand?: 'Id' };

const ID_PATTERN = /^[0-9a-fA-F]{24}$/;
const RULE_ID_PATTERN = /^[0-9a-zA-Z]{6}$/;
const RULE_ID_ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';

/**
 * A new ID: 8 hex digits of seconds, then 16 hex digits (64 bits) of cryptographic
 * randomness drawn for this ID alone. The time prefix keeps IDs sortable by second;
 * the random part makes an ID unguessable from any other (issue #18.1: a counter and
 * a fixed per-process part let a vendor derive its neighbours' event and lead IDs,
 * and key-less routes are authorized by such IDs). Within one second IDs are in no
 * particular order, so code that needs creation order sorts by a timestamp, then ID.
 * @param nowMs the creation time; pass the service clock's time.
 */
export function newId(nowMs: number): Id {
  const seconds = Math.floor(nowMs / 1000).toString(16).padStart(8, '0').slice(-8);
  return seconds + randomBytes(8).toString('hex');
}

/** Whether `value` is a 24-hex ID. */
export function isId(value: unknown): value is Id {
  return typeof value === 'string' && ID_PATTERN.test(value);
}

/** The creation time in milliseconds encoded in an ID made by {@link newId}. */
export function idTime(id: Id): number {
  return Number.parseInt(id.slice(0, 8), 16) * 1000;
}

/** A new 6-character alphanumeric rule or rule-set ID. */
export function newRuleId(): string {
  const bytes = randomBytes(6);
  let id = '';
  for (const byte of bytes) id += RULE_ID_ALPHABET[byte % RULE_ID_ALPHABET.length];
  return id;
}

/** Whether `value` is a 6-character alphanumeric rule ID. */
export function isRuleId(value: unknown): value is string {
  return typeof value === 'string' && RULE_ID_PATTERN.test(value);
}
