import { jsonSchema } from '../schemas/define';
import {
  EntityAliasCreateBody,
  EntityAliasSchema,
  EntityAliasUpdateBody,
  EntityCreateBody,
  EntitySchema,
  EntityUpdateBody,
} from '../schemas/entities';
import { ActivityPageSchema, AlertSchema, AlertSettingsSchema } from '../schemas/alerts';
import { ExportCreateBody, ExportFileLinkSchema, ExportSchema } from '../schemas/exports';
import { EventQueryBody, EventSchema } from '../schemas/events';
import { FeedbackBody, FeedbackResultSchema, RecipientFeedbackBody } from '../schemas/feedback';
import { FirehoseValidationSchema, SearchHitSchema, SearchResultSchema, StatsRowSchema } from '../schemas/responses';

/** A JSON Schema (2020-12, as OpenAPI 3.1 uses it). */
export type JsonSchema = { readonly [key: string]: unknown };

const id = { type: 'string', pattern: '^[0-9a-fA-F]{24}$' } as const;
const ruleId = { type: 'string', pattern: '^[0-9a-zA-Z]{6}$' } as const;
const dateTime = { type: 'string', format: 'date-time' } as const;
const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

/** Schemas shared by the OpenAPI document, referenced as `#/components/schemas/<name>`. */
export const SCHEMAS: Readonly<Record<string, JsonSchema>> = {
  Problem: {
    type: 'object',
    description: 'RFC 9457 problem details.',
    required: ['type', 'title', 'status', 'detail', 'code'],
    properties: {
      type: { type: 'string' },
      title: { type: 'string' },
      status: { type: 'integer' },
      detail: { type: 'string' },
      code: { type: 'string', description: 'Stable error kind, e.g. NotFound, Validation.' },
      errors: {
        type: 'array',
        items: {
          type: 'object',
          required: ['path', 'message'],
          properties: { path: { type: 'string' }, message: { type: 'string' } },
        },
      },
      current_version: {
        type: 'integer',
        description: 'On 409 or 412 for a stale write of a versioned resource (a flow): its current version.',
      },
    },
  },
  Rule: {
    type: 'object',
    required: ['lhv', 'op'],
    properties: {
      id: ruleId,
      lhv: { type: 'string' },
      op: { type: 'string' },
      rhv: {
        oneOf: [
          { type: 'string' },
          { type: 'number' },
          { type: 'boolean' },
          { type: 'array', items: { type: ['string', 'number', 'boolean'] } },
        ],
      },
      rule_set: ref('RuleSet'),
    },
  },
  RuleSet: {
    type: 'object',
    required: ['op', 'rules'],
    properties: {
      id: ruleId,
      op: { enum: ['and', 'or'] },
      reason: { type: 'string' },
      rules: { type: 'array', minItems: 1, items: { oneOf: [ref('Rule'), ref('RuleSet')] } },
    },
  },
  EntityCreateBody: jsonSchema(EntityCreateBody),
  EntityUpdateBody: jsonSchema(EntityUpdateBody),
  Entity: jsonSchema(EntitySchema),
  EntityAliasCreateBody: jsonSchema(EntityAliasCreateBody),
  EntityAliasUpdateBody: jsonSchema(EntityAliasUpdateBody),
  EntityAlias: jsonSchema(EntityAliasSchema),
  StatsRow: jsonSchema(StatsRowSchema),
  SearchHit: jsonSchema(SearchHitSchema),
  SearchResult: jsonSchema(SearchResultSchema),
  FirehoseValidation: jsonSchema(FirehoseValidationSchema),
  ExportCreateBody: jsonSchema(ExportCreateBody),
  Export: jsonSchema(ExportSchema),
  ExportFileLink: jsonSchema(ExportFileLinkSchema),
  Alert: jsonSchema(AlertSchema),
  ActivityPage: jsonSchema(ActivityPageSchema),
  AlertSettings: jsonSchema(AlertSettingsSchema),
  FeedbackBody: jsonSchema(FeedbackBody),
  RecipientFeedbackBody: jsonSchema(RecipientFeedbackBody),
  FeedbackResult: jsonSchema(FeedbackResultSchema),
  FlowInput: {
    type: 'object',
    required: ['name'],
    properties: {
      name: { type: 'string' },
      enabled: { type: 'boolean' },
      fields: {
        type: 'array',
        items: {
          type: 'object',
          required: ['id', 'type'],
          properties: { id: { type: 'string' }, type: { type: 'string' } },
        },
      },
      acceptance_criteria: ref('RuleSet'),
      ping_limits: { type: 'array', items: { type: 'object' } },
      firehose: { type: 'object' },
      sources: {
        type: 'array',
        items: {
          type: 'object',
          required: ['entity_id'],
          properties: {
            entity_id: id,
            acceptance_criteria: ref('RuleSet'),
            require_posting_secret: {
              type: 'boolean',
              description:
                'Submits and pings must carry the posting secret (X-Posting-Secret or HTTP Basic password). Left out of a PUT: unchanged.',
            },
            rotate_posting_secret: {
              type: 'boolean',
              writeOnly: true,
              description: 'Replace the posting secret with a new one.',
            },
            posting_secret: {
              type: 'string',
              readOnly: true,
              description: 'Only in the answer that generated it; never shown again.',
            },
          },
        },
      },
      steps: {
        type: 'array',
        items: {
          type: 'object',
          required: ['type', 'entity_id'],
          properties: {
            id: { type: 'string' },
            type: { enum: ['recipient', 'filter'] },
            entity_id: id,
            module_id: { type: 'string' },
            config: { type: 'object' },
            rule_set: ref('RuleSet'),
          },
        },
      },
    },
  },
  Flow: {
    allOf: [
      ref('FlowInput'),
      {
        type: 'object',
        required: ['id', 'version'],
        properties: { id, version: { type: 'integer' }, created_at: dateTime, updated_at: dateTime },
      },
    ],
  },
  IntakeResult: {
    type: 'object',
    required: ['outcome', 'lead', 'price'],
    properties: {
      outcome: { enum: ['success', 'failure', 'error'] },
      reason: { type: 'string' },
      lead: { type: 'object', properties: { id } },
      price: { type: 'number' },
    },
  },
  Event: jsonSchema(EventSchema),
  EventQuery: jsonSchema(EventQueryBody),
};

export const schemaRef = ref;
export const ID_SCHEMA: JsonSchema = id;
