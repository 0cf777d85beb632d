import type { Static } from '@sinclair/typebox';
import type { Result } from 'neverthrow';
import type { LeadrouteError } from '../errors';
import type { FEEDBACK_TYPES, FeedbackResultSchema, LeadSummarySchema } from '../schemas/feedback';

/** What a recipient reports about a delivered lead (spec "Feedback request" `type`). */
export type FeedbackType = (typeof FEEDBACK_TYPES)[number];

/** The lead as a feedback result shows it (spec "Feedback result" `lead`). */
export type LeadSummary = Static<typeof LeadSummarySchema>;

/**
 * The answer to a feedback submission (spec "Feedback result"), typed by its schema
 * (schemas/feedback.ts). A 201 carries outcome success or failure; some error statuses
 * carry one with outcome error or failure.
 */
export type FeedbackResult = Static<typeof FeedbackResultSchema>;

/**
 * An error of a feedback submission. Once the delivery is known, `result` is
 * the feedback result that explains it: the spec answers some errors with one
 * (400 for a bad type, 404 for an unknown recipient_record_id, and every error
 * of the recipient form, whose bodies the integration produces).
 */
export type FeedbackError = LeadrouteError & { readonly result?: FeedbackResult };

/** Feedback fields as received, before validation (body fields or query parameters). */
export interface FeedbackInput {
  readonly type?: unknown;
  readonly reason?: unknown;
  readonly occurred_at?: unknown;
}

/** What an inbound integration reads from a body: the feedback fields plus the recipient's own record ID. */
export interface InboundFeedback extends FeedbackInput {
  readonly recipient_record_id?: unknown;
}

/** A body an inbound integration renders itself instead of the negotiated JSON or XML feedback result. */
export interface RenderedFeedback {
  readonly contentType: string;
  readonly body: string;
}

/**
 * An inbound feedback integration module, `platform-<name>.inbound.feedback`,
 * served at `POST /feedback/<name>` (the name matched case-insensitively).
 * @example
 * const acme: InboundFeedbackModule = {
 *   id: 'platform-acme.inbound.feedback',
 *   package_version: '1.0.0',
 *   parse: (body) => isRecord(body) ? ok({ type: body.status === 'sold' ? 'conversion' : 'return', reason: body.note,
 * recipient_record_id: body.acme_id }) : err('Expected an object.'),
 * };
 */
export interface InboundFeedbackModule {
  readonly id: string;
  readonly package_version: string;
  /**
   * Reads the parsed request body (JSON, XML or form); an error text becomes a 400 saying the body cannot be parsed.
   */
  parse(body: unknown): Result<InboundFeedback, string>;
  /**
   * Whether a delivery by the outbound module `moduleId` is one this integration
   * reports on: recipient_record_id lookups only consider those deliveries.
   * @default any module for `standard`; else modules of the same integration, `platform-<name>.*`
   */
  delivers?(moduleId: string): boolean;
  /** Renders a feedback result (of any status) in the integration's own format; undefined keeps JSON or XML. */
  render?(status: number, result: FeedbackResult): RenderedFeedback | undefined;
}
