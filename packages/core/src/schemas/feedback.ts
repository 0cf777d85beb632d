import { type Static, Type } from '@sinclair/typebox';
import { S } from './define';

/** What a recipient reports about a delivered lead (spec "Feedback request" `type`). */
export const FEEDBACK_TYPES = ['conversion', 'return'] as const;

const fields = {
  type: Type.Union(
    FEEDBACK_TYPES.map((t) => Type.Literal(t)),
    {
      description: 'Conversion or return; trimmed and read in any case.',
      'x-message': 'must be conversion or return',
      'x-missing-message': 'is required: conversion or return',
    },
  ),
  reason: Type.String({
    description:
      'Conversion: the lifecycle stage reached. Return: why. Trimmed; a number is read as its text; longer than 1,000 characters is cut.',
    'x-message': 'must be a string',
  }),
  occurred_at: Type.String({
    description: 'ISO 8601; without an offset read as UTC; unreadable values are ignored.',
  }),
};

/**
 * The feedback fields (POST /feedback body, GET /feedback parameters). `occurred_at` is never refused:
 * a value that cannot be read is replaced by the receipt time, with a warning (the date parsing is code).
 */
export const FeedbackBody = Type.Object(
  { type: fields.type, reason: Type.Optional(fields.reason), occurred_at: Type.Optional(fields.occurred_at) },
  {
    title: 'FeedbackBody',
    examples: [{ type: 'return', reason: 'Disconnected number', occurred_at: '2026-03-02T10:00:00Z' }],
  },
);
export type FeedbackBody = Static<typeof FeedbackBody>;

const eventId = S.id();
eventId.description = 'The delivery (recipient) event the feedback refers to; it authorizes the request.';

/** The query of POST /feedback. */
export const FeedbackEventQuery = Type.Object({ event_id: eventId }, { title: 'FeedbackEventQuery' });
export type FeedbackEventQuery = Static<typeof FeedbackEventQuery>;

/** GET /feedback: the delivery event and the feedback fields, for senders that cannot send a body. */
export const FeedbackQueryParams = Type.Object(
  { event_id: eventId, ...FeedbackBody.properties },
  { title: 'FeedbackQueryParams' },
);
export type FeedbackQueryParams = Static<typeof FeedbackQueryParams>;

/** POST /feedback/{recipient_name} with the standard integration; other integrations read their own format. */
export const RecipientFeedbackBody = Type.Object(
  {
    type: Type.Optional(fields.type),
    reason: Type.Optional(fields.reason),
    occurred_at: Type.Optional(fields.occurred_at),
    recipient_record_id: Type.Optional(
      Type.Union([Type.String(), Type.Number()], { description: "The recipient's own record ID for the lead." }),
    ),
  },
  {
    title: 'RecipientFeedbackBody',
    description: 'For standard; other integrations read their own format.',
    examples: [{ recipient_record_id: 'CRM-88412', type: 'conversion', reason: 'policy sold' }],
  },
);
export type RecipientFeedbackBody = Static<typeof RecipientFeedbackBody>;

const recipientId = S.id();
recipientId.description =
  'The recipient entity the lead was delivered to. When given, recipient_record_id is looked up only among deliveries to it; ' +
  'give it when the feedback URL is configured, so that a record ID another recipient or account also uses can never select their lead.';

/** The query of POST /feedback/{recipient_name}. */
export const RecipientFeedbackQuery = Type.Object(
  { recipient_id: Type.Optional(recipientId) },
  { title: 'RecipientFeedbackQuery' },
);
export type RecipientFeedbackQuery = Static<typeof RecipientFeedbackQuery>;

/** The lead as a feedback result shows it (spec "Feedback result" `lead`). */
export const LeadSummarySchema = Type.Object(
  { id: S.id(), first_name: Type.String(), last_name: Type.String(), email: Type.String(), phone_1: Type.String() },
  { title: 'LeadSummary' },
);

/**
 * The answer to a feedback submission (spec "Feedback result"). A 201 carries outcome success or
 * failure; some error statuses carry one with outcome error or failure.
 */
export const FeedbackResultSchema = Type.Object(
  {
    outcome: Type.Union([Type.Literal('success'), Type.Literal('failure'), Type.Literal('error')]),
    reason: Type.Optional(Type.String({ description: 'Why the outcome is not success; absent on success.' })),
    price: Type.Number({
      description:
        "The lead's purchase price; 0 on every refusal (an error status), as nothing of the lead is shown then.",
    }),
    lead: Type.Optional(
      Type.Object(LeadSummarySchema.properties, {
        description: 'Only on a processed result (201): a refused key-less call shows nothing of the lead.',
      }),
    ),
  },
  {
    title: 'FeedbackResult',
    description: 'Feedback result. A 201 means processed, not accepted: check outcome.',
    examples: [
      {
        outcome: 'success',
        price: 12.5,
        lead: {
          id: '5fd4e3b7c1a2b3c4d5e6f701',
          first_name: 'Jane',
          last_name: 'Doe',
          email: 'jane@example.com',
          phone_1: '5125550100',
        },
      },
    ],
  },
);
