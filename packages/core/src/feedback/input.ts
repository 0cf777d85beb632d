import { err, ok, type Result } from 'neverthrow';
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

/** A scalar body value as text: forms and XML send strings, JSON may send numbers. */
function text(value: unknown): string | undefined {
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

const absent = (value: unknown) => value === undefined || value === null;

/**
 * Validates type, reason and occurred_at. A bad type or a reason that is not text is an
 * error (the spec's 400); a bad occurred_at is not: receipt time is used and a warning
 * kept. A reason over 1,000 characters is cut, and the cut is recorded (the spec lists
 * no status for it).
 * @param receivedAt the receipt time (the service clock).
 */
export function validateFeedback(input: FeedbackInput, receivedAt: number): Result<ValidFeedback, string> {
  if (absent(input.type) || input.type === '') return err('type is required: conversion or return.');
  const type = typeof input.type === 'string' ? input.type.trim().toLowerCase() : undefined;
  if (type !== 'conversion' && type !== 'return') return err('type must be conversion or return.');
  const sent = absent(input.reason) ? '' : text(input.reason);
  if (sent === undefined) return err('reason must be a string.');
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
