import type { Result } from 'neverthrow';
import type { LeadrouteError } from '../errors';
import type { Id } from '../ids';

/** What a recipient reports about a delivered lead (spec "Feedback request" `type`). */
export type FeedbackType = 'conversion' | 'return';

/** The lead as a feedback result shows it (spec "Feedback result" `lead`). */
export interface LeadSummary {
  readonly id: Id;
  readonly first_name: string;
  readonly last_name: string;
  readonly email: string;
  readonly phone_1: string;
}

/**
 * The answer to a feedback submission (spec "Feedback result"). A 201 carries
 * outcome success or failure; some error statuses carry one with outcome error
 * or failure.
 */
export interface FeedbackResult {
  readonly outcome: 'success' | 'failure' | 'error';
  /** Why the outcome is not success; absent on success. */
  readonly reason?: string;
  /** The lead's purchase price; 0 on every refusal (an error status), as nothing of the lead is shown then. */
  readonly price: number;
  /** Only on a processed result (the spec's 201): a refused key-less call shows nothing of the lead (issue #18.1). */
  readonly lead?: LeadSummary;
}

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
