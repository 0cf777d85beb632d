import { Type } from '@sinclair/typebox';
import { err, ok, type Result } from 'neverthrow';
import { validator } from '../schemas/define';
import { FeedbackBody } from '../schemas/feedback';
import { isoTime, parseIsoInZone } from '../time';
import type { FeedbackInput, FeedbackType } from './types';

/** Longest reason kept: a longer one is cut to its first 1,000 characters (#19.11), never refused. */
export const MAX_REASON_LENGTH = 1000;

/** The first {@link MAX_REASON_LENGTH} UTF-16 units of `reason`, without a lone high surrogate at the cut. */
function clipReason(reason: string): string {
  const cut = reason.slice(0, MAX_REASON_LENGTH);
  const last = cut.charCodeAt(cut.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? cut.slice(0, -1) : cut;
}

/** Feedback fields after validation. */
export interface ValidFeedback {
  readonly type: FeedbackType;
  /** '' when none was sent. */
  readonly reason: string;
  /** ISO 8601 UTC: the sender's time, or the receipt time when none (or an unparsable one) was sent. */
  readonly occurred_at: string;
  /** Set when an occurred_at was sent but could not be read (recorded as the occurred_at_warning variable). */
  readonly warning?: string;
  /**
   * The length of the reason as sent, when it was longer than {@link MAX_REASON_LENGTH} and cut (recorded as
   * `reason_truncated_from`).
   */
  readonly reasonCutFrom?: number;
}

/**
 * Reads an ISO 8601 time, taking values without an offset (time-zone-naive
 * date-times and date-only values) as UTC. Undefined when it cannot be read.
 */
export function parseOccurredAt(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  // parseISO reads the ISO 8601 forms (basic and extended, week and ordinal dates); the zone applies only without an
  // offset.
  return parseIsoInZone(value.trim(), 'UTC');
}

const absent = (value: unknown) => value === undefined || value === null;

// The fields the schema checks; occurred_at is read by parseOccurredAt, which never refuses (a warning instead).
const checkFields = validator(Type.Omit(FeedbackBody, ['occurred_at']));

/**
 * The fields as the schema reads them: forms and XML send text, JSON may send a number as the reason,
 * so (as queryValidator converts query text) a type is trimmed and lower-cased, a reason trimmed or
 * a finite number made text, and an empty type or a null one left out (then it is missing).
 */
function converted(input: FeedbackInput): Record<string, unknown> {
  const { type, reason } = input;
  return {
    ...(absent(type) || type === '' ? {} : { type: typeof type === 'string' ? type.trim().toLowerCase() : type }),
    ...(absent(reason)
      ? {}
      : {
          reason:
            typeof reason === 'string'
              ? reason.trim()
              : typeof reason === 'number' && Number.isFinite(reason)
                ? String(reason)
                : reason,
        }),
  };
}

/**
 * Validates type, reason and occurred_at. A bad type or a reason that is not text is an
 * error (the spec's 400); a bad occurred_at is not: receipt time is used and a warning
 * kept. A reason over 1,000 characters is cut, and the cut is recorded (the spec lists
 * no status for it).
 * @param receivedAt the receipt time (the service clock).
 */
export function validateFeedback(input: FeedbackInput, receivedAt: number): Result<ValidFeedback, string> {
  const checked = checkFields(converted(input));
  if (checked.isErr()) return err(checked.error[0]?.message ?? 'The feedback is not valid.');
  const { type } = checked.value;
  const sent = checked.value.reason ?? '';
  const base: Omit<ValidFeedback, 'occurred_at'> =
    sent.length > MAX_REASON_LENGTH
      ? { type, reason: clipReason(sent), reasonCutFrom: sent.length }
      : { type, reason: sent };
  if (absent(input.occurred_at) || input.occurred_at === '') return ok({ ...base, occurred_at: isoTime(receivedAt) });
  const at = parseOccurredAt(input.occurred_at);
  if (at !== undefined) return ok({ ...base, occurred_at: isoTime(at) });
  const shown =
    typeof input.occurred_at === 'string'
      ? input.occurred_at.slice(0, 100)
      : JSON.stringify(input.occurred_at)?.slice(0, 100);
  return ok({
    ...base,
    occurred_at: isoTime(receivedAt),
    warning: `occurred_at ${shown} is not an ISO 8601 time; the time of receipt was used.`,
  });
}
