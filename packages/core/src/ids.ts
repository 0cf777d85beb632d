import { randomBytes, randomFillSync } from 'node:crypto';

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
 * particular order, so code that needs creation order sorts by a timestamp, then ID, or
 * draws its IDs from one {@link idSequence} (a lead's events do).
 * @param nowMs the creation time; pass the service clock's time.
 */
export function newId(nowMs: number): Id {
  return secondsPrefix(nowMs) + pool.hex8();
}

/**
 * Cryptographic random bytes drawn 4 KiB at a time and handed out 8 at a time, each byte
 * once (as the uuid package does): one `randomFillSync` per 512 IDs instead of one per ID,
 * which cost 13% of intake CPU (#22). The bytes are the same CSPRNG output either way.
 */
const pool = (() => {
  const bytes = Buffer.allocUnsafe(4096);
  let offset = bytes.length;
  const take = (): number => {
    if (offset + 8 > bytes.length) {
      randomFillSync(bytes);
      offset = 0;
    }
    const at = offset;
    offset += 8;
    return at;
  };
  return {
    hex8: (): string => {
      const at = take();
      return bytes.toString('hex', at, at + 8);
    },
    uint64: (): bigint => bytes.readBigUInt64BE(take()),
  };
})();

const secondsPrefix = (nowMs: number): string =>
  Math.floor(nowMs / 1000)
    .toString(16)
    .padStart(8, '0')
    .slice(-8);

const RANDOM_LIMIT = 1n << 64n;
/** Room below which a sequence starts over unordered rather than hand out IDs with few random bits. */
const MIN_ROOM = 1n << 32n;

/** IDs that sort in the order they were drawn, each still unguessable: see {@link idSequence}. */
export interface IdSequence {
  /** The next ID, later than the IDs this sequence drew before (see {@link idSequence} for the bound). */
  next(nowMs: number): Id;
}

/**
 * IDs for the records of one lead (its source event, then one event per step), so that
 * a lead's events list in the order they happened although IDs of one second are
 * otherwise in no order. Each ID is 8 hex digits of seconds and a 64-bit value from
 * `crypto.randomBytes`: the first of a second is drawn over all 64 bits, each later one
 * uniformly in the lower half of the room above the one before (so it keeps one bit
 * fewer a step). Taking at most half the room a step means the room left after k steps
 * is at least half of it to the k-th: unless the first draw lands in the top 2^-25 of the
 * range, at least 30 IDs of one second stay in order before fewer than 32 bits of room
 * are left and the sequence starts over, unordered. (Drawing over the whole room, as
 * before, used it up within 8 steps for about one lead in 20,000.) Nothing links two
 * sequences: the IDs of different leads are as unrelated as {@link newId}'s.
 */
export function idSequence(): IdSequence {
  let last = -1n;
  let lastSeconds = '';
  return {
    next(nowMs) {
      const seconds = secondsPrefix(nowMs);
      // A later second sorts after every earlier ID whatever its random part: start afresh.
      if (seconds !== lastSeconds || RANDOM_LIMIT - 1n - last < MIN_ROOM) last = -1n;
      lastSeconds = seconds;
      // The first of a second over all 64 bits; each later one within half the room left above the last.
      const span = last < 0n ? RANDOM_LIMIT : (RANDOM_LIMIT - 1n - last) / 2n;
      last = last + 1n + (pool.uint64() % span);
      return seconds + last.toString(16).padStart(16, '0');
    },
  };
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
